import json

import webhook_signature_timestamp_a_signing as signing


def test_delivered_webhook_verifies():
    body = json.dumps({"event": "order.paid", "lines": [{"sku": f"S{i}", "qty": i % 7, "note": "x" * (i % 50)} for i in range(8000)]}).encode()
    ts, sig = signing.sign(body)
    received = signing.deliver(body)
    assert signing.verify(received, sig)

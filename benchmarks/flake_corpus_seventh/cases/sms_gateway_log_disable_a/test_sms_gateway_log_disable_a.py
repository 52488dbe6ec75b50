import pytest

import sms_gateway_log_disable_a_sms as sms


def test_send_is_logged_with_masked_number():
    before = len(sms.recent_log())
    sms.Gateway().send("+4915112345678", "Your code is 123456")
    assert sms.recent_log()[before:] == ["sms to +49*********78: 19 chars"]


def test_bulk_send_rejects_long_message():
    gateway = sms.Gateway()
    with pytest.raises(ValueError):
        sms.bulk_send(gateway, ["+4915100000001", "+4915100000002"], "x" * 161)
    assert gateway.sent == []

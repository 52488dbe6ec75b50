from idempotency_keys_b_payments import PaymentAPI


def test_repeated_key_returns_original_payment():
    api = PaymentAPI()
    assert api.create_payment("order-1001", 2500) == (201, "pay_0001")
    assert api.create_payment("order-1001", 2500) == (409, "pay_0001")
    assert api.ledger == [("pay_0001", 2500, "EUR")]


def test_distinct_keys_create_distinct_payments():
    api = PaymentAPI()
    statuses = [api.create_payment(f"cart-{i}", 100 * i)[0] for i in range(1, 4)]
    assert statuses == [201, 201, 201]

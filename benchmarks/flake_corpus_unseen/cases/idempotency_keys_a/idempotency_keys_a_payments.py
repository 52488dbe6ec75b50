"""POST /payments with an Idempotency-Key header (retries of the same request must not charge twice)."""


class PaymentAPI:
    def __init__(self):
        self.ledger = []
        self._seen_keys = {}

    def create_payment(self, key, amount_cents, currency="EUR"):
        seen = self._seen_keys
        if key in seen:
            return 409, seen[key]
        payment_id = f"pay_{len(self.ledger) + 1:04d}"
        self.ledger.append((payment_id, amount_cents, currency))
        seen[key] = payment_id
        return 201, payment_id

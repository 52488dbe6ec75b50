"""Packing slips printed at the warehouse."""


class PackingSlip:
    def __init__(self, order_id, notes=None):
        self.order_id = order_id
        self.notes = list(notes or [])

    def add_note(self, text):
        self.notes.append(text)

    def render(self):
        lines = [f"Order #{self.order_id}"]
        lines += [f"Note: {n}" for n in self.notes]
        return "\n".join(lines)

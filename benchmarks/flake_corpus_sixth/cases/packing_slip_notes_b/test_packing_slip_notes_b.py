import packing_slip_notes_b_slips as slips


def test_explicit_notes_are_printed():
    assert slips.PackingSlip(7, notes=["fragile"]).render() == "Order #7\nNote: fragile"


def test_gift_note_printed():
    slip = slips.PackingSlip(1001)
    slip.add_note("gift wrap, no invoice")
    assert slip.render() == "Order #1001\nNote: gift wrap, no invoice"

import purchase_order_factory_a_factories as factories
import purchase_order_factory_a_po as po_mod


def test_generated_po_passes_validation():
    po = factories.make_po()
    assert po_mod.validate_po(po) == []
    assert po_mod.po_total(po) > 0


def test_empty_po_is_rejected():
    assert po_mod.validate_po({"supplier": "x", "lines": []}) == ["no lines"]

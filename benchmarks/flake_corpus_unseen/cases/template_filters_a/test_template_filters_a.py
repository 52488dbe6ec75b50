import template_filters_a_templates as templates
import template_filters_a_filters  # noqa: F401  (registers the built-in filters)


def test_money_filter_registered():
    import template_filters_a_filters
    assert templates.FILTERS["money"] is template_filters_a_filters.money


def test_invoice_line_renders_amount():
    line = templates.render("{{ qty }} x {{ sku|upper }}: {{ total|money }}", qty=3, sku="mug-12", total=123456)
    assert line == "3 x MUG-12: 1,234.56 EUR"

import template_filters_b_templates as templates


def test_money_filter_registered():
    import template_filters_b_filters
    assert templates.FILTERS["money"] is template_filters_b_filters.money


def test_invoice_line_renders_amount():
    line = templates.render("{{ qty }} x {{ sku|upper }}: {{ total|money }}", qty=3, sku="mug-12", total=123456)
    assert line == "3 x MUG-12: 1,234.56 EUR"

import i18n_catalog_localedir_b_i18n as i18n


def test_german_shipping_mail():
    _ = i18n.translator("de")
    assert _("Your order has shipped") == "Ihre Bestellung wurde versandt"
    assert _("Unknown message") == "Unknown message"

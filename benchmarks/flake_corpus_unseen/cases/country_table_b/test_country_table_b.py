import country_table_b_geo as geo


def test_load_country_table():
    assert geo.load() == 5


def test_vat_rate_for_germany():
    assert geo.vat_rate("de") == 19
    assert geo.lookup("HU")["name"] == "Hungary"

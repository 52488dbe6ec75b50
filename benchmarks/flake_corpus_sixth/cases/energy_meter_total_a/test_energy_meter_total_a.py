import energy_meter_total_a_meters as meters


def test_site_total_kwh():
    assert meters.site_total(["M1", "M2", "M3", "M4"]) == 1.0

import carbon_footprint_total_a_footprint as fp


def test_trip_footprint():
    assert fp.trip_footprint(["flight", "hotel", "train", "hotel"]) == 0.6


def test_unknown_activity_rejected():
    try:
        fp.trip_footprint(["rocket"])
    except KeyError:
        pass
    else:
        raise AssertionError("unknown activity accepted")

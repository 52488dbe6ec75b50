import pytest

import geocode_worker_pool_leak_b_geocode as geocode


@pytest.fixture
def geocoder():
    g = geocode.default_geocoder()
    yield g


def test_batch_job_leaves_no_worker_threads():
    assert geocode.run_batch(["10 Downing St", "Unter den Linden 1"])[0] == (51.5034, -0.1276)
    assert geocode.worker_threads() == []


def test_default_geocoder_lookup(geocoder):
    assert geocoder.lookup_many(["Unter den Linden 1", "10 Downing St"]) == [(52.5170, 13.3960), (51.5034, -0.1276)]

import pytest

import pricing_tier_cache_a_billing as billing


@pytest.fixture
def fresh_limits():
    billing.plan_limits.cache_clear()
    yield


def test_free_plan_has_three_seats(monkeypatch):
    monkeypatch.delenv("BILLING_TIER", raising=False)
    assert billing.plan_limits() == {"tier": "free", "seats": 3}


def test_enterprise_plan_limits(monkeypatch, fresh_limits):
    monkeypatch.setenv("BILLING_TIER", "enterprise")
    assert billing.plan_limits()["seats"] == 1000

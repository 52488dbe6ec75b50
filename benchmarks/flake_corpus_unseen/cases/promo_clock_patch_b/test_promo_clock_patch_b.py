from datetime import datetime, timezone

import pytest

import promo_clock_patch_b_promos as promos

CAMPAIGN_END = datetime(2025, 12, 1, tzinfo=timezone.utc)


def test_expired_code_is_rejected():
    promo = promos.Promo("BLACKFRIDAY25", 25, CAMPAIGN_END)
    with pytest.raises(promos.PromoExpired):
        promos.validate(promo)


def test_code_valid_until_end_of_campaign(monkeypatch):
    frozen = datetime(2025, 11, 28, 12, 0, tzinfo=timezone.utc)
    monkeypatch.setattr(promos, "utcnow", lambda: frozen)
    assert promos.validate(promos.Promo("BLACKFRIDAY25", 25, CAMPAIGN_END)) is True

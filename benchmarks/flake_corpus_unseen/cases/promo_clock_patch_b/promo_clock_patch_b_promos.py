"""Promo code validation for checkout."""
from dataclasses import dataclass
from datetime import datetime, timezone


class PromoExpired(Exception):
    pass


def utcnow():
    return datetime.now(timezone.utc)


@dataclass
class Promo:
    code: str
    percent_off: int
    ends_at: datetime


def validate(promo):
    if utcnow() >= promo.ends_at:
        raise PromoExpired(f"{promo.code} ended {promo.ends_at:%Y-%m-%d}")
    return True

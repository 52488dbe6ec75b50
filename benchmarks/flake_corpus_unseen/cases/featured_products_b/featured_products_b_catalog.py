"""Homepage 'featured' strip: three random products, at least one of them a deal."""
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Product:
    sku: str
    price_cents: int
    on_sale: bool = False


def featured(products, k=3, rng=random):
    deals = [p for p in products if p.on_sale]
    first = rng.choice(deals)
    rest = rng.sample([p for p in products if p is not first], k - 1)
    return [first] + rest

"""Homepage 'featured' strip: three random products, at least one of them a deal."""
import random
from dataclasses import dataclass


@dataclass(frozen=True)
class Product:
    sku: str
    price_cents: int
    on_sale: bool = False


def featured(products, k=3, rng=random):
    return rng.sample(products, k)

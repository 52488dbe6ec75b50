"""factory_boy-style test data factory."""
import random
from dataclasses import dataclass

FIRST = ["Anna", "Ben", "Chloe", "David", "Emma", "Felix", "Grace", "Henry", "Ida", "Jonas"]
LAST = ["Smith", "Jones", "Taylor", "Brown", "Wilson", "Evans", "Thomas", "Johnson", "Roberts", "Walker",
        "Wright", "Robinson", "Thompson", "White", "Hughes", "Edwards", "Green", "Hall", "Wood", "Harris",
        "Lewis", "Martin", "Jackson", "Clarke", "Clark", "Turner", "Hill", "Scott", "Cooper", "O'Neill"]


@dataclass
class Customer:
    first: str
    last: str


def make_customer():
    return Customer(random.choice(FIRST), random.choice(LAST))

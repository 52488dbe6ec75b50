import pytest
from hypothesis import given, settings, strategies as st

from ledger import CurrencyMismatch, Money, add, total
from lanegate.oracles import associative, commutes, equivalent

cents = st.integers(-10**9, 10**9)


def money_in(currency):
    return st.builds(Money, cents, st.just(currency))


@settings(deadline=None)
@given(money_in("EUR"), money_in("EUR"), money_in("EUR"))
def test_add_same_currency_is_a_commutative_monoid(a, b, c):
    assert commutes(add, a, b) == Money(a.cents + b.cents, "EUR")
    associative(add, a, b, c)


@settings(deadline=None)
@given(st.lists(money_in("USD"), max_size=10))
def test_total_matches_sum_of_cents(amounts):
    equivalent(lambda xs: total(xs, "USD"), lambda xs: Money(sum(m.cents for m in xs), "USD"), amounts)


@settings(deadline=None)
@given(cents, cents, st.sampled_from(["EUR", "USD", "JPY"]), st.sampled_from(["EUR", "USD", "JPY"]))
def test_mixed_currencies_are_refused(x, y, cur_a, cur_b):
    a, b = Money(x, cur_a), Money(y, cur_b)
    if cur_a == cur_b:
        commutes(add, a, b)
    else:
        with pytest.raises(CurrencyMismatch) as info:
            commutes(add, a, b)
        assert str(info.value) == f"cannot add {cur_a} to {cur_b}"
        with pytest.raises(CurrencyMismatch):
            total([a, b], cur_a)

from ledger import Money, add, total


def test_add():
    assert add(Money(150, "EUR"), Money(250, "EUR")) == Money(400, "EUR")


def test_total():
    assert total([Money(1, "USD"), Money(2, "USD")], "USD") == Money(3, "USD")
    assert total([], "JPY") == Money(0, "JPY")

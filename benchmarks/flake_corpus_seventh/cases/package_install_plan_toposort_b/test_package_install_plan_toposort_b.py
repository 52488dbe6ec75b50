import pytest

import package_install_plan_toposort_b_plan as plan

SHOP = {
    "core": set(),
    "auth": {"core"},
    "billing": {"core", "auth"},
    "reports": {"core"},
    "search": {"core"},
}


def test_plan_for_shop_plugins():
    assert plan.install_plan(SHOP) == ["core", "auth", "billing", "reports", "search"]


def test_cycle_is_rejected():
    with pytest.raises(ValueError):
        plan.install_plan({"a": {"b"}, "b": {"a"}})

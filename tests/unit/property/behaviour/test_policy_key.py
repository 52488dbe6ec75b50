"""`properties.behaviour_cpu_seconds`: its default, a value read, and the values refused."""

from __future__ import annotations

import pytest

from lanegate.errors import PolicyError
from lanegate.policy import Policy, policy_from_mapping


def test_default_and_a_value_read() -> None:
    assert Policy().properties.behaviour_cpu_seconds == 120.0
    read = policy_from_mapping({"properties": {"behaviour_cpu_seconds": 30}}, "lanegate.toml")
    assert read.properties.behaviour_cpu_seconds == 30.0


@pytest.mark.parametrize(("value", "message"), [(0, "must be > 0"), ("60", "expected a number")])
def test_values_refused_name_the_file_and_key(value: object, message: str) -> None:
    with pytest.raises(PolicyError, match=message) as caught:
        policy_from_mapping({"properties": {"behaviour_cpu_seconds": value}}, "lanegate.toml")
    assert "lanegate.toml" in str(caught.value) and "behaviour_cpu_seconds" in str(caught.value)

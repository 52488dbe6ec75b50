from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.errors import RunnerError
from lanegate.lanes.flake.execute import (
    ReplaySpec,
    clean_env,
    disabled_plugins,
    pinned_env,
    pytest_command,
    recorded_command,
    run_replay,
    split_command,
)
from lanegate.lanes.flake.plan import make_plan
from lanegate.lanes.flake.select import SelectedTest, Selection
from lanegate.sandbox import Sandbox


def test_command_disables_retry_and_reorder_plugins() -> None:
    argv = pytest_command(["t.py"], ["pytest_retry", "myretry"])
    pairs = {argv[i + 1] for i, a in enumerate(argv) if a == "-p"}
    for name in ("rerunfailures", "flaky", "pytest_retry", "retry", "randomly", "myretry"):
        assert f"no:{name}" in pairs
    assert "no:cacheprovider" in pairs
    assert "lanegate.lanes.flake.plugin" in pairs
    assert argv[:3] == ("python", "-m", "pytest")
    assert argv[-2:] == ("--", "t.py")
    assert disabled_plugins(["flaky"]).count("flaky") == 1


def test_clean_env_drops_ambient_options(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("PYTEST_ADDOPTS", "--reruns 5")
    monkeypatch.setenv("PYTEST_PLUGINS", "pytest_rerunfailures")
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    monkeypatch.setenv("TZ", "Europe/Paris")
    plan = make_plan(Selection((SelectedTest("t.py::t", "t.py", True, frozenset()),)), 3, "x")
    pins = pinned_env(plan.pins[1], plan, ())
    env = clean_env(pins, tmp_path, Sandbox(tmp_path, enabled=False))
    for name in ("PYTEST_ADDOPTS", "PYTEST_PLUGINS", "CI"):
        assert name not in env
    assert env["PYTHONHASHSEED"] == str(plan.pins[1].hash_seed)
    assert env["TZ"] == plan.pins[1].tz
    assert env["TMPDIR"] == str(tmp_path)
    assert env["HYPOTHESIS_STORAGE_DIRECTORY"].startswith(str(tmp_path))


_names = st.from_regex(r"[A-Z_][A-Z0-9_]{0,12}", fullmatch=True)
_values = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30)


@settings(derandomize=True, max_examples=25)
@given(pins=st.dictionaries(_names, _values, max_size=6), args=st.lists(st.text(max_size=20)))
def test_recorded_command_round_trips(pins: dict[str, str], args: list[str]) -> None:
    argv = ("python", "-m", "pytest", *args)
    spec = ReplaySpec(1, recorded_command(pins, argv))
    assert spec.env == pins
    assert spec.argv == argv


@pytest.mark.parametrize(
    "command", [(), ("TZ=UTC0",), ("lower=1", "python"), ("not an assignment", "python")]
)
def test_malformed_recorded_command_is_refused(command: tuple[str, ...]) -> None:
    with pytest.raises(RunnerError):
        split_command(command)


def test_a_command_line_the_kernel_would_refuse_is_refused_saying_how_to_split(tmp_path) -> None:  # type: ignore[no-untyped-def]
    ids = [f"tests/test_many.py::test_value[{'x' * 200}-{i}]" for i in range(6000)]
    spec = ReplaySpec(2, ("python", "-m", "pytest", "--", *ids))
    try:
        run_replay(tmp_path, spec, 60, tmp_path, sandbox=Sandbox(tmp_path, enabled=False))
    except RunnerError as exc:
        assert "pytest command line takes" in str(exc) and "--shard" in exc.hint
    else:
        raise AssertionError("a 1.2 MB command line started")

"""The host conditions a run varies: each holds for the run and leaves nothing behind."""

from __future__ import annotations

import glob
import multiprocessing
import os
import shutil
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lanegate.lanes.flake import host
from lanegate.lanes.flake.dimensions import (
    CPU_COUNTS,
    ENV_SETS,
    HOST_DIMENSIONS,
    LISTING_ORDERS,
    TERMINAL_SIZES,
    Dimension,
    run_pins,
)


def _snapshot() -> tuple[object, ...]:
    affinity = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return (
        os.getcwd(),
        os.environ.get("COLUMNS"),
        os.environ.get("LINES"),
        tuple(os.environ.get(name) for variables in ENV_SETS for name, _ in variables),
        os.cpu_count,
        os.cpu_count(),
        affinity,
        threading.active_count(),
        sorted(t.name for t in threading.enumerate()),
        os.listdir,
        os.scandir,
    )


def test_an_empty_cwd_is_writable_and_gone_after_the_run() -> None:
    before = os.getcwd()
    with host.empty_cwd() as path:
        assert os.getcwd() == path != before
        assert os.listdir(".") == []
        Path("out.txt").write_text("done")  # an honest test writing to its cwd
        assert Path(path, "out.txt").read_text() == "done"
    assert os.getcwd() == before and not os.path.exists(path)


def test_terminal_size_is_what_shutil_reports_and_the_env_comes_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setenv("LINES", "33")
    with host.terminal(40, 12):
        assert tuple(shutil.get_terminal_size()) == (40, 12)
    assert "COLUMNS" not in os.environ and os.environ["LINES"] == "33"


def test_cpus_report_the_count_and_narrow_the_affinity() -> None:
    real = os.cpu_count
    with host.cpus(1):
        assert os.cpu_count() == 1 and multiprocessing.cpu_count() == 1
        assert os.cpu_count.__name__ == "cpu_count"
        if hasattr(os, "sched_getaffinity"):
            assert len(os.sched_getaffinity(0)) == 1
    assert os.cpu_count is real


@given(
    dimension=st.sampled_from(sorted(HOST_DIMENSIONS)),
    run=st.integers(0, 50),
    seed=st.integers(0, 2**32 - 1),
    fails=st.booleans(),
)
def test_every_host_run_leaves_the_process_as_it_found_it(
    dimension: Dimension, run: int, seed: int, fails: bool
) -> None:
    before = _snapshot()
    pins = run_pins(dimension, run, seed)
    try:
        with host.applied(pins):
            assert _snapshot() != before  # the run does see another host
            assert threading.active_count() == before[7]  # and no thread of the lane's
            if fails:
                raise AssertionError("the test failed")
    except AssertionError as exc:
        assert fails and str(exc) == "the test failed"
    assert _snapshot() == before


def test_env_runs_set_another_machines_variables_and_put_the_old_ones_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TERM", "screen")
    monkeypatch.delenv("NO_COLOR", raising=False)
    ci, developer = (run_pins(Dimension.ENV, i, 7) for i in range(len(ENV_SETS)))
    with host.applied(ci):
        assert os.environ["CI"] == "true" and os.environ["NO_COLOR"] == "1"
        assert os.environ["TERM"] == "dumb"
    with host.applied(developer):
        assert os.environ["TERM"] == "xterm-256color" and "NO_COLOR" not in os.environ
    assert os.environ["TERM"] == "screen" and "NO_COLOR" not in os.environ
    assert "environment CI=true GITHUB_ACTIONS=true NO_COLOR=1 TERM=dumb" in ci.describe()


def test_host_pins_are_recorded_and_described() -> None:
    cwd = run_pins(Dimension.CWD, 0, 7)
    assert cwd.empty_cwd and "an empty directory" in cwd.describe()
    sizes = [run_pins(Dimension.TERMINAL, i, 7).terminal for i in range(len(TERMINAL_SIZES))]
    assert sizes == list(TERMINAL_SIZES) and (80, 24) not in sizes  # never the CI fallback
    assert "COLUMNS=40 LINES=12" in run_pins(Dimension.TERMINAL, 0, 7).describe()
    counts = [run_pins(Dimension.CPUS, i, 7).cpus for i in range(len(CPU_COUNTS))]
    assert counts == [1, 4]
    assert "os.cpu_count() = 4" in run_pins(Dimension.CPUS, 1, 7).describe()


def _folder(tmp_path: Path, names: list[str]) -> Path:
    """A folder whose entries are made in the order of `names`."""
    folder = tmp_path / "spool"
    folder.mkdir()
    for name in names:
        (folder / name).write_text(name)
    return folder


def test_listing_runs_reverse_then_shuffle_every_way_a_directory_is_listed(tmp_path: Path) -> None:
    names = [f"job-{i:02d}" for i in range(12)]
    folder = _folder(tmp_path, names)
    native = os.listdir(folder)

    def listings() -> list[list[str]]:
        with os.scandir(folder) as entries:
            scanned = [e.name for e in entries]
        return [
            os.listdir(folder),
            scanned,
            [p.name for p in folder.iterdir()],
            [os.path.basename(p) for p in glob.glob(str(folder / "*"))],
            next(os.walk(folder))[2],
        ]

    with host.applied(run_pins(Dimension.LISTING, 0, 7)):
        assert all(found == native[::-1] for found in listings())
    with host.applied(run_pins(Dimension.LISTING, 1, 7)):
        shuffled = listings()
    assert all(sorted(found) == names for found in shuffled)
    assert any(found not in (native, native[::-1]) for found in shuffled)  # 12! orders: not those
    with host.applied(run_pins(Dimension.LISTING, 1, 7)):
        again = listings()
    assert again == shuffled  # a recorded run lists as it did
    assert os.listdir(folder) == native and os.scandir is not None


def test_a_listing_run_keeps_what_scandir_promises(tmp_path: Path) -> None:
    folder = _folder(tmp_path, ["a", "b"])
    (folder / "sub").mkdir()
    with host.listing("shuffled", 3):
        entries = os.scandir(folder)
        with entries:
            found = {e.name: e.is_dir() for e in entries}
        assert found == {"a": False, "b": False, "sub": True}
        closed = os.scandir(folder)
        closed.close()
        assert list(closed) == []  # as a closed scandir iterator: nothing more
        fd = os.open(folder, os.O_RDONLY)
        try:
            assert sorted(os.listdir(fd)) == ["a", "b", "sub"]  # a descriptor is listed too
        finally:
            os.close(fd)
        with pytest.raises(FileNotFoundError):
            os.listdir(tmp_path / "missing")


def test_listing_pins_are_recorded_and_described() -> None:
    runs = [run_pins(Dimension.LISTING, i, 7) for i in range(len(LISTING_ORDERS))]
    assert [r.listing for r in runs] == ["reversed", "shuffled"]
    assert "directory listings reversed" in runs[0].describe()
    assert f"shuffled by seed {runs[1].listing_seed}" in runs[1].describe()
    assert run_pins(Dimension.LISTING, 1, 8).listing_seed != runs[1].listing_seed

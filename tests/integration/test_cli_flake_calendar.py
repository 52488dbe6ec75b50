"""`lanegate flake` moves the clock to calendar positions on purpose: a test that breaks on 29
February, in a month without a 31st or at a year end in a zone whose date differs from UTC's is
caught whatever today's date is; its stable look-alikes pass every run.

The assertions read each calendar batch's run-order outcomes (`sequence`: run i is position i of
`CALENDAR_POSITIONS`), so they hold on any day this suite runs."""

from __future__ import annotations

from typing import Any

from lanegate.lanes.flake.dimensions import CALENDAR_POSITIONS
from tests.integration.test_cli_flake import flake, ledger
from tests.unit.flake.repos import feature_repo

CALENDAR = """\
import calendar
import datetime


def test_same_day_next_year():
    today = datetime.date.today()
    assert today.replace(year=today.year + 1) > today


def test_the_31st_of_this_month():
    assert datetime.date.today().replace(day=31).day == 31


def test_local_and_utc_years_agree():
    assert datetime.datetime.now().year == datetime.datetime.now(datetime.timezone.utc).year


def test_days_in_this_month():
    today = datetime.date.today()
    assert calendar.monthrange(today.year, today.month)[1] in (28, 29, 30, 31)


def test_same_day_next_month_in_utc():
    now = datetime.datetime.now(datetime.timezone.utc)
    month = now.month % 12 + 1
    assert now.replace(month=month, year=now.year + (month == 1)).day == now.day


def test_a_year_from_today():
    today = datetime.date.today()
    assert today + datetime.timedelta(days=366) > today
"""

POSITION = {name: i for i, (name, _) in enumerate(CALENDAR_POSITIONS)}


def _calendar(test: dict[str, Any]) -> str:
    (batch,) = [b for b in test["batches"] if b["dimension"] == "calendar"]
    assert batch["runs"] == len(CALENDAR_POSITIONS)
    sequence: str = batch["sequence"]
    assert len(sequence) == len(CALENDAR_POSITIONS), batch
    return sequence


def test_calendar_runs_catch_leap_day_month_end_and_year_end_flakes(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    repo = feature_repo(make_repo, {"tests/test_calendar.py": CALENDAR})
    assert flake(repo.path) == 1
    capsys.readouterr()
    tests = {t["node_id"].split("::")[1]: t for t in ledger(repo.path)["tests"]}

    leap = _calendar(tests["test_same_day_next_year"])
    assert leap[POSITION["feb-29"]] == "f"
    assert set(leap[: POSITION["feb-29"]] + leap[POSITION["feb-29"] + 1 :]) == {"p"}, leap
    assert tests["test_same_day_next_year"]["exposed_by"] in ("calendar", "clock")
    assert tests["test_same_day_next_year"]["power"]["calendar"] == len(CALENDAR_POSITIONS)

    day31 = _calendar(tests["test_the_31st_of_this_month"])
    for name in ("month-end-31", "jan-31", "31-before-30", "year-end", "year-end-noon", "year-start"):
        assert day31[POSITION[name]] == "p", (name, day31)
    for name in ("feb-29", "feb-28-common", "month-end-30"):
        assert day31[POSITION[name]] == "f", (name, day31)
    assert not tests["test_the_31st_of_this_month"]["deterministic"]

    years = _calendar(tests["test_local_and_utc_years_agree"])
    assert years[POSITION["year-end"]] == years[POSITION["year-start"]] == "f", years
    assert years[POSITION["feb-29"]] == years[POSITION["month-end-30"]] == "p", years
    assert not tests["test_local_and_utc_years_agree"]["deterministic"]

    next_month = _calendar(tests["test_same_day_next_month_in_utc"])
    assert next_month[POSITION["jan-31"]] == next_month[POSITION["31-before-30"]] == "f"
    assert next_month[POSITION["feb-29"]] == next_month[POSITION["year-end-noon"]] == "p"

    for name in ("test_days_in_this_month", "test_a_year_from_today"):
        assert tests[name]["deterministic"], (name, tests[name]["batches"])
        assert _calendar(tests[name]) == "p" * len(CALENDAR_POSITIONS)


TOKEN = """\
import datetime

import pytest


@pytest.fixture
def token():
    return {"expires": datetime.datetime.now() + datetime.timedelta(days=90)}


def test_a_fresh_token_is_valid(token):
    assert datetime.datetime.now() < token["expires"]
"""


def test_a_fixture_sees_the_moved_clock_as_the_call_does(make_repo, capsys) -> None:  # type: ignore[no-untyped-def]
    # a token issued at set-up and checked in the call: honest under any clock, as long as both
    # read the same one (the runs moved only the call's clock, up to years ahead)
    repo = feature_repo(make_repo, {"tests/test_token.py": TOKEN})
    assert flake(repo.path) == 0, capsys.readouterr().out
    [test] = ledger(repo.path)["tests"]
    moved = [b for b in test["batches"] if b["dimension"] in ("clock", "dst", "calendar")]
    assert {b["dimension"] for b in moved} == {"clock", "dst", "calendar"}
    assert all(b["passed"] == b["runs"] for b in moved), moved

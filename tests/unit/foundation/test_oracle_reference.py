"""The oracle reference (`lanegate oracles --list`, `lanegate explain`, the README) is read from
lanegate.oracles: every oracle listed, with its real signature, and an example that runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lanegate import oracle_reference, oracles
from lanegate.cli.main import main

ROOT = Path(__file__).resolve().parents[3]


def test_every_oracle_has_a_summary_and_an_example_that_passes() -> None:
    entries = oracle_reference.entries()
    assert [e.name for e in entries] == list(oracles.__all__)
    namespace = {"json": json, **{name: getattr(oracles, name) for name in oracles.__all__}}
    for entry in entries:
        assert entry.summary and entry.example, entry.name
        assert entry.example.startswith(f"{entry.name}("), entry.name
        exec(entry.example, dict(namespace))  # noqa: S102 - our own docstrings: must not raise


def test_signatures_are_the_functions_own() -> None:
    by_name = {e.name: e.signature for e in oracle_reference.entries()}
    assert by_name["round_trip"] == (
        "round_trip(encode: Callable[[T], U], decode: Callable[[U], T], value: T) -> U"
    )
    assert by_name["ordered"] == (
        "ordered(items: Iterable[T], key: Callable[[T], Any] | None = None, *, "
        "strict: bool = False) -> None"
    )


def test_list_prints_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["oracles", "--list"]) == 0
    out = capsys.readouterr().out
    assert out == oracle_reference.render()
    for entry in oracle_reference.entries():
        assert f"\n{entry.signature}\n    {entry.summary}\n    example: {entry.example}\n" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["oracles"], "--base is required to check a diff (hint: lanegate oracles --base main, "),
        (["oracles", "--list", "--base", "main"], "--list with --base"),
    ],
)
def test_list_or_base_one_of_them(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.splitlines()) == 1


def test_explain_lists_the_oracles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "property-missing-oracle"]) == 0
    out = capsys.readouterr().out
    listed = re.search(r"oracles:\s+(.*) \(lanegate\.oracles\)", out)
    assert listed is not None and listed.group(1).split(", ") == list(oracles.__all__)
    assert "lanegate oracles --list" in out


def test_the_readme_names_every_oracle() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    sentence = text[text.index("`lanegate oracles --list` prints") :].split(".\n", 1)[0]
    named = re.findall(r"`(\w+)`", sentence)
    assert sorted(named) == sorted(oracles.__all__)

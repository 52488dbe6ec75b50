"""The bundled example ledgers are what the samples generate, and score as their folder name says."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.model import Lane
from lanegate.scoring import ScoreInputs, ledgers_from_dir, lint_from_file, score
from tests.unit.scoring import samples
from tests.unit.scoring.examples import EXAMPLES, SETS, copy_set, rendered


def test_example_files_are_up_to_date() -> None:
    expected = rendered()
    on_disk = {p.name for p in EXAMPLES.iterdir() if p.is_dir()}
    assert on_disk == set(expected), "regenerate: python -m tests.unit.scoring.examples --write"
    for folder, files in expected.items():
        # `lanegate score --ledgers examples/ledgers/pass` (the README's example) writes its report
        # beside the ledgers; those outputs are git-ignored and not part of the bundled set.
        present = {
            p.name
            for p in (EXAMPLES / folder).glob("*.json")
            if p.name not in ("score-report.json", "score-summary.md")
        }
        assert present == set(files), folder
        for name, data in files.items():
            assert (EXAMPLES / folder / name).read_bytes() == data, f"{folder}/{name} is stale"


@pytest.mark.parametrize("folder", sorted(SETS))
def test_example_set_scores_as_named(folder: str, tmp_path: Path) -> None:
    target = copy_set(folder, tmp_path)
    inputs = ScoreInputs(
        ledgers=ledgers_from_dir(target),
        policy=samples.POLICY,
        now=samples.NOW,
        lint=lint_from_file(target / "lint.json"),
        expect_jobs=True,
    )
    report = score(inputs)
    fired = {f.rule_id for f in report.fails}
    if folder == "pass":
        assert report.verdict == "pass", report.fails
        assert {w.rule_id for w in report.warns} == {"gate-inputs-unchecked"}
    else:
        assert report.verdict == "fail"
        assert fired == SETS[folder].fails_with


def test_pass_example_leases_do_not_expire_for_years(tmp_path: Path) -> None:
    slot = ledgers_from_dir(copy_set("pass", tmp_path))[Lane.FLAKE]
    flake = slot.value  # type: ignore[union-attr]
    assert all(lease.expires_at.year >= 2090 for lease in flake.leases)

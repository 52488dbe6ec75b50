"""`lanegate plan`, `--shard K/N --plan FILE` and `lanegate score --plan`: a real repository, real
pytest runs; the merged shards score as the unsharded run does, and forged plans or shards fail."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from lanegate.diff import classify_diff
from lanegate.lanes.property.plant import planned_ids
from lanegate.ledgers.load import load_file, write_document
from lanegate.ledgers.models import PropertyLedger
from lanegate.policy import load_policy
from lanegate.sharding.ledger_file import shard_from_file
from lanegate.sharding.plan import LanePlan, ShardPlan, lane_digest, load_plan, plan_bytes
from tests.gitrepo import Repo
from tests.integration.test_cli_property import _repo


def _lanegate(repo: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lanegate", *args, "--repo", str(repo)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )


def _fails(report: Path) -> list[tuple[str, str]]:
    data = json.loads(report.read_text("utf-8"))
    return sorted((f["rule_id"], f["lane"]) for f in data["fails"])


def test_shards_merge_to_the_unsharded_verdict_and_forgeries_fail(
    make_repo: Callable[[str], Repo], tmp_path: Path
) -> None:
    repo = _repo(make_repo)
    root = repo.path
    planned = _lanegate(
        root,
        "plan",
        "--base",
        "main",
        "--out",
        str(tmp_path / "plan"),
        "--property-shards",
        "2",
        "--flake-shards",
        "1",
    )
    assert planned.returncode == 0, planned.stderr
    plan_file = tmp_path / "plan" / "plan.json"
    plan = load_plan(plan_file)
    # max_mutants 4, raised by the changed functions' floors (min_mutants_per_function) as far as
    # candidates go (clamp's `x > hi` swapped to `x >= hi` is equivalent, `x = hi` at x == hi, and
    # never planted), and the two changed functions' reverts (the base's versions), dealt among the
    # shards like the others
    assert len(plan.property.items) == 7 and [len(s) for s in plan.property.slices()] == [4, 3]

    sharded, whole = tmp_path / "sharded", tmp_path / "whole"
    for k in (1, 2):
        run = _lanegate(
            root,
            "property",
            "--base",
            "main",
            "--out",
            str(sharded),
            "--quiet",
            "--shard",
            f"{k}/2",
            "--plan",
            str(plan_file),
        )
        assert run.returncode in (0, 1), run.stderr
        assert f"shard {k}/2" in run.stdout
    flake = _lanegate(
        root,
        "flake",
        "--base",
        "main",
        "--out",
        str(sharded),
        "--shard",
        "1/1",
        "--plan",
        str(plan_file),
    )
    assert flake.returncode in (0, 1), flake.stderr
    # the shards planted with the plan's secret draw; the unsharded twin is given the same one
    draw = str(plan.mutant_draw)
    unsharded = _lanegate(
        root, "property", "--base", "main", "--out", str(whole), "--quiet", "--mutant-draw", draw
    )
    assert unsharded.returncode in (0, 1), unsharded.stderr
    # N = 1 is the identity: the flake shard's ledger is the unsharded flake.json
    flake_ledger = shard_from_file(sharded / "flake-shard-1-of-1.json").ledger
    write_document(whole / "flake.json", flake_ledger, "flake")
    fixture = _lanegate(root, "fixture", "--base", "main", "--out", str(whole))
    assert fixture.returncode in (0, 1), fixture.stderr
    shutil.copy(whole / "fixture.json", sharded / "fixture.json")
    for name in ("mutation-report.json",):
        (sharded / name).unlink(missing_ok=True)

    whole_score = _lanegate(root, "score", "--ledgers", str(whole), "--base", "main")
    sharded_score = _lanegate(
        root, "score", "--ledgers", str(sharded), "--base", "main", "--plan", str(plan_file)
    )
    assert "Traceback" not in whole_score.stderr + sharded_score.stderr
    assert sharded_score.returncode == whole_score.returncode
    assert _fails(sharded / "score-report.json") == _fails(whole / "score-report.json")
    assert not any(
        rule.startswith(("ledger-", "shard-")) for rule, _ in _fails(whole / "score-report.json")
    )
    mutants = {
        m.id: (m.status, m.killed_by)
        for k in (1, 2)
        for m in shard_from_file(sharded / f"property-shard-{k}-of-2.json").ledger.mutants  # type: ignore[union-attr]
    }
    whole_ledger = load_file(PropertyLedger, "property", whole / "property.json").value
    assert mutants == {m.id: (m.status, m.killed_by) for m in whole_ledger.mutants}

    # the scorer re-derives the planted set with the ledger's draw: a ledger that claims another
    # draw (one that plants other mutants) is not evidence about this run
    policy = load_policy(root)
    summary = classify_diff(root, "main", policy)
    drawn = set(planned_ids(root, summary, policy, plan.mutant_draw))
    other = next(d for d in range(1000) if set(planned_ids(root, summary, policy, d)) != drawn)
    redrawn = tmp_path / "redrawn"
    shutil.copytree(whole, redrawn)
    doc = json.loads((redrawn / "property.json").read_text("utf-8"))
    doc["mutant_draw"] = other
    (redrawn / "property.json").write_text(json.dumps(doc), "utf-8")
    (redrawn / "score-report.json").unlink()
    rescored = _lanegate(root, "score", "--ledgers", str(redrawn), "--base", "main")
    assert rescored.returncode == 1, rescored.stderr
    assert ("property-mutants-rederived", "property") in _fails(redrawn / "score-report.json")
    assert ("property-mutants-rederived", "property") not in _fails(whole / "score-report.json")

    # a shard that never reported fails the score closed, by name
    missing = tmp_path / "missing"
    shutil.copytree(sharded, missing)
    (missing / "property-shard-2-of-2.json").unlink()
    (missing / "score-report.json").unlink()
    (missing / "score-summary.md").unlink()
    gone = _lanegate(
        root, "score", "--ledgers", str(missing), "--base", "main", "--plan", str(plan_file)
    )
    assert gone.returncode == 1
    assert ("shard-missing", "gate") in _fails(missing / "score-report.json")

    # a plan with a mutant left out (its own digest made consistent) is refused by shards and scorer
    forged = plan_file.with_name("forged.json")
    smaller = plan.property.items[1:]
    digest = lane_digest(
        "property",
        2,
        smaller,
        plan.base_commit,
        plan.head_commit,
        plan.diff_digest,
        plan.mutant_draw,
    )
    forged.write_bytes(
        plan_bytes(
            ShardPlan(
                plan.base_commit,
                plan.head_commit,
                plan.diff_digest,
                LanePlan("property", 2, smaller, digest),
                plan.flake,
                plan.mutant_draw,
            )
        )
    )
    refused = _lanegate(
        root,
        "property",
        "--base",
        "main",
        "--out",
        str(tmp_path / "x"),
        "--shard",
        "1/2",
        "--plan",
        str(forged),
    )
    assert refused.returncode == 2
    assert refused.stderr.count("\n") == 1 and "digest" in refused.stderr
    scored = _lanegate(
        root,
        "score",
        "--ledgers",
        str(missing),
        "--base",
        "main",
        "--plan",
        str(forged),
        "--out",
        str(tmp_path / "plan"),
    )
    assert scored.returncode == 1
    assert ("shard-plan-mismatch", "gate") in _fails(tmp_path / "plan" / "score-report.json")


def test_malformed_shard_options_are_one_line_usage_errors(
    make_repo: Callable[[str], Repo],
) -> None:
    repo = make_repo("tiny")
    repo.write("a.py", "x = 1\n")
    repo.commit("base")
    for args in (
        ("property", "--base", "main", "--shard", "0/3"),
        ("flake", "--base", "main", "--shard", "a/b"),
        ("property", "--base", "main", "--plan", "plan.json"),
        ("plan", "--base", "main", "--property-shards", "33"),
        ("plan", "--base", "main", "--flake-shards", "two"),
        ("run", "--shard", "1/0"),
    ):
        done = _lanegate(repo.path, *args)
        assert done.returncode == 2, (args, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr

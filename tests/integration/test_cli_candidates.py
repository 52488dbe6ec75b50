"""`lanegate candidates` end to end on the demo repository plus a few heads of its own: verdicts
equal to separate `lanegate run`s, candidates blind to each other, same changes grouped, survivors
ranked, and the promotion record checked by `lanegate promote --verify`, failing closed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from lanegate.demo.bundle import load_shipped
from lanegate.demo.scenario import build_repo
from tests.gitrepo import GIT_ENV, git

LANEGATE = [sys.executable, "-m", "lanegate"]
CODEC = "demo_lib/codec.py"
PEEK = """import os
from fractions import Fraction
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from demo_lib.codec import decode, encode
from lanegate.oracles import round_trip

# what this candidate must not see: the source repository, a worktree of it holding a sibling
# (outside /tmp), the batch's outputs, other trees, and what the other candidates' lanes stage
# in the batch's TMPDIR
WATCHED = {watched!r}
TMPDIR = {tmpdir!r}


@settings(database=None)
@given(st.text(alphabet="ab", max_size=5))
def test_round_trip_sees_no_other_candidate(text):
    trees = Path(__file__).resolve().parents[2]
    others = [name for name in os.listdir(trees) if name != Path(__file__).resolve().parents[1].name]
    leaked = [p for p in WATCHED if os.path.isdir(p) and os.listdir(p)]
    staged = [
        name
        for name in os.listdir(TMPDIR)
        if name not in ("repo", "out", "wt-honest") and not name.startswith("lanegate-candidates-")
    ]
    assert not others and not leaked and not staged, (others, leaked, staged)
    round_trip(encode, decode, text)
"""


@dataclass(frozen=True)
class Batch:
    repo: Path
    out: Path
    code: int
    stdout: str
    report: dict[str, object]
    commits: dict[str, str]

    def entry(self, name: str) -> dict[str, object]:
        found = [c for c in self.report["candidates"] if c["ref"] == name]  # type: ignore[attr-defined]
        assert found, name
        return found[0]  # type: ignore[no-any-return]  # the first given, the one judged


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTEST_"))}
    env.update(GIT_ENV)
    return env


def _branch(repo: Path, name: str, files: dict[str, str]) -> str:
    git(repo, "checkout", "-q", "-b", name, "main")
    for rel, text in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text, encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", name)
    commit = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "main")
    return commit


def judge(
    repo: Path, root: Path, out: Path, *args: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """`lanegate candidates --out OUT ARGS...` in `repo`, its TMPDIR `root`: the process and the
    candidates.json it must have written."""
    done = subprocess.run(
        [*LANEGATE, "candidates", "--out", str(out), *args],
        cwd=repo,
        env={**_env(), "TMPDIR": str(root)},
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert (out / "candidates.json").is_file(), done.stderr
    return done, json.loads((out / "candidates.json").read_text())


@pytest.fixture(scope="module")
def batch() -> Iterator[Batch]:
    # outside /tmp and $HOME, which every sandbox masks anyway: the candidates' hiding is exercised
    root = Path(tempfile.mkdtemp(prefix="lanegate-candidates-test-", dir="/var/tmp"))
    try:
        repo, out = root / "repo", root / "out"
        commits = build_repo(load_shipped(), repo)
        source = (repo / CODEC).read_text(encoding="utf-8")
        commented = source.replace(
            '    """The inverse of `encode`."""\n',
            '    """The inverse of `encode`."""\n    # digits accumulate into the run length\n',
        ).replace('count = ""\n    for', 'count  =  ""  # none yet\n    for')
        assert commented != source
        commits["comment-a"] = _branch(repo, "comment-a", {CODEC: commented})
        commits["comment-b"] = _branch(
            repo, "comment-b", {CODEC: commented.replace("# none yet", "# empty: no digit read")}
        )
        # other code, the same answers: decode's branches swapped
        swapped = source.replace(
            "        if char.isdigit():\n            count += char\n        else:\n"
            '            out.append(char * int(count))\n            count = ""\n',
            "        if not char.isdigit():\n            out.append(char * int(count))\n"
            '            count = ""\n        else:\n            count += char\n',
        )
        assert swapped != source
        commits["swapped"] = _branch(repo, "swapped", {CODEC: swapped})
        # a sibling checked out by hand in a linked worktree outside /tmp: hidden by what it is
        sibling = root / "wt-honest"
        git(repo, "worktree", "add", "-q", "--detach", str(sibling), "honest")
        # heads the batch cannot judge: a commit given twice, one sharing no history with main
        empty_tree = git(repo, "mktree").strip()
        commits["unrelated"] = git(repo, "commit-tree", empty_tree, "-m", "unrelated").strip()
        git(repo, "branch", "unrelated", commits["unrelated"])
        watched = [str(repo), str(out), str(sibling)]
        commits["peek"] = _branch(
            repo,
            "peek",
            {"tests/test_codec_peek.py": PEEK.format(watched=watched, tmpdir=str(root))},
        )
        heads = [
            "agent", "honest", "comment-a", "comment-b", "peek", "honest", "unrelated", "swapped"
        ]  # fmt: skip
        done, report = judge(repo, root, out, "--base", "main", "--jobs", "2", *heads)
        yield Batch(repo, out, done.returncode, done.stdout + done.stderr, report, commits)
    finally:
        shutil.rmtree(root, ignore_errors=True)


def run_alone(repo: Path, head: str, base: str, out: Path) -> dict[str, object]:
    """The score report of `lanegate run --base BASE --out OUT` on a checkout of HEAD (main checked
    out again after)."""
    git(repo, "checkout", "-q", head)
    try:
        done = subprocess.run(
            [*LANEGATE, "run", "--base", base, "--quiet", "--out", str(out)],
            cwd=repo,
            env=_env(),
            capture_output=True,
            text=True,
            timeout=1200,
        )
    finally:
        git(repo, "checkout", "-q", "main")
    assert (out / "score-report.json").is_file(), done.stderr
    return json.loads((out / "score-report.json").read_text())  # type: ignore[no-any-return]


@pytest.mark.parametrize("head", ["agent", "honest"])
def test_each_verdict_equals_a_separate_lanegate_run(
    batch: Batch, head: str, tmp_path: Path
) -> None:
    alone = run_alone(batch.repo, head, "main", tmp_path / head)
    entry = batch.entry(head)
    assert entry["verdict"] == alone["verdict"], batch.stdout
    assert entry["failed_rules"] == sorted({f["rule_id"] for f in alone["fails"]})  # type: ignore[attr-defined]
    # the candidate's own folder holds the whole run: every ledger and its score report
    ledgers = batch.out / str(entry["ledgers"])
    for name in ("property.json", "fixture.json", "flake.json", "lint.json", "score-summary.md"):
        assert (ledgers / name).is_file(), name
    mine = json.loads((ledgers / "score-report.json").read_text())
    assert mine["head_commit"] == batch.commits[head] == alone["head_commit"]
    assert mine["base_commit"] == alone["base_commit"] == batch.report["base_commit"]


def test_the_demo_heads_are_judged_as_the_demo_says(batch: Batch) -> None:
    assert batch.code == 0, batch.stdout  # a survivor exists
    agent = batch.entry("agent")
    assert agent["verdict"] == "fail" and agent["rank"] is None
    assert {"fixture-drift", "flake-nondeterministic", "lint-retry-construct"} <= set(
        agent["failed_rules"]  # type: ignore[arg-type]
    )
    honest = batch.entry("honest")
    assert honest["verdict"] == "pass" and isinstance(honest["rank"], int)
    assert honest["evidence"]["property_cases"] > 0  # type: ignore[index]
    assert honest["evidence"]["flake_power_pct"] is not None  # type: ignore[index]
    # by default no coverage map selects the base tests: each runs them as `lanegate run` does
    assert batch.report["selection"] == "separate-run"
    assert batch.report["coverage_map_digest"] is None


def test_a_head_the_batch_cannot_judge_fails_alone_and_the_rest_are_judged(batch: Batch) -> None:
    entries = [c for c in batch.report["candidates"] if c["ref"] == "honest"]  # type: ignore[attr-defined]
    assert [e["verdict"] for e in entries] == ["pass", "fail"]
    assert isinstance(entries[0]["rank"], int) and entries[1]["rank"] is None
    assert "same commit as candidate honest" in entries[1]["errors"][0]
    unrelated = batch.entry("unrelated")
    assert unrelated["verdict"] == "fail" and unrelated["rank"] is None
    assert "no merge base" in unrelated["errors"][0]
    assert batch.code == 0  # a survivor exists: the bad heads do not change the batch's exit


def test_a_candidate_sees_neither_the_others_nor_the_source_repository(batch: Batch) -> None:
    peek = batch.entry("peek")
    assert peek["verdict"] == "pass", (peek, batch.stdout)
    assert not peek["failed_rules"]


def test_same_change_in_other_words_is_one_group(batch: Batch) -> None:
    """Comments and layout are no change (comment-a, comment-b and honest, whose only change is a
    test, make the same one: none); decode with its branches swapped is other code that answers
    alike, and joins that group by behaviour."""
    a, b, honest = batch.entry("comment-a"), batch.entry("comment-b"), batch.entry("honest")
    swapped = batch.entry("swapped")
    assert swapped["verdict"] == "pass", swapped
    assert a["group"] == b["group"] == honest["group"] == swapped["group"]
    assert batch.entry("agent")["group"] != a["group"]
    groups = {g["key"]: g for g in batch.report["groups"]}  # type: ignore[attr-defined]
    group = groups[a["group"]]
    assert group["by_behaviour"] == [swapped["head_commit"]]
    assert {a["head_commit"], b["head_commit"], honest["head_commit"]} < set(group["heads"])
    text = (batch.out / "candidates.md").read_text()
    assert "## Same change" in text and "swapped (other code, same answers)" in text


def test_survivors_are_ranked_by_the_documented_order(batch: Batch) -> None:
    entries: dict[str, dict[str, object]] = {}
    for c in batch.report["candidates"]:  # type: ignore[attr-defined]
        entries.setdefault(c["head_commit"], c)  # a commit given again: the first is judged
    survivors = [entries[h] for h in batch.report["survivors"]]  # type: ignore[attr-defined]
    assert [s["rank"] for s in survivors] == list(range(1, len(survivors) + 1))

    given = [c["head_commit"] for c in batch.report["candidates"]]  # type: ignore[attr-defined]

    def order(e: dict[str, object]) -> tuple[object, ...]:
        ev = e["evidence"]
        planted, killed = ev["mutants_planted"], ev["mutants_killed"]  # type: ignore[index]
        power = ev["flake_power_pct"]  # type: ignore[index]
        return (
            Fraction(planted - killed, planted) if planted else Fraction(0),
            101 if power is None else power,
            e["changed_lines"],
            given.index(e["head_commit"]),
        )

    assert survivors == sorted(survivors, key=order)
    assert all(e["verdict"] == "pass" and not e["errors"] for e in survivors)


def _promote(batch: Batch, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*LANEGATE, "promote", *args], cwd=batch.repo, env=_env(), capture_output=True, text=True
    )


def test_promotion_record_verifies_and_fails_closed_on_any_mismatch(
    batch: Batch, tmp_path: Path
) -> None:
    copy = tmp_path / "batch"
    shutil.copytree(batch.out, copy)
    honest = batch.commits["honest"]
    refused = _promote(batch, batch.commits["agent"][:10], "--from", str(copy))
    assert refused.returncode == 2 and "not a survivor" in refused.stderr
    made = _promote(batch, honest[:10], "--from", str(copy))
    assert made.returncode == 0, made.stderr
    record_path = copy / "promotion.json"
    record = json.loads(record_path.read_text())
    assert record["head_commit"] == honest
    assert record["base_commit"] == batch.report["base_commit"]
    base = batch.report["base_commit"]
    expect = ("--expect-head", honest, "--expect-base", str(base))
    ok = _promote(batch, "--verify", str(record_path), *expect)
    assert ok.returncode == 0, ok.stderr

    def fails(path: Path, field: str, *extra: str) -> None:
        done = _promote(batch, "--verify", str(path), *(extra or expect))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr
        assert path.name in lines[0] and field in lines[0], lines[0]

    fails(record_path, "head_commit", "--expect-head", batch.commits["agent"], expect[2], expect[3])
    fails(record_path, "base_commit", *expect[:2], "--expect-base", batch.commits["agent"])
    fails(record_path, "--expect-base", *expect[:2])  # required: the record never vouches alone
    fails(record_path, "--expect-head", *expect[2:])
    report = copy / record["score_report"]
    original = report.read_bytes()
    report.write_bytes(original.replace(b'"pass"', b'"fail"'))
    fails(record_path, "score_report_digest")
    report.write_bytes(original)
    for field, value in (
        ("score_report_digest", "sha256:0"),
        ("score_report", "../../etc/passwd"),
        ("head_commit", "not-a-commit"),
    ):
        broken = copy / f"broken-{field}.json"
        broken.write_text(json.dumps({**record, field: value}))
        fails(broken, field)
    truncated = copy / "truncated.json"
    truncated.write_text(record_path.read_text()[:40])
    done = _promote(batch, "--verify", str(truncated), *expect)
    assert done.returncode == 2 and "truncated.json" in done.stderr


def test_runs_made_elsewhere_combine_to_the_same_verdicts(batch: Batch, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    honest, agent = batch.entry("honest"), batch.entry("agent")
    shutil.copytree(batch.out / str(honest["ledgers"]), runs / "1")
    shutil.copytree(batch.out / str(agent["ledgers"]), runs / "2")
    shutil.copytree(batch.out / str(honest["ledgers"]), runs / "3")  # not peek's: refused
    done = subprocess.run(
        [
            *LANEGATE,
            "candidates",
            "--base",
            batch.commits["main"],
            "--from-runs",
            str(runs),
            "--out",
            str(tmp_path / "combined"),
            "honest",
            "agent",
            "peek",
        ],
        cwd=batch.repo,
        env=_env(),
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    combined = json.loads((tmp_path / "combined" / "candidates.json").read_text())
    by_ref = {c["ref"]: c for c in combined["candidates"]}
    assert by_ref["honest"]["verdict"] == "pass" and by_ref["honest"]["rank"] == 1
    assert by_ref["agent"]["failed_rules"] == agent["failed_rules"]
    assert by_ref["peek"]["verdict"] == "fail" and by_ref["peek"]["rank"] is None
    assert "head_commit" in by_ref["peek"]["errors"][0]
    assert by_ref["honest"]["score_report_digest"] == honest["score_report_digest"]

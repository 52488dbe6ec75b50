"""The output directory is claimed only when it is ours, and only a finished run lands in it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.errors import UsageError
from lanegate.run import outdir


def test_a_new_directory_is_claimed_and_ignored_by_git(tmp_path: Path) -> None:
    out = outdir.claim(tmp_path / ".lanegate")
    assert (tmp_path / ".lanegate" / ".gitignore").read_text() == "*\n"
    marker = json.loads((tmp_path / ".lanegate" / outdir.MARKER).read_text())
    assert marker == {"files": [], "writer": "lanegate run"}
    out.release()


def test_a_foreign_directory_is_refused_and_left_untouched(tmp_path: Path) -> None:
    target = tmp_path / ".lanegate"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    with pytest.raises(UsageError, match="not made by lanegate run"):
        outdir.claim(target)
    assert sorted(p.name for p in target.iterdir()) == ["notes.txt"]


def test_a_file_or_symlink_is_refused(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with pytest.raises(UsageError, match="not a directory"):
        outdir.claim(tmp_path / "file")
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    with pytest.raises(UsageError, match="symbolic link"):
        outdir.claim(tmp_path / "link")


def test_a_second_run_cannot_share_the_directory(tmp_path: Path) -> None:
    first = outdir.claim(tmp_path / "out")
    with pytest.raises(UsageError, match="another lanegate run"):
        outdir.claim(tmp_path / "out")
    first.release()
    outdir.claim(tmp_path / "out").release()


def test_commit_moves_a_finished_run_in_and_the_next_claim_clears_it(tmp_path: Path) -> None:
    target = tmp_path / "out"
    out = outdir.claim(target)
    staging = outdir.new_staging(out)
    (staging / "property.json").write_text("{}")
    (staging / "extra-report.json").write_text("{}")
    files = outdir.commit(out, staging)
    out.release()
    assert [f.name for f in files] == ["extra-report.json", "property.json"]
    assert not staging.exists()
    assert "extra-report.json" in outdir.previous_outputs(target)
    (target / "user-note.txt").write_text("kept")  # in our directory, but not something we wrote
    stale = target / ".staging-1-dead"  # left by a run killed outright
    stale.mkdir()
    (stale / "flake.json").write_text("{}")
    outdir.claim(target).release()
    assert sorted(p.name for p in target.iterdir()) == [
        ".gitignore",
        ".lanegate-run.json",
        ".lock",
        "user-note.txt",
    ]


def test_discard_leaves_nothing_of_an_unfinished_run(tmp_path: Path) -> None:
    out = outdir.claim(tmp_path / "out")
    staging = outdir.new_staging(out)
    (staging / "fixture.json").write_text("{}")
    outdir.discard(staging)
    out.release()
    assert not any(
        p.name.endswith(".json") and p.name != outdir.MARKER for p in (tmp_path / "out").iterdir()
    )


def test_a_marker_that_names_paths_outside_cannot_delete_them(tmp_path: Path) -> None:
    target = tmp_path / "out"
    outdir.claim(target).release()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (target / outdir.MARKER).write_text(json.dumps({"files": ["../victim.txt", "/etc/passwd"]}))
    outdir.claim(target).release()
    assert victim.read_text() == "precious"


def test_ledgers_a_lane_command_wrote_are_adopted_but_a_look_alike_is_not(tmp_path: Path) -> None:
    target = tmp_path / ".lanegate"
    target.mkdir()
    (target / "flake.json").write_text('{"lanegate_version": "0.1.0", "writer": "flake-runner"}')
    outdir.claim(target).release()
    assert not (target / "flake.json").exists()  # a previous run's evidence is cleared
    other = tmp_path / "other"
    other.mkdir()
    (other / "lint.json").write_text('{"mine": true}')
    with pytest.raises(UsageError, match="not made by lanegate run"):
        outdir.claim(other)
    assert (other / "lint.json").read_text() == '{"mine": true}'


def test_plan_and_shard_files_of_lane_commands_are_adopted_but_look_alikes_are_not(
    tmp_path: Path,
) -> None:
    target = tmp_path / ".lanegate"
    target.mkdir()
    (target / "plan.json").write_text('{"kind": "lanegate-shard-plan"}')
    (target / "property-shard-1-of-2.json").write_text('{"kind": "lanegate-shard-ledger"}')
    outdir.claim(target).release()
    assert (
        not (target / "plan.json").exists() and not (target / "property-shard-1-of-2.json").exists()
    )
    for name in ("plan.json", "flake-shard-2-of-2.json"):
        other = tmp_path / f"other-{name}"
        other.mkdir()
        (other / name).write_text('{"kind": "mine"}')
        with pytest.raises(UsageError, match="not made by lanegate run"):
            outdir.claim(other)
        assert (other / name).read_text() == '{"kind": "mine"}'


_NAMES = st.sampled_from([*outdir.KNOWN_OUTPUTS, "notes.txt", "data.json", ".env", "sub"])
_CONTENT = st.sampled_from(['{"lanegate_version": "0.1.0"}', '{"mine": 1}', "not json", ""])


@settings(derandomize=True, max_examples=60, deadline=None)
@given(entries=st.dictionaries(_NAMES, _CONTENT, max_size=4))
def test_claim_never_touches_a_directory_that_holds_anything_of_the_users(
    tmp_path_factory: pytest.TempPathFactory, entries: dict[str, str]
) -> None:
    target = tmp_path_factory.mktemp("out")
    for name, text in entries.items():
        (target / name).write_text(text)
    before = {p.name: p.read_text() for p in target.iterdir()}
    ours = all(
        name in outdir.KNOWN_OUTPUTS and (not name.endswith(".json") or "lanegate_version" in text)
        for name, text in entries.items()
    )
    try:
        outdir.claim(target).release()
    except UsageError:
        assert not ours
        assert {p.name: p.read_text() for p in target.iterdir()} == before  # untouched
    else:
        assert ours
        left = {p.name for p in target.iterdir()}
        assert left == {".gitignore", outdir.MARKER, ".lock"}  # only lanegate's own files went

"""actions.py (toolkit wrapper), event.py (payloads) and limits.py (caps), on plain files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lanegate.errors import GitHubError, UsageError
from lanegate.github import actions
from lanegate.github.event import event_from_env, parse_event, read_event
from lanegate.github.limits import STEP_SUMMARY_BYTES, batches, truncate_utf8, truncate_visibly

RECORDED = Path(__file__).parent / "recorded"


@settings(derandomize=True, max_examples=100)
@given(text=st.text(max_size=400), limit=st.integers(min_value=1, max_value=300))
def test_truncate_visibly_never_overflows_and_keeps_a_prefix(text: str, limit: int) -> None:
    out = truncate_visibly(text, limit)
    assert len(out) <= limit
    if len(text) <= limit:
        assert out == text
    else:
        kept = out.split("\n\n**[truncated by lanegate", 1)[0]
        assert text.startswith(kept)
        if limit >= 120:
            assert f"{len(text) - len(kept)} characters omitted" in out


@settings(derandomize=True, max_examples=100)
@given(text=st.text(max_size=300), limit=st.integers(min_value=150, max_value=400))
def test_truncate_utf8_counts_bytes(text: str, limit: int) -> None:
    out = truncate_utf8(text, limit)
    assert len(out.encode("utf-8")) <= limit
    assert out == text or "truncated by lanegate" in out


@settings(derandomize=True)
@given(count=st.integers(min_value=0, max_value=1000))
def test_batches_cover_every_index_once(count: int) -> None:
    chunks = batches(count)
    assert [i for chunk in chunks for i in chunk] == list(range(count))
    assert all(len(chunk) <= 50 for chunk in chunks) and len(chunks) >= 1


def test_set_output_outside_actions_is_a_no_op(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    assert actions.set_output("verdict", "fail") is False


def test_set_output_inside_actions_without_file_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.delenv("GITHUB_OUTPUT", raising=False)
    with pytest.raises(GitHubError, match="deprecated ::set-output"):
        actions.set_output("verdict", "fail")
    assert "::set-output" not in capsys.readouterr().out


def test_set_output_writes_a_heredoc_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    out.touch()
    monkeypatch.setenv("GITHUB_OUTPUT", str(out))
    assert actions.set_output("verdict", "pass\nfail")
    text = out.read_text()
    assert text.startswith("verdict<<ghadelimiter_") and "pass\nfail" in text


def test_get_input_reads_input_with_hyphens_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INPUT_BASE-REF", "  main  ")
    assert actions.get_input("base-ref") == "main"
    with pytest.raises(UsageError, match="'lint-report' is required"):
        actions.get_input("lint-report", required=True)


def test_annotations_always_carry_a_title() -> None:
    line = actions.render_annotation(
        actions.Annotation("error", "a, b: c", "lanegate/x", "tests/t.py", 3)
    )
    assert line.startswith("::error title=lanegate/x,file=tests/t.py,line=3")
    with pytest.raises(ValueError, match="title"):
        actions.render_annotation(actions.Annotation("warning", "m", ""))


def test_summary_respects_the_one_mib_cap(tmp_path: Path) -> None:
    summary = tmp_path / "summary.md"
    summary.write_text("x" * (STEP_SUMMARY_BYTES - 5000))
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    assert actions.append_summary("y" * 20_000, env)
    assert summary.stat().st_size <= STEP_SUMMARY_BYTES
    assert "truncated by lanegate" in summary.read_text()[-300:]
    assert actions.append_summary("more", env) is False  # full: nothing appended, nothing lost
    assert summary.stat().st_size <= STEP_SUMMARY_BYTES


def _payload() -> dict[str, object]:
    pr = json.loads((RECORDED / "pull_7.json").read_text())
    return {"action": "opened", "pull_request": pr, "repository": {"full_name": "octo-org/widgets"}}


def test_event_payload_to_facts() -> None:
    event = parse_event(_payload(), "event.json")
    assert event.number == 7 and event.facts.labels == ("agent",)
    assert (event.facts.login, event.facts.user_type) == ("coding-agent[bot]", "Bot")
    assert event.base_ref == "main" and event.repo_slug == "octo-org/widgets"
    assert not event.from_fork


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda p: p.pop("pull_request"), "not a pull_request event"),
        (lambda p: p["pull_request"].pop("number"), "'number' is missing"),
        (lambda p: p["pull_request"].update(number=True), "'number' is a bool"),
        (lambda p: p["pull_request"]["head"].pop("sha"), "'head.sha' is missing"),
        (lambda p: p["pull_request"].update(labels=[{"name": 3}]), r"labels\[0\]"),
        (lambda p: p["pull_request"].update(body=["x"]), "'body' is list"),
    ],
)
def test_malformed_payload_names_the_field(mutate: object, message: str) -> None:
    payload = _payload()
    mutate(payload)  # type: ignore[operator]
    with pytest.raises(GitHubError, match=message):
        parse_event(payload, "event.json")


def test_event_file_errors_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "event.json"
    bad.write_text('{"pull_request": {}, "pull_request": {}}')
    with pytest.raises(GitHubError, match="duplicate key"):
        read_event(bad)
    with pytest.raises(GitHubError, match="cannot read"):
        read_event(tmp_path / "missing.json")


def test_event_from_env_ignores_other_events(tmp_path: Path) -> None:
    path = tmp_path / "event.json"
    path.write_text(json.dumps(_payload()))
    assert event_from_env({"GITHUB_EVENT_PATH": str(path), "GITHUB_EVENT_NAME": "push"}) is None
    found = event_from_env({"GITHUB_EVENT_PATH": str(path), "GITHUB_EVENT_NAME": "pull_request"})
    assert found is not None and found.head_sha.startswith("6dcb09b")

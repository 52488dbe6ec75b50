"""lanegate.github.client against a real HTTP server serving recorded REST JSON (PyGithub unpatched)."""

from __future__ import annotations

import math
import socket

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanegate.errors import GitHubError
from lanegate.github.client import (
    Annotation,
    CheckRunRequest,
    ClientSettings,
    GitHubClient,
    WriteForbidden,
)
from lanegate.github.limits import CHECK_RUN_TEXT_CHARS
from lanegate.github.report_view import COMMENT_MARKER
from tests.github.conftest import quiet_settings
from tests.github.server import READ_ONLY_TOKEN, REPO, RecordedGitHub

HEAD = "6dcb09b5b57875f334f61aebed695e2e4193db5e"


def _request(count: int, summary: str = "## lanegate lane B: FAIL\n") -> CheckRunRequest:
    return CheckRunRequest(
        name="lanegate / lane B",
        head_sha=HEAD,
        conclusion="failure",
        title="FAIL: 1 fails, 0 warnings",
        summary=summary,
        annotations=tuple(
            Annotation(path=f"tests/t{i}.py", start_line=i + 1, message=f"m{i}", title="lanegate/x")
            for i in range(count)
        ),
    )


def test_pull_request_files_are_paginated_and_facts_read(github_api: RecordedGitHub) -> None:
    client = GitHubClient(quiet_settings(github_api), "octo-org/widgets")
    info = client.pull_request(7)
    assert len(info.changed_files) == 130
    assert info.changed_files[0] == "tests/test_parser.py"
    assert info.changed_files[-1] == "src/widgets/mod_129.py"
    file_pages = [r for r in github_api.requests if r.path == f"{REPO}/pulls/7/files"]
    assert [r.query.get("page", ["1"])[0] for r in file_pages] == ["1", "2"]
    assert info.facts.login == "coding-agent[bot]" and info.facts.user_type == "Bot"
    assert info.facts.labels == ("agent",)
    assert "Co-authored-by: coding-agent[bot]" in info.facts.commit_messages[0]
    assert info.body is not None and "lanegate-lease: tests/test_io.py::test_slow" in info.body
    assert (info.head_sha, info.base_ref) == (HEAD, "main")
    assert all(r.method == "GET" for r in github_api.requests)  # reading never writes


def test_120_annotations_take_three_requests_in_batches_of_50(github_api: RecordedGitHub) -> None:
    client = GitHubClient(quiet_settings(github_api), "octo-org/widgets")
    assert client.post_check_run(_request(120)) == 4
    writes = github_api.writes()
    assert [(w.method, w.path) for w in writes] == [
        ("POST", f"{REPO}/check-runs"),
        ("PATCH", f"{REPO}/check-runs/4"),
        ("PATCH", f"{REPO}/check-runs/4"),
    ]
    assert [len(w.body["output"]["annotations"]) for w in writes] == [50, 50, 20]
    lines = [a["start_line"] for w in writes for a in w.body["output"]["annotations"]]
    assert lines == list(range(1, 121))  # every annotation once, in order
    assert "conclusion" not in writes[0].body and writes[0].body["status"] == "in_progress"
    assert "conclusion" not in writes[1].body
    assert writes[2].body["conclusion"] == "failure" and writes[2].body["status"] == "completed"
    assert all({"title", "summary"} <= set(w.body["output"]) for w in writes)


@settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(count=st.integers(min_value=0, max_value=175))
def test_any_annotation_count_is_sent_once_in_chunks_of_at_most_50(
    github_api: RecordedGitHub, count: int
) -> None:
    github_api.requests.clear()
    GitHubClient(quiet_settings(github_api), "octo-org/widgets").post_check_run(_request(count))
    writes = github_api.writes()
    assert len(writes) == max(1, math.ceil(count / 50))
    sizes = [len(w.body["output"]["annotations"]) for w in writes]
    assert sum(sizes) == count and all(size <= 50 for size in sizes)
    assert [("conclusion" in w.body) for w in writes] == [False] * (len(writes) - 1) + [True]


def test_summary_over_the_cap_is_truncated_visibly(github_api: RecordedGitHub) -> None:
    client = GitHubClient(quiet_settings(github_api), "octo-org/widgets")
    client.post_check_run(_request(0, summary="x" * 70_000))
    summary = github_api.writes()[0].body["output"]["summary"]
    assert len(summary) <= CHECK_RUN_TEXT_CHARS
    assert "truncated by lanegate" in summary and summary.startswith("xxx")


def test_comment_found_on_page_two_is_updated_in_place(github_api: RecordedGitHub) -> None:
    client = GitHubClient(quiet_settings(github_api), "octo-org/widgets")
    comment_id, updated = client.upsert_comment(7, COMMENT_MARKER, "## lanegate lane B: PASS\n")
    assert (comment_id, updated) == (1003, True)
    pages = [r for r in github_api.requests if r.path == f"{REPO}/issues/7/comments"]
    assert [r.query.get("page", ["1"])[0] for r in pages] == ["1", "2"]
    writes = github_api.writes()
    assert [(w.method, w.path) for w in writes] == [("PATCH", f"{REPO}/issues/comments/1003")]
    assert writes[0].body["body"].startswith(COMMENT_MARKER)
    assert "PASS" in github_api.edited_comments[1003]


def test_comment_is_created_once_when_no_marker_exists() -> None:
    server = RecordedGitHub(comment_pages=("comments_7.nomarker.json",)).start()
    try:
        client = GitHubClient(quiet_settings(server), "octo-org/widgets")
        assert client.upsert_comment(7, COMMENT_MARKER, "body") == (1005, False)
        writes = server.writes()
        assert [(w.method, w.path) for w in writes] == [("POST", f"{REPO}/issues/7/comments")]
        assert writes[0].body["body"] == f"{COMMENT_MARKER}\nbody"
    finally:
        server.stop()


def test_read_only_token_write_is_write_forbidden_and_sent_once(github_api: RecordedGitHub) -> None:
    client = GitHubClient(quiet_settings(github_api, READ_ONLY_TOKEN), "octo-org/widgets")
    with pytest.raises(WriteForbidden, match="HTTP 403: Resource not accessible by integration"):
        client.post_check_run(_request(3))
    assert len(github_api.writes()) == 1
    assert client.pull_request(7, with_files=False).number == 7  # reads still work


def test_server_error_is_not_retried_when_retries_are_off(github_api: RecordedGitHub) -> None:
    github_api.fail_with[f"{REPO}/pulls/7"] = 502
    client = GitHubClient(quiet_settings(github_api), "octo-org/widgets")
    with pytest.raises(GitHubError, match="HTTP 502"):
        client.pull_request(7)
    assert len(github_api.requests) == 1


def test_unreachable_api_is_a_github_error() -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    settings_ = ClientSettings(
        token="t",
        api_url=f"http://127.0.0.1:{port}",
        retries=False,
        seconds_between_requests=None,
        seconds_between_writes=None,
        timeout=2,
    )
    with pytest.raises(GitHubError, match="unreachable"):
        GitHubClient(settings_, "octo-org/widgets").pull_request(7)


def test_settings_from_env_require_a_token() -> None:
    with pytest.raises(GitHubError, match="GITHUB_TOKEN is empty"):
        ClientSettings.from_env({"GITHUB_API_URL": "http://127.0.0.1:1"})
    made = ClientSettings.from_env({"GITHUB_TOKEN": "t", "GITHUB_API_URL": "http://h:1/"})
    assert (made.api_url, made.retries, made.seconds_between_writes) == ("http://h:1", True, 1.0)


@pytest.mark.parametrize("slug", ["widgets", "a/b/c", "/b", "a/"])
def test_bad_repo_slug_is_refused(slug: str) -> None:
    with pytest.raises(GitHubError, match="not owner/name"):
        GitHubClient(ClientSettings(token="t"), slug)

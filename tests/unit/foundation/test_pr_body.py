"""PR body files: read as UTF-8 text; missing, oversized or binary files are one clear usage error."""

from __future__ import annotations

from pathlib import Path

import pytest

from lanegate.cli.main import main
from lanegate.errors import UsageError
from lanegate.pr_body import MAX_PR_BODY_BYTES, read_pr_body


def test_reads_utf8_text(tmp_path: Path) -> None:
    body = tmp_path / "body.md"
    body.write_text("lanegate-lease: tests/t.py::t expires 2099-01-01T00:00:00Z\nünïcode\n")
    assert read_pr_body(body).endswith("ünïcode\n")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        (b"\xff\xfe\x00binary", "not UTF-8"),
        (b"a" * (MAX_PR_BODY_BYTES + 1), "cap"),
    ],
)
def test_bad_files_are_usage_errors(tmp_path: Path, content: bytes | None, message: str) -> None:
    body = tmp_path / "body.md"
    if content is not None:
        body.write_bytes(content)
    with pytest.raises(UsageError, match=message) as caught:
        read_pr_body(body)
    assert str(body) in caught.value.diagnostic()


def test_score_cli_exits_2_on_a_binary_pr_body(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = tmp_path / "body.md"
    body.write_bytes(b"\xff\xfe")
    code = main(["score", "--ledgers", str(tmp_path), "--pr-body", str(body)])
    err = capsys.readouterr().err
    assert code == 2
    assert "not UTF-8" in err and "Traceback" not in err

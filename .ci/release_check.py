"""Check a release tag against the version and the changelog; write the release notes.

Usage: python3 .ci/release_check.py TAG NOTES_FILE

The tag must be `v` + `lanegate._version.__version__` (read as text, nothing imported), and
CHANGELOG.md must hold a section `## [VERSION] - YYYY-MM-DD` (dated: an `unreleased` section is not a
release). Its body goes to NOTES_FILE. Anything else is one line on stderr and exit 1.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VERSION_FILE = ROOT / "src" / "lanegate" / "_version.py"
CHANGELOG = ROOT / "CHANGELOG.md"
TAG = re.compile(r"v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)")


class ReleaseError(Exception):
    """The tag, the version or the changelog do not make a release."""


def version() -> str:
    found = re.search(r'^__version__ = "([^"]+)"$', VERSION_FILE.read_text("utf-8"), re.M)
    if found is None:
        raise ReleaseError(f"{VERSION_FILE.relative_to(ROOT)}: no __version__ line")
    return found.group(1)


def notes(tag: str) -> str:
    """The changelog section of `tag`, after checking the tag names this version."""
    if TAG.fullmatch(tag) is None:
        raise ReleaseError(f"tag {tag!r}: not vMAJOR.MINOR.PATCH (e.g. v1.0.0)")
    current = version()
    if tag != f"v{current}":
        raise ReleaseError(
            f"tag {tag}: __version__ is {current!r}; set it to {tag[1:]!r} in "
            f"{VERSION_FILE.relative_to(ROOT)} before tagging, or tag v{current}"
        )
    text = CHANGELOG.read_text("utf-8")
    heading = re.search(rf"^## \[{re.escape(current)}\] - (.+)$", text, re.M)
    if heading is None:
        raise ReleaseError(f"CHANGELOG.md: no section '## [{current}] - YYYY-MM-DD'")
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", heading.group(1).strip()) is None:
        raise ReleaseError(
            f"CHANGELOG.md: section [{current}] is dated {heading.group(1).strip()!r}; "
            "write the release date (YYYY-MM-DD) before tagging"
        )
    body = text[heading.end() :]
    following = re.search(r"^## \[", body, re.M)
    return (body[: following.start()] if following else body).strip() + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: release_check.py TAG NOTES_FILE", file=sys.stderr)
        return 2
    try:
        text = notes(argv[0])
    except ReleaseError as exc:
        print(f"release: {exc}", file=sys.stderr)
        return 1
    Path(argv[1]).write_text(text, encoding="utf-8")
    print(f"release {argv[0]}: version and changelog agree")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

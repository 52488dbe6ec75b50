"""The README is the front page and the user docs hold no measurement history: short, linked, one
owner and one required check everywhere, an example test that the demo proves passes.

Reads tracked documentation files only (by name, never a folder's listing of what a command may
have written there)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
README = ROOT / "README.md"
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")


def _tracked(*patterns: str) -> list[Path]:
    listing = subprocess.run(
        ["git", "ls-files", "-z", "--", *patterns],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    return sorted(ROOT / name for name in listing.decode().split("\0") if name)


def _user_docs() -> list[Path]:
    return [p for p in _tracked("README.md", "docs/*.md") if "dev" not in p.relative_to(ROOT).parts]


def _slug(title: str) -> str:
    """GitHub's heading anchor."""
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title).strip().lower()
    return re.sub(r"[^\w\- ]", "", title).replace(" ", "-")


def _prose(text: str) -> list[str]:
    """The lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
        elif not fenced:
            lines.append(line)
    return lines


def _anchors(text: str) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    for line in _prose(text):
        heading = HEADING.match(line)
        if heading:
            slug = _slug(heading.group(2))
            count = seen.get(slug, 0)
            found.add(slug if count == 0 else f"{slug}-{count}")
            seen[slug] = count + 1
    return found


def test_readme_is_under_two_thousand_words() -> None:
    words = len(README.read_text(encoding="utf-8").split())
    assert words < 2000, f"README.md has {words} words"


def test_readme_example_test_is_the_demos_honest_test() -> None:
    # `lanegate demo` (tests/integration/test_cli_demo.py) proves this test passes the gate
    honest = (ROOT / "examples/demo/honest/tests/test_codec_lengths.py").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.DOTALL)
    assert honest in blocks


def test_performance_table_has_one_line_per_benchmark() -> None:
    text = README.read_text(encoding="utf-8")
    table = text[text.index("## Performance") :].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    named = [re.match(r"\| `([^`]+)`", row).group(1) for row in rows]  # type: ignore[union-attr]
    scripts = [p.name for p in _tracked("benchmarks/*.py") if p.parent.name == "benchmarks"]
    expected = sorted(name for name in scripts if name != "__init__.py") + [
        "tests/adversarial/run_corpus.py"
    ]
    assert sorted(named) == sorted(expected)
    assert all(len(row.split(" | ")) == 4 for row in rows), "benchmark | what | result | target"


@pytest.mark.parametrize("doc", _tracked("README.md", "docs/*.md", "docs/dev/*.md"), ids=str)
def test_every_relative_link_resolves(doc: Path) -> None:
    text = doc.read_text(encoding="utf-8")
    for line in _prose(text):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            resolved = (doc.parent / path).resolve() if path else doc
            assert resolved.exists(), f"{doc.name}: {target}: no such file"
            if anchor and resolved.suffix == ".md":
                assert anchor in _anchors(resolved.read_text(encoding="utf-8")), (
                    f"{doc.name}: {target}: no such heading"
                )


def test_engineering_notes_are_linked_once_from_the_user_docs() -> None:
    links = [
        (doc.name, target)
        for doc in _user_docs()
        for target in LINK.findall(doc.read_text(encoding="utf-8"))
        if "dev/" in target
    ]
    assert links == [("README.md", "docs/dev/README.md")]


def test_user_docs_have_no_dated_or_measurement_sections() -> None:
    for doc in _user_docs():
        for line in _prose(doc.read_text(encoding="utf-8")):
            heading = HEADING.match(line)
            if heading:
                title = heading.group(2)
                assert not re.search(r"\b20\d\d-\d\d|\bround\b|\bmeasured\b", title, re.I), (
                    f"{doc.name}: {title}"
                )


def test_one_owner_and_one_required_check_everywhere() -> None:
    places = [*_user_docs(), *_tracked("examples/*.yml", ".github/workflows/*.yml")]
    for place in places:
        text = place.read_text(encoding="utf-8")
        for owner in re.findall(r"(?:uses:\s*|github\.com/)([^/\s]+)/lanegate\b", text):
            assert owner == "lanegate", f"{place.name}: {owner}/lanegate"
        for check in re.findall(r"[`\"]([^`\"\n]*/ score)[`\"]", text):
            assert check == "lane-b / score", f"{place.name}: {check}"

"""README.md opens with the two set-up commands, and CI runs exactly the README's test command."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _opening_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(.*?)```", text, re.DOTALL)
    assert block is not None and text.index("```bash") < 200, "README must open with the commands"
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_opens_with_a_demo_command_and_a_test_command() -> None:
    demo, tests = _opening_commands()
    assert demo.endswith("lanegate demo")
    assert "pytest" in tests


def test_ci_runs_exactly_the_readme_test_command() -> None:
    _, tests = _opening_commands()
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci_lines


def test_ci_installs_what_the_readme_installs() -> None:
    demo, _ = _opening_commands()
    install = demo.split("&&")[0].strip()
    extras = re.search(r"'(\.\[[^\]]*\])'", install)
    assert extras is not None
    assert extras.group(1) in (ROOT / ".ci" / "run").read_text(encoding="utf-8")

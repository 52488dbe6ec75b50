"""The shell reader: words at exact positions, loops, functions, and what counts as a test command."""

from __future__ import annotations

import pytest

from lanegate.workflow_lint.shell import argv, fallbacks, is_test_command, parse_shell


def test_words_keep_positions_across_quotes_expressions_and_continuations() -> None:
    script = 'echo "a b" ${{ matrix.x }} \\\n  --flag=$(date +%s) # comment --reruns\n'
    words = [(w.value, w.line, w.col) for c in parse_shell(script).commands for w in c.words]
    assert words == [
        ("echo", 0, 0),
        ("a b", 0, 5),
        ("${{ matrix.x }}", 0, 11),
        ("--flag=$(date +%s)", 1, 2),
    ]


def test_heredoc_bodies_are_data() -> None:
    script = "cat <<'EOF' > x.sh\nuntil pytest; do :; done\nEOF\npytest\n"
    parsed = parse_shell(script)
    assert parsed.loops == []
    assert [c.words[0].value for c in parsed.commands] == ["cat", "pytest"]
    assert parsed.commands[1].line == 3


def test_loops_and_functions_are_recognised() -> None:
    parsed = parse_shell(
        'f() {\n  while true; do "$@" && return 0; done\n}\nfor i in 1 2; do pytest && break; done\n'
    )
    assert [(loop.kind, loop.line) for loop in parsed.loops] == [("while", 1), ("for", 3)]
    assert list(parsed.functions) == ["f"]
    assert parsed.functions["f"].loops[0].kind == "while"


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("pytest -q", True),
        ("python3 -m pytest", True),
        ("uv run --with x pytest", True),
        ("poetry run tox -e py", True),
        ("FOO=1 timeout 60 xvfb-run -a python -m pytest", True),
        ("coverage run -m pytest", True),
        ("hatch test", True),
        ("npm test", True),
        ("npm run test:unit", True),
        ("make check", True),
        ("go test ./...", True),
        ("./scripts/run-tests.sh", True),
        ("python manage.py test", True),
        ("echo pytest", False),
        ("pip install pytest", False),
        ("curl -fsS https://example.com", False),
        ("make build", False),
        ("npm ci", False),
    ],
)
def test_test_commands(command: str, expected: bool) -> None:
    assert is_test_command(parse_shell(command).commands[0]) is expected


def test_argv_strips_wrappers() -> None:
    command = parse_shell("env A=1 sudo nice python -X dev -m pytest -x").commands[0]
    assert [w.value for w in argv(command)] == ["pytest", "-x"]


def test_fallbacks_pair_the_test_with_what_runs_on_failure() -> None:
    parsed = parse_shell("pytest | tee log || { echo failed; exit 1; }\ncurl x || true\n")
    pairs = [
        ([w.value for w in c.words], [o.words[0].value for o in operand])
        for c, operand in fallbacks(parsed)
    ]
    assert pairs == [(["tee", "log"], ["echo", "exit"])]

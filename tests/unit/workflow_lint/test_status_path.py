"""The path from a test command's exit status to the script's: what keeps it, what drops it."""

from __future__ import annotations

import pytest

from lanegate.workflow_lint.shell import find_exec, is_test_command, parse_shell
from lanegate.workflow_lint.status_compare import exit_code, holds
from lanegate.workflow_lint.status_path import StatusPath


def masked_lines(script: str, errexit: bool = True) -> list[int]:
    return [m.command.line for m in StatusPath(parse_shell(script), errexit).masks()]


@pytest.mark.parametrize(
    ("script", "errexit", "lines"),
    [
        ("trap 'exit 0' EXIT\npytest\n", True, [0]),
        ("trap 'rm -rf tmp' EXIT\npytest\n", True, []),
        ("trap 'rc=$?; exit $rc' EXIT\npytest\n", True, []),
        ("! pytest\n", True, [0]),
        ("if ! pytest; then exit 1; fi\n", True, []),
        ("! pytest && exit 1\necho done\n", True, []),
        ("pytest && echo ok\necho done\n", True, [0]),
        ("pytest && echo ok\n", True, []),
        ("cd tests && pytest\necho done\n", True, []),
        ("pytest & wait\n", True, [0]),
        ("pytest & pid=$!\nwait $pid\n", True, []),
        ("find . -exec pytest {} \\;\n", True, [0]),
        ("find . -exec pytest {} +\n", True, []),
        ('echo "$(pytest)"\n', True, [0]),
        ("echo '$(pytest)'\n", True, []),
        ('out="$(pytest)"\necho "$out"\n', True, []),
        ("export SHA=$(git rev-parse HEAD)\npytest\n", True, []),
        ("cat <<EOF\n$(pytest)\nEOF\n", True, [0]),
        ("cat <<'EOF'\n$(pytest)\nEOF\n", True, []),
        ("diff <(pytest) expected.txt\n", True, [0]),
        ("pytest\necho done\n", False, [0]),
        ("pytest\necho done\n", True, []),
        ("pytest && echo ok\nexit $?\n", True, []),
        ("pytest\nexit\n", False, []),
        ("pytest && echo ok\nexit 0\n", True, [0]),
        ("echo start\npytest\n", False, []),
        ("pytest\nrc=$?\nexit $rc\n", False, []),
        ("pytest\nrc=$?\necho $rc\n", False, [0]),
        ("pytest\nrc=$?\n[ $rc -le 1 ]\n", False, [2]),
        ("set -e\npytest\necho done\n", False, []),
        ("set +e\npytest\necho done\n", True, []),  # shell-errexit-off reports `set +e`
    ],
)
def test_masks(script: str, errexit: bool, lines: list[int]) -> None:
    assert masked_lines(script, errexit) == lines


@pytest.mark.parametrize(
    ("check", "holds_for_failure"),
    [
        ("[ $rc -le 1 ]", True),
        ('[ "$rc" -ne 0 ]', True),
        ("[ $rc -eq 0 ]", False),
        ("[[ ${rc} == 5 ]]", False),
        ("test ! $rc -gt 1", True),
        ("(( rc < 2 ))", True),
        ("(( rc == 0 || rc == 5 ))", False),
        ("[ $rc -le $limit ]", None),
        ("echo $rc", None),
    ],
)
def test_checks_are_evaluated_for_a_failing_status(
    check: str, holds_for_failure: bool | None
) -> None:
    assert holds(parse_shell(check).commands[0], "rc", 1) is holds_for_failure


def test_exit_codes() -> None:
    def code(text: str, previous: int | None = None) -> int | None:
        return exit_code(parse_shell(text).commands[0], "rc", 1, previous)

    assert code("exit $rc") == 1
    assert code("exit $(( rc > 1 ))") == 0
    assert code("exit $(( rc != 0 ))") == 1
    assert code("exit", previous=0) == 0
    assert code("exit $(( 9**9**9 ))") is None
    assert code("echo") is None


def test_find_exec_runs_the_test_command_it_names() -> None:
    command = parse_shell("find tests -name 'test_*.py' -exec python -m pytest {} ';'").commands[0]
    assert is_test_command(command)
    found = find_exec(command.words)
    assert found is not None and found[1] == ";"
    assert not is_test_command(parse_shell("find . -name '*.pyc' -delete").commands[0])


def test_arithmetic_commands_are_one_word() -> None:
    parsed = parse_shell("(( rc == 0 || rc == 5 ))\nx=$(( 1 + 2 ))\n")
    assert [[w.raw for w in c.words] for c in parsed.commands] == [
        ["(( rc == 0 || rc == 5 ))"],
        ["x=$(( 1 + 2 ))"],
    ]


def test_deep_substitutions_are_read_flat() -> None:
    depth = 5000
    script = "echo " + "$(cat " * depth + "$(pytest)" + ")" * depth + "\n"
    assert masked_lines(script) == [0]


def test_many_captures_stay_linear() -> None:
    script = "".join("pytest\nrc=$?\necho $rc\n" for _ in range(3000))
    assert len(masked_lines(script, errexit=False)) == 3000

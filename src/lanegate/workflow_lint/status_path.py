"""Where a test command's exit status goes: the constructs between a test command and the script's
exit status that drop it (an exit trap that exits 0, `!`, a non-final `&&` item, an unwaited
background job, `find -exec ... ;`, a builtin around a command substitution, a comparison of the
captured status that admits a failure, a later command when errexit is off).

A failure is kept only along a path lanegate models as propagating the status: the last command of
its block, a failing command under errexit, an `exit`/`return` of it. `||` fallbacks, `if` and pipes
are judged by the rule itself; this module judges everything else on the path.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from lanegate.workflow_lint.shell import (
    Command,
    Conditional,
    ShellScript,
    argv,
    balanced_end,
    captured_status,
    errexit_setting,
    find_exec,
    is_test_command,
    parse_snippet,
    pipeline_runs_tests,
    propagates_failure,
    reruns_last_failures,
    right_operand,
)
from lanegate.workflow_lint.status_compare import arithmetic_parts, exit_code, holds, reads

_EXIT_SIGNALS = frozenset({"EXIT", "0", "ERR"})
_MAX_SUBSTITUTION_DEPTH = 6  # deeper `$( $( ... ) )` is read flat, as one list of commands
_MAX_READS = 64  # reads of a captured status followed before the verdict is "cannot tell"
_CAPTURE = ("$?", "${?}")
FAILED = 1  # the status a failing test run leaves (pytest: 1; any non-zero fails a step)


@dataclass(frozen=True, slots=True)
class Mask:
    """A construct that keeps a test command's failure from the exit status, and why."""

    command: Command
    message: str


_NAME_REF = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*|\?)")
_IDENTIFIER = re.compile(r"(?<![\w$])([A-Za-z_][A-Za-z0-9_]*)")


class StatusPath:
    """One script's commands, indexed once (blocks, conditions, `&&` list ends, which commands
    touch which variable) so each question about a test command's status is answered without
    rescanning the script."""

    def __init__(self, script: ShellScript, base_errexit: bool) -> None:
        self.script = script
        commands = script.commands
        self.container: list[object] = [None] * len(commands)
        self.condition_of: dict[int, Conditional] = {}
        self.in_condition: set[int] = set()
        for function in script.functions.values():
            for command in function.body:
                self.container[command.index] = id(function)
        for loop in script.loops:
            for command in loop.condition:
                self.in_condition.add(command.index)
                self.container[command.index] = (id(loop), "condition")
            for command in loop.body:
                self.container[command.index] = (id(loop), "body")
        for conditional in script.conditionals:
            for command in conditional.condition:
                self.in_condition.add(command.index)
                self.condition_of[command.index] = conditional
                self.container[command.index] = (id(conditional), "condition")
            for command in conditional.then_branch:
                self.container[command.index] = (id(conditional), "then")
            for command in conditional.else_branch:
                self.container[command.index] = (id(conditional), "else")
        self.list_end = list(range(len(commands)))
        # a `||` or a group's end between a command and the end of its list
        self.mixed_list = [False] * len(commands)
        for i in range(len(commands) - 2, -1, -1):
            if commands[i].op_after in ("&&", "||", "|", "|&"):
                self.list_end[i] = self.list_end[i + 1]
                self.mixed_list[i] = (
                    commands[i].op_after == "||"
                    or bool(commands[i].closes_group)
                    or self.mixed_list[i + 1]
                )
        # the first `||` of a command's list after it (through `&&` and pipes), -1 when none
        self.next_or = [-1] * len(commands)
        for i in range(len(commands) - 1, -1, -1):
            command = commands[i]
            if command.closes_group:
                continue  # `{ pytest && x; } || y`: the `||` belongs to the group
            if command.op_after == "||":
                self.next_or[i] = i
            elif command.op_after in ("&&", "|", "|&") and i + 1 < len(commands):
                self.next_or[i] = self.next_or[i + 1]
        self.errexit = errexit_states(script, base_errexit)
        self._touches: dict[str, list[int]] | None = None

    @property
    def touches(self) -> dict[str, list[int]]:
        """Variable name -> indexes of the commands that read or assign it (built on first use:
        most scripts capture no status)."""
        if self._touches is None:
            self._touches = {}
            for command in self.script.commands:
                names = {
                    m.group(1)
                    for w in command.words
                    if "$" in w.raw
                    for m in _NAME_REF.finditer(w.raw)
                }
                for expression in arithmetic_parts(command):
                    names.update(m.group(1) for m in _IDENTIFIER.finditer(expression))
                name, equals, _ = command.words[0].raw.partition("=")
                if equals and name.isidentifier():
                    names.add(name)
                for name in names:
                    self._touches.setdefault(name, []).append(command.index)
        return self._touches

    def masks(self) -> Iterator[Mask]:
        """Every construct of the script that keeps a test command's failure from its exit
        status."""
        script = self.script
        commands = script.commands
        if not commands:
            return
        tests = [c for c in commands if is_test_command(c)]
        test_functions = {
            name
            for name, function in script.functions.items()
            if any(c.calls_tests or is_test_command(c) for c in function.body)
        }
        yield from _substitutions(script, test_functions)
        if not tests:
            return
        yield from _exit_traps(script)
        waits = [c.index for c in commands if _waits_for_a_job(c)]
        for command in tests:
            mask = self._judge(command, waits[-1] if waits else -1)
            if mask is not None:
                yield mask

    def _sibling_after(self, index: int) -> Command | None:
        """The next command of the same block after commands[index], if one runs after it."""
        nxt = index + 1
        commands = self.script.commands
        if nxt >= len(commands) or commands[index].closes_group:
            return None
        if self.container[nxt] != self.container[index]:
            return None
        return commands[nxt]

    def _judge(self, command: Command, last_wait: int) -> Mask | None:
        commands = self.script.commands
        shown = command.words[0].raw
        args = argv(command)
        found = find_exec(args) if args and args[0].value.rsplit("/", 1)[-1] == "find" else None
        if found is not None and found[1] == ";":
            return Mask(command, "`find -exec ... \\;` exits 0 whatever the test command returns")
        if command.index in self.in_condition:
            return None  # an `if`/`while`/`until` condition: judged with its branches
        if command.negated:
            after = right_operand(commands, command.index)
            if command.op_after == "&&" and after and propagates_failure(after[-1]):
                return None  # `! pytest && exit 1` is `pytest || exit 1`
            return Mask(command, f"`! {shown}` turns a failing test run into success")
        if command.op_after == "&":
            if last_wait > command.index:
                return None
            return Mask(
                command,
                f"`{shown} &` runs in the background and no `wait <pid>` follows: its failure is"
                " lost",
            )
        if command.op_before in ("|", "|&") or command.op_after in ("|", "|&", "||"):
            return None  # a pipeline or `||` chain: judged by the rule
        end = self.list_end[command.index]
        if commands[end].op_after == "&":
            return None
        if self.mixed_list[command.index]:
            return self._and_or(command)
        following = self._sibling_after(end)
        if following is None:
            return None  # the last command of its block: its status is the block's
        code = exit_code(following, "?", FAILED, FAILED)
        if code is not None and code != 0:
            return None  # `pytest && x; exit $?`: the next command reports the status
        ends_list = end != command.index
        errexit = self.errexit[command.index]
        name = _capture_name(following)
        if name is not None and (ends_list or errexit is not True):
            kept, where = self.follow_capture(following.index + 1, name, FAILED)
            if kept is False and where is not None:
                return Mask(where, f"this check of `${name}` passes when the test command fails")
            if kept is None and not self.exits_with(following.index + 1, name):
                return Mask(
                    command, f"`{name}=$?` keeps the status, but no `exit ${name}` reports it"
                )
            return None
        if ends_list:
            return Mask(
                command,
                f"`{shown} && ...` is followed by more commands: errexit ignores a failure in a"
                " non-final `&&` item, so the script goes on",
            )
        if errexit is None:
            return Mask(
                command,
                f"errexit is off (no `-e` in the shell line or script): `{shown}` can fail and"
                " the next command decides the exit status",
            )
        return None

    def _and_or(self, command: Command) -> Mask | None:
        """`pytest && x || y`: a failing test skips `x` and runs `y`, which must fail too."""
        commands = self.script.commands
        j = self.next_or[command.index]
        if j < 0 or pipeline_runs_tests(commands, j):
            return None  # a group's end, or a test command right before `||`: the rule judges it
        operand = right_operand(commands, j)
        if not operand or any(is_test_command(c) or reruns_last_failures(c) for c in operand):
            return None  # a second run: shell-rerun-fallback's
        if propagates_failure(operand[-1]):
            return None
        kept, where = self.capture(operand)
        if kept is False and where is not None:
            return Mask(where, "this check of the status passes when the test command fails")
        if kept is True or captured_status(self.script, operand):
            return None
        shown = command.words[0].raw
        fallback = " ".join(w.raw for w in operand[0].words)
        return Mask(
            operand[0],
            f"`{shown} && ... || {fallback}`: a failing test run skips to the `||` branch, which"
            " does not fail",
        )

    def _reads_after(self, start: int, name: str) -> list[int]:
        found = self.touches.get(name, [])
        first = bisect_left(found, start)
        return found[first : first + _MAX_READS]

    def exits_with(self, start: int, name: str) -> bool:
        """A later `exit $name` / `return $name`."""
        for index in self._reads_after(start, name):
            command = self.script.commands[index]
            if not reads(command, name):
                return False  # reassigned first
            args = [w.raw.strip("'\"") for w in argv(command)]
            if len(args) > 1 and args[0] in ("exit", "return"):
                if args[1] in (f"${name}", f"${{{name}}}"):
                    return True
        return False

    def capture(self, operand: list[Command]) -> tuple[bool | None, Command | None]:
        """For `test || <operand>`: whether the operand keeps the failure (`|| rc=$?` later
        checked, `|| [ $? -eq 5 ]`), with the command that decides; None when it cannot tell."""
        first = operand[0]
        if len(operand) == 1 and reads(first, "?"):
            truth = holds(first, "?", FAILED)
            if truth is not None:
                return not truth, first
        if len(operand) != 1 or len(first.words) != 1:
            return None, None
        name, equals, value = first.words[0].raw.partition("=")
        if not equals or not name.isidentifier():
            return None, None
        bound = value.strip("\"'")
        number = FAILED if bound in _CAPTURE else int(bound) if bound.isdigit() else None
        if number is None:
            return None, None
        return self.follow_capture(first.index + 1, name, number)

    def follow_capture(
        self, start: int, name: str, value: int
    ) -> tuple[bool | None, Command | None]:
        """Follow a captured status `name` (= `value`) through the commands from `start`: True
        when an `exit`/`return` or a failing check reports it, False (with the command) when a
        check passes it or an `exit` turns it into 0, None when lanegate cannot tell."""
        commands = self.script.commands
        reads_at = self._reads_after(start, name)
        passed: Command | None = None  # the last check that let the failing status through
        position = 0
        while position < len(reads_at):
            i = reads_at[position]
            position += 1
            command = commands[i]
            if not reads(command, name):
                break  # reassigned
            code = exit_code(command, name, value, None)
            if code is not None:
                return code != 0, command
            truth = holds(command, name, value)
            if truth is None:
                continue
            conditional = self.condition_of.get(i)
            if conditional is not None:
                chosen = conditional.then_branch if truth else conditional.else_branch
                verdict = _branch_exit(chosen, name, value)
                if verdict is not None:
                    return verdict, command
                passed = command
                after = max(c.index for c in (*conditional.condition, *conditional.branches))
                position = bisect_right(reads_at, after)
                continue
            nxt = commands[i + 1] if i + 1 < len(commands) else None
            if command.op_after not in ("&&", "||") or nxt is None:
                if not truth:
                    return True, command  # a failing check: errexit or the script's end reports it
                passed = command
                continue
            if truth != (command.op_after == "&&"):
                passed = command  # the `&&`/`||` part does not run, the script goes on
                position = bisect_right(reads_at, i + 1)
                continue
            code = exit_code(nxt, name, value, 0 if truth else 1)
            if code is not None:
                return code != 0, command
            if propagates_failure(nxt):
                return True, command
            if not reads(nxt, name):
                passed = command
                position = bisect_right(reads_at, i + 1)
        return (False, passed) if passed is not None else (None, None)


def _capture_name(command: Command) -> str | None:
    """`rc=$?` (one assignment of the previous command's status): the variable's name."""
    if len(command.words) != 1:
        return None
    name, equals, value = command.words[0].raw.partition("=")
    if not equals or not name.isidentifier() or value.strip("\"'") not in _CAPTURE:
        return None
    return name


def errexit_states(script: ShellScript, base: bool) -> list[bool | None]:
    """Per command: True when errexit is on, None when the shell or script never turned it on, False
    when a `set +e` turned it off (shell-errexit-off reports those)."""
    state: bool | None = True if base else None
    states: list[bool | None] = []
    for command in script.commands:
        setting = errexit_setting(command) if any(w.value == "set" for w in command.words) else None
        if setting is not None:
            state = setting
        states.append(state)
    return states


def _branch_exit(branch: list[Command], name: str, value: int) -> bool | None:
    for command in branch:
        code = exit_code(command, name, value, None)
        if code is not None:
            return code != 0
        if propagates_failure(command):
            return True
    return None


def _waits_for_a_job(command: Command) -> bool:
    """`wait $pid`, `wait %1`, `wait -n`: a wait whose status is a job's (a bare `wait` is 0)."""
    if command.op_after == "||" or not any(w.value == "wait" for w in command.words):
        return False  # most commands: no argv needed
    args = argv(command)
    return len(args) > 1 and args[0].value == "wait"


def _exit_traps(script: ShellScript) -> Iterator[Mask]:
    """`trap 'exit 0' EXIT` (or ERR, or a function of the script that exits 0): the script's
    status is 0 whatever the test commands returned."""
    for command in script.commands:
        if not any(w.value == "trap" for w in command.words):
            continue
        args = argv(command)
        if len(args) < 3 or args[0].value != "trap":
            continue
        signals = {w.value.upper().removeprefix("SIG") for w in args[2:]}
        if not signals & _EXIT_SIGNALS:
            continue
        if _exits_zero(script, parse_snippet(args[1].value).commands):
            yield Mask(command, "an exit trap exits 0: the script passes whatever its tests return")


def _exits_zero(script: ShellScript, action: list[Command]) -> bool:
    """Whether a trap action (or a function of the script it calls, followed once) runs `exit 0`."""
    pending, seen = list(action), set()
    while pending:
        command = pending.pop()
        args = argv(command)
        if not args:
            continue
        head = args[0].value
        if head == "exit" and len(args) > 1 and args[1].value.strip() in ("0", "true"):
            return True
        function = script.functions.get(head)
        if function is not None and head not in seen:
            seen.add(head)
            pending.extend(function.body)
    return False


def _substitutions(script: ShellScript, test_functions: set[str]) -> Iterator[Mask]:
    """A command with a test command inside a `$(...)` or backtick argument (`echo "$(pytest)"`,
    `export X=$(pytest)`): the command's status, not the tests', decides."""
    for command in script.commands:
        if not any(_substitutes(w.raw) or w.expands for w in command.words):
            continue
        args = argv(command)
        if args and args[0].value in ("exit", "return"):
            continue
        for word in command.words:
            if _runs_tests(word.raw, test_functions, 0) or (
                word.expands and _runs_tests(word.expands, test_functions, 0)
            ):
                head = command.words[0].raw
                yield Mask(
                    command,
                    f"a test command runs inside a substitution (`$(...)`, `<(...)`, a heredoc) of `{head}`:"
                    f" `{head}`'s status, not the tests', decides",
                )
                break


def _runs_tests(text: str, test_functions: set[str], depth: int) -> bool:
    for inner in _substituted_texts(text):
        if depth >= _MAX_SUBSTITUTION_DEPTH:
            flat = re.sub(r"[$<>]?\(|\)|`", "\n", inner)
            parsed = parse_snippet(flat)
        else:
            parsed = parse_snippet(inner)
        for command in parsed.commands:
            if is_test_command(command) or command.words[0].value in test_functions:
                return True
            if depth < _MAX_SUBSTITUTION_DEPTH and any(_substitutes(w.raw) for w in command.words):
                if any(_runs_tests(w.raw, test_functions, depth + 1) for w in command.words):
                    return True
    return False


def _substitutes(raw: str) -> bool:
    return "$(" in raw or "`" in raw or "<(" in raw or ">(" in raw


def _substituted_texts(text: str) -> Iterator[str]:
    """The text inside each `$(...)` and backtick span of a word, outside single quotes (`$((`
    arithmetic is no command)."""
    i, n, double = 0, len(text), False
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            double = not double
        elif c == "'" and not double:
            end = text.find("'", i + 1)
            i = n if end < 0 else end + 1
            continue
        elif c == "`":
            end = text.find("`", i + 1)
            end = n if end < 0 else end
            yield text[i + 1 : end]
            i = end + 1
            continue
        elif text.startswith(("$(", "<(", ">("), i) and not text.startswith("$((", i):
            end = balanced_end(text, i)
            yield text[i + 2 : end - 1]
            i = end
            continue
        i += 1

"""Shell-script analysis for `run:` blocks: words with positions, commands, loops and functions.

Not a full POSIX parser: enough structure (quotes, `$(...)`, `${{ }}` expressions, comments, heredocs,
line continuations, `;`/`&&`/`||`/`|` lists, `until`/`while`/`for` loops, `if`, `{ }` groups and
function definitions) to say where a test command is retried or its failure swallowed, and to report
the exact line and column of the construct inside the block.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from lanegate.workflow_lint.runners import runner_of

_OPS = ("&&", "||", ";;", "|&", ";", "|", "&")
_RESERVED = frozenset(
    {
        "until",
        "while",
        "for",
        "do",
        "done",
        "if",
        "then",
        "elif",
        "else",
        "fi",
        "{",
        "}",
        "!",
        "case",
        "esac",
        "time",
        "select",
    }
)


@dataclass(slots=True)
class Word:
    """One shell word: `raw` as written, `value` with quotes removed; 0-based line and column."""

    raw: str
    value: str
    line: int
    col: int
    expands: str = ""  # the body of an unquoted heredoc this word opens: its `$(...)` run too


@dataclass(slots=True)
class Command:
    """A simple command, the operator that follows it, and how it sits in groups and negation."""

    words: list[Word]
    op_after: str = ""
    op_before: str = ""
    negated: bool = False
    opens_group: int = 0
    closes_group: int = 0
    index: int = 0
    calls_tests: bool = False  # calls a function of the script whose body runs a test command
    runs_tests: bool | None = (
        None  # is_test_command's answer, once asked (a parsed script is final)
    )

    @property
    def line(self) -> int:
        return self.words[0].line

    @property
    def col(self) -> int:
        return self.words[0].col


@dataclass(slots=True)
class Loop:
    """An `until`, `while` or `for` loop: where its keyword is, its condition and body commands."""

    kind: str
    line: int
    col: int
    condition: list[Command] = field(default_factory=list)
    body: list[Command] = field(default_factory=list)
    phase: str = "condition"


@dataclass(slots=True)
class Function:
    """A shell function definition and every command inside it."""

    name: str
    line: int
    col: int
    body: list[Command] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)


@dataclass(slots=True)
class Conditional:
    """An `if` statement: where its keyword is, its condition commands (`if` and `elif`) and the commands
    of its branches."""

    line: int
    col: int
    condition: list[Command] = field(default_factory=list)
    branches: list[Command] = field(default_factory=list)
    phase: str = "condition"
    else_at: int = -1  # index in `branches` where the first `elif`/`else` arm starts

    @property
    def then_branch(self) -> list[Command]:
        """The commands run when the first condition holds."""
        return self.branches if self.else_at < 0 else self.branches[: self.else_at]

    @property
    def else_branch(self) -> list[Command]:
        """The commands of the `elif` and `else` arms (empty: nothing runs when it fails)."""
        return [] if self.else_at < 0 else self.branches[self.else_at :]


@dataclass(slots=True)
class ShellScript:
    """A parsed `run:` block."""

    commands: list[Command]
    loops: list[Loop]
    functions: dict[str, Function]
    conditionals: list[Conditional] = field(default_factory=list)
    pipefail: bool = False  # `set -o pipefail` (or `-euo pipefail`) appears in the script


@dataclass(slots=True)
class _Token:
    kind: str  # "word", "op", "nl"
    raw: str
    value: str
    line: int
    col: int
    expands: str = ""


_HEREDOC = re.compile(r"^<<(-?)\s*(['\"]?)([A-Za-z_][\w.-]*)\2$")


_PLAIN = re.compile(r"[^\s;|&()'\"\\`$]+")


# `out=$(pytest || pytest --lf)` or a bare `$(...)` as a whole command: its status is the list's
_WHOLE_SUBSTITUTION = re.compile(r"([A-Za-z_][A-Za-z0-9_]*=)?(\"?)\$\((?!\()")
_MAX_SUBSTITUTION_DEPTH = 8  # deeper command substitutions stay one word


def _substituted(
    script: str, start: int, end: int, depth: int, position: Callable[[int], tuple[int, int]]
) -> list[_Token] | None:
    """The tokens of the command list inside a word `script[start:end]` that is a command of its own
    made of one `$(...)` (alone, or assigned: `out=$(...)`), where the list's status is the
    command's; positions are the outer script's. None for any other word."""
    match = _WHOLE_SUBSTITUTION.match(script, start)
    if match is None or depth >= _MAX_SUBSTITUTION_DEPTH:
        return None
    opens, word_end = match.end() - 2, end
    if match.group(2):  # `out="$(pytest)"`: the same status as unquoted
        if script[end - 1] != '"':
            return None
        end -= 1
    if balanced_end(script, opens) != end or script[end - 1] != ")":
        return None
    rest = script[word_end : word_end + 200].lstrip(" \t")
    if rest and rest[0] not in "\n;|&)#":
        return None  # `out=$(...) cmd`: the status is cmd's
    # `$( $( ... ) )`: wrappers peeled in one pass over the span, not one recursion each
    start, end = opens + 2, end - 1
    pairs = _paren_pairs(script, start, end)
    while True:
        first = start + len(script[start:end]) - len(script[start:end].lstrip())
        last = start + len(script[start:end].rstrip())
        if not (script.startswith("$(", first) and pairs.get(first + 1) == last - 1):
            break
        start, end = first + 2, last - 1
    line0, col0 = position(start)
    inner = _tokens(script[start:end], depth + 1)
    return [
        _Token(
            t.kind,
            t.raw,
            t.value,
            line0 + t.line,
            col0 + t.col if t.line == 0 else t.col,
            t.expands,
        )
        for t in inner
    ]


def _paren_pairs(script: str, start: int, end: int) -> dict[int, int]:
    """Each `(` of `script[start:end]` outside quotes, mapped to the `)` that closes it."""
    pairs: dict[int, int] = {}
    opened: list[int] = []
    j, quote = start, ""
    while j < end:
        c = script[j]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\":
                j += 1
        elif c in "'\"":
            quote = c
        elif c == "(":
            opened.append(j)
        elif c == ")" and opened:
            pairs[opened.pop()] = j
        j += 1
    return pairs


def _tokens(script: str, depth: int = 0) -> list[_Token]:
    """Split a script into words and operators, dropping comments and heredoc bodies; a command that
    is one command substitution (`out=$(pytest || pytest)`) is split into the list inside it.

    Scans by index; a token's line and column are computed from the line-start table only when the
    token is emitted (tracking them per character costs more than the rest of the scan).
    """
    out: list[_Token] = []
    i, n = 0, len(script)
    starts = [0]
    at = script.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = script.find("\n", at + 1)
    # delimiter, strip tabs, fed to a shell, the word that opened it when the body is expanded
    pending_heredocs: list[tuple[str, bool, bool, _Token | None]] = []
    shell_bodies: list[tuple[str, bool]] = []  # heredocs read by a shell: scanned as script lines
    expect_delimiter: bool | None = None  # strip-tabs flag while waiting for `<< EOF`'s word
    command_start = 0  # index in `out` of the current command's first token
    plain = _PLAIN.match

    def position(index: int) -> tuple[int, int]:
        line = bisect_right(starts, index) - 1
        return line, index - starts[line]

    while i < n:
        ch = script[i]
        if ch in " \t\r":
            i += 1
            continue
        if ch == "\\" and i + 1 < n and script[i + 1] == "\n":
            i += 2
            continue
        if ch == "\n":
            out.append(_Token("nl", "\n", "\n", *position(i)))
            command_start = len(out)
            i += 1
            for delimiter, strip, to_shell, opener in pending_heredocs:
                if to_shell:
                    shell_bodies.append((delimiter, strip))
                    continue
                body = i
                while i < n:
                    end = script.find("\n", i)
                    end = n if end < 0 else end
                    text = script[i:end]
                    i = end + 1 if end < n else n
                    if (text.lstrip("\t") if strip else text) == delimiter:
                        break
                if opener is not None and ("$(" in script[body:i] or "`" in script[body:i]):
                    opener.expands = script[body:i]
            pending_heredocs = []
            if shell_bodies:
                end = script.find("\n", i)
                end = n if end < 0 else end
                delimiter, strip = shell_bodies[0]
                text = script[i:end]
                if (text.lstrip("\t") if strip else text) == delimiter:
                    shell_bodies.pop(0)
                    i = end
            continue
        if ch == "#":
            end = script.find("\n", i)
            i = n if end < 0 else end
            continue
        if script.startswith("((", i) and (
            len(out) == command_start or (out[-1].kind == "word" and out[-1].raw in _RESERVED)
        ):
            end = balanced_end(script, i)  # `(( rc < 2 ))`: one word, `||` inside is arithmetic
            if script.startswith(")", end):
                out.append(_Token("word", script[i : end + 1], script[i : end + 1], *position(i)))
                i = end + 1
                continue
        if ch == "(" and i + 1 < n and script[i + 1] == ")":
            out.append(_Token("word", "()", "()", *position(i)))
            i += 2
            continue
        if ch in "()":
            out.append(_Token("op", ch, ch, *position(i)))
            i += 1
            continue
        if ch in ";|&" and not script.startswith("&>", i):
            op = next(o for o in _OPS if script.startswith(o, i))
            out.append(_Token("op", op, op, *position(i)))
            command_start = len(out)
            i += len(op)
            continue
        start = i
        value: list[str] = []
        while i < n:
            chunk = plain(script, i)
            if chunk is not None:
                value.append(chunk.group(0))
                i = chunk.end()
                continue
            ch = script[i]
            if ch == "(" and i > start and script[i - 1] in "<>":
                end = balanced_end(script, i - 1)  # `<(pytest)`: process substitution, one word
                value.append(script[i:end])
                i = end
                continue
            if ch in " \t\r\n;|()":
                break
            if ch == "&":
                if (i > start and script[i - 1] in "<>") or script.startswith("&>", i):
                    value.append(ch)
                    i += 1
                    continue
                break
            if ch == "\\":
                if i + 1 < n and script[i + 1] != "\n":
                    value.append(script[i + 1])
                i += 2
                continue
            if ch == "'":
                end = script.find("'", i + 1)
                end = n - 1 if end < 0 else end
                value.append(script[i + 1 : end])
                i = end + 1
                continue
            if ch == '"':
                j = i + 1
                while j < n and script[j] != '"':
                    j += 2 if script[j] == "\\" else 1
                value.append(script[i + 1 : min(j, n)])
                i = min(j + 1, n)
                continue
            if script.startswith("${{", i):
                end = script.find("}}", i)
                end = n if end < 0 else end + 2
                value.append(script[i:end])
                i = end
                continue
            if script.startswith("$(", i) or script.startswith("${", i) or ch == "`":
                end = balanced_end(script, i)
                value.append(script[i:end])
                i = end
                continue
            value.append(ch)
            i += 1
        i = min(i, n)
        raw = script[start:i]
        text = "".join(value)
        token = _Token("word", raw, text, *position(start))
        expanded = token if not any(q in raw for q in "'\"\\") else None  # `<<'EOF'`: literal
        if expect_delimiter is not None:
            to_shell = _feeds_shell(out[command_start:])
            pending_heredocs.append((text.strip("'\""), expect_delimiter, to_shell, expanded))
            expect_delimiter = None
        elif raw.startswith("<<") and not raw.startswith("<<<"):
            match = _HEREDOC.match(raw)
            if match:
                to_shell = _feeds_shell(out[command_start:])
                pending_heredocs.append((match.group(3), match.group(1) == "-", to_shell, expanded))
            elif raw in ("<<", "<<-"):
                expect_delimiter = raw == "<<-"
        inner = (
            _substituted(script, start, i, depth, position) if len(out) == command_start else None
        )
        if inner is not None:
            out.extend(inner)
            continue
        out.append(token)
    return out


_STDIN_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


def _feeds_shell(words: list[_Token]) -> bool:
    """True when the command a heredoc belongs to is a shell reading its script from stdin (`bash
    <<EOF`, `docker exec -i c sh <<EOF`): the body is scanned as commands of this script."""
    values = [t.value for t in words if t.kind == "word"]
    for index, value in enumerate(values):
        if value.rsplit("/", 1)[-1] in _STDIN_SHELLS:
            return "-c" not in values[index + 1 :]
    return False


def balanced_end(script: str, i: int) -> int:
    """End index of a `$(...)`, `${...}` or backtick span starting at i (quotes respected)."""
    n = len(script)
    if script[i] == "`":
        end = script.find("`", i + 1)
        return n if end < 0 else end + 1
    opener = script[i + 1]
    closer = ")" if opener == "(" else "}"
    depth, j, quote = 0, i + 1, ""
    while j < n:
        c = script[j]
        if quote:
            if c == quote:
                quote = ""
            elif c == "\\":
                j += 1
        elif c in "'\"":
            quote = c
        elif c == opener:
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return n


def _commands(tokens: list[_Token]) -> list[Command]:
    commands: list[Command] = []
    words: list[Word] = []
    opens = 0
    last_op = ""
    for token in tokens:
        if token.kind == "word":
            words.append(Word(token.raw, token.value, token.line, token.col, token.expands))
            continue
        if token.value == "(":
            opens += 1
            continue
        if words:
            commands.append(
                Command(
                    words,
                    op_after="\n" if token.kind == "nl" else token.value,
                    op_before=last_op,
                    opens_group=opens,
                )
            )
            words, opens = [], 0
        if token.value == ")" and commands:
            commands[-1].closes_group += 1
            continue
        last_op = "\n" if token.kind == "nl" else token.value
    if words:
        commands.append(Command(words, op_before=last_op, opens_group=opens))
    return commands


_CACHED_CHARS = 4096  # short scripts (`bash -c '...'`, `$(...)`) are parsed once per process


@lru_cache(maxsize=2048)
def _parse_short(script: str) -> ShellScript:
    return parse_shell(script)


def parse_snippet(script: str) -> ShellScript:
    """`parse_shell` for a script inside a command (`bash -c '...'`, `$(...)`, a trap), which often
    repeats: short ones are parsed once. The result is shared: read it, never change it."""
    return _parse_short(script) if len(script) <= _CACHED_CHARS else parse_shell(script)


def parse_shell(script: str) -> ShellScript:
    """Parse a shell script into commands (keywords stripped), loops and functions."""
    raw = _commands(_tokens(script))
    commands: list[Command] = []
    loops: list[Loop] = []
    functions: dict[str, Function] = {}
    conditionals: list[Conditional] = []
    blocks = _Blocks()
    innermost_loop, innermost_function = blocks.loop, blocks.function
    innermost_conditional = blocks.conditional

    carried_opens = 0
    for command in raw:
        words = command.words
        while words:
            head = words[0].value if words[0].raw == words[0].value else ""
            if len(words) >= 2 and words[1].value == "()" and head not in _RESERVED:
                blocks.append(Function(words[0].value, words[0].line, words[0].col))
                words = words[2:]
                if words and words[0].value == "{":
                    words = words[1:]
                continue
            if head == "function" and len(words) >= 2:
                blocks.append(Function(words[1].value, words[0].line, words[0].col))
                words = words[2:]
                if words and words[0].value == "()":
                    words = words[1:]
                if words and words[0].value == "{":
                    words = words[1:]
                continue
            if head not in _RESERVED:
                break
            if head in ("until", "while", "for", "select"):
                loop = Loop(head, words[0].line, words[0].col)
                blocks.append(loop)
                if head in ("for", "select"):
                    loop.phase = "header"
                    # `for i in 1 2 3; do ...`: the header words are not a command
                    words = []
                    break
                words = words[1:]
            elif head == "do":
                loop_now = innermost_loop()
                if loop_now is not None:
                    loop_now.phase = "body"
                words = words[1:]
            elif head == "done":
                while blocks:
                    block = blocks.pop()
                    if isinstance(block, Loop):
                        _close_loop(block, blocks, loops)
                        break
                words = words[1:]
            elif head == "if":
                blocks.append(Conditional(words[0].line, words[0].col))
                words = words[1:]
            elif head in ("case", "{"):
                blocks.append(head)
                words = words[1:]
                if head == "{":
                    command.opens_group += 1
                if head == "case":
                    words = []
            elif head == "fi":
                if blocks and isinstance(blocks[-1], Conditional):
                    conditionals.append(blocks.pop())  # type: ignore[arg-type]
                words = words[1:]
            elif head == "esac":
                if blocks and blocks[-1] == "case":
                    blocks.pop()
                words = words[1:]
            elif head in ("then", "else", "elif"):
                open_if = innermost_conditional()
                if open_if is not None:
                    open_if.phase = "condition" if head == "elif" else "branches"
                    if head != "then" and open_if.else_at < 0:
                        open_if.else_at = len(open_if.branches)
                words = words[1:]
            elif head == "}":
                top = blocks[-1] if blocks else None
                if isinstance(top, Function):
                    blocks.pop()
                    functions[top.name] = top
                elif blocks and blocks[-1] == "{":
                    blocks.pop()
                if commands:
                    commands[-1].closes_group += 1
                words = words[1:]
            elif head == "!":
                command.negated = True
                words = words[1:]
            else:  # then, elif, else, time
                words = words[1:]
        # closing words after a command: `pytest; }`/`done` handled as their own commands
        if not words:
            # `cmd || {` on its own line: the group opens at the next command
            carried_opens += command.opens_group
            continue
        command.opens_group += carried_opens
        carried_opens = 0
        command.words = words
        command.index = len(commands)
        commands.append(command)
        open_loop = innermost_loop()
        if open_loop is not None:
            (open_loop.condition if open_loop.phase == "condition" else open_loop.body).append(
                command
            )
        open_function = innermost_function()
        if open_function is not None:
            open_function.body.append(command)
        open_if = innermost_conditional()
        if open_if is not None:
            (open_if.condition if open_if.phase == "condition" else open_if.branches).append(
                command
            )
    while blocks:
        block = blocks.pop()
        if isinstance(block, Loop):
            _close_loop(block, blocks, loops)
        elif isinstance(block, Function):
            functions[block.name] = block
        elif isinstance(block, Conditional):
            conditionals.append(block)
    parsed = ShellScript(commands, loops, functions, conditionals)
    _expand_variables(parsed)
    _mark_function_calls(parsed)
    parsed.pipefail = any(_sets_pipefail(c) for c in commands)
    return parsed


# a script cannot make variable expansion cost more than this many extra words
MAX_EXPANDED_WORDS = 50_000
_VARIABLE = re.compile(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$")
_DECLARERS = frozenset({"export", "declare", "local", "readonly", "typeset"})


def _expand_variables(script: ShellScript) -> None:
    """Replace a word that is exactly `$NAME` / `${NAME}` by the words of the value a plain assignment
    earlier in the script gave NAME (`CMD="pytest -x"; $CMD || true`), placed at the word."""
    values: dict[str, list[str]] = {}  # split once, at the assignment: expansion stays linear
    budget = MAX_EXPANDED_WORDS
    for command in script.commands:
        words = command.words
        first = words[0]
        declared = words[1:] if first.value in _DECLARERS and first.raw == first.value else words
        if declared and all(_ASSIGNMENT.match(w.raw) for w in declared):
            for word in declared:
                name, _, assigned = word.value.partition("=")
                values[name] = [t.value for t in _tokens(assigned) if t.kind == "word"]
            continue
        if not values or budget <= 0:
            continue
        expanded: list[Word] = []
        changed = False
        for word in words:
            match = _VARIABLE.match(word.value)
            known = values.get(match.group(1)) if match else None
            if known is None or budget <= 0:
                expanded.append(word)
                continue
            budget -= len(known) + 1
            expanded.extend(Word(word.raw, value, word.line, word.col) for value in known)
            changed = True
        if changed and expanded:
            command.words = expanded


def _mark_function_calls(script: ShellScript) -> None:
    """Mark calls to the script's functions whose body runs a test command (in definition order, so
    a function calling an earlier one is followed); linear: calls are indexed by their first word."""
    if not script.functions:
        return
    calls: dict[str, list[Command]] = {}
    for command in script.commands:
        if command.words[0].value in script.functions:
            calls.setdefault(command.words[0].value, []).append(command)
    for name, function in script.functions.items():
        if any(c.calls_tests or is_test_command(c) for c in function.body):
            for command in calls.get(name, ()):
                command.calls_tests = True


def _sets_pipefail(command: Command) -> bool:
    values = [w.value for w in command.words]
    if not values or values[0] != "set":
        return False
    return "pipefail" in values and any(v.startswith("-") and v.endswith("o") for v in values)


def _close_loop(loop: Loop, blocks: _Blocks, loops: list[Loop]) -> None:
    loops.append(loop)
    function = blocks.function()
    if function is not None:
        function.loops.append(loop)


_Block = Loop | Function | Conditional | str  # str: "{", "case"


class _Blocks:
    """The blocks open at a point of a script, innermost last, each stored with the innermost loop
    (not past a function), function and conditional open at its depth: asking for them is one look
    at the top, so a script of N nested blocks parses in linear time."""

    def __init__(self) -> None:
        self._items: list[tuple[_Block, Loop | None, Function | None, Conditional | None]] = []

    def __bool__(self) -> bool:
        return bool(self._items)

    def __getitem__(self, index: int) -> _Block:
        return self._items[index][0]

    def append(self, block: _Block) -> None:
        loop, function, conditional = self._items[-1][1:] if self._items else (None, None, None)
        if isinstance(block, Loop):
            loop, conditional = block, None
        elif isinstance(block, Function):
            loop, function, conditional = None, block, None
        elif isinstance(block, Conditional):
            conditional = block
        self._items.append((block, loop, function, conditional))

    def pop(self) -> _Block:
        return self._items.pop()[0]

    def loop(self) -> Loop | None:
        """The innermost open loop, unless a function opened inside it."""
        return self._items[-1][1] if self._items else None

    def function(self) -> Function | None:
        return self._items[-1][2] if self._items else None

    def conditional(self) -> Conditional | None:
        """The innermost open `if`, unless a loop or function opened inside it."""
        return self._items[-1][3] if self._items else None


# --- what a command is ----------------------------------------------------------------------------

_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_PYTHON = re.compile(r"^(python[0-9.]*|py|pypy[0-9.]*)$")
_WRAPPERS_SIMPLE = frozenset(
    {"sudo", "time", "nice", "nohup", "stdbuf", "catchsegv", "command", "exec", "eval", "builtin"}
)
_RUNNERS = frozenset(
    {
        "uv",
        "poetry",
        "pipenv",
        "pdm",
        "rye",
        "pixi",
        "hatch",
        "conda",
        "mamba",
        "micromamba",
        "bundle",
    }
)
_VALUE_OPTIONS = frozenset(
    {
        "--with",
        "--python",
        "-p",
        "--extra",
        "--group",
        "--package",
        "--directory",
        "--project",
        "--env-file",
        "--index",
        "--from",
        "-n",
        "--name",
        "-e",
        "--environment",
        "--env",
        "--prefix",
        "--with-requirements",
    }
)
TEST_PROGRAMS = frozenset(
    {
        "pytest",
        "py.test",
        "tox",
        "nox",
        "nosetests",
        "nose2",
        "behave",
        "unittest",
        "trial",
        "ctest",
        "jest",
        "mocha",
        "vitest",
        "phpunit",
        "rspec",
        "gotestsum",
        "playwright",
        "cypress",
        "stestr",
        "ward",
    }
)
PYTEST_PROGRAMS = frozenset({"pytest", "py.test", "tox", "nox"})
_SUBCOMMAND_RUNNERS = frozenset(
    {
        "npm",
        "yarn",
        "pnpm",
        "bun",
        "make",
        "just",
        "task",
        "go",
        "cargo",
        "dotnet",
        "mvn",
        "gradle",
        "./gradlew",
        "gradlew",
        "deno",
        "rake",
        "invoke",
        "inv",
    }
)
_TESTY = re.compile(
    r"(^|[-_:./])(unit|integration|e2e)?[-_]?(test|tests|check|spec)([-_:.]|$)", re.IGNORECASE
)
_TEST_SCRIPT = re.compile(r"(^|[-_/])(run[-_]?)?tests?(\.sh|\.py|\.bash)?$", re.IGNORECASE)


def argv(command: Command) -> list[Word]:
    """The effective argv of a command: assignments, wrappers and `python -m` / `uv run` stripped."""
    words = command.words
    i = 0
    while i < len(words):
        value = words[i].value
        base = value.rsplit("/", 1)[-1]
        if _ASSIGNMENT.match(value) and words[i].raw.split("=", 1)[0] == value.split("=", 1)[0]:
            i += 1
        elif base in _WRAPPERS_SIMPLE:
            i += 1
        elif base == "env":
            i += 1
            while i < len(words) and (
                _ASSIGNMENT.match(words[i].value) or words[i].value.startswith("-")
            ):
                i += 1
        elif base in ("timeout", "xvfb-run"):
            i += 1
            while i < len(words) and words[i].value.startswith("-"):
                i += (
                    2
                    if words[i].value
                    in ("-s", "--server-args", "-k", "--kill-after", "-n", "--server-num")
                    else 1
                )
            if base == "timeout" and i < len(words):
                i += 1  # the duration
        elif (
            base in _RUNNERS
            and i + 2 < len(words)
            and words[i + 1].value in ("-v", "-vv", "-q", "--verbose", "--quiet")
        ):
            words = [*words[: i + 1], *words[i + 2 :]]  # `hatch -v run x`: as `hatch run x`
        elif (
            base in _RUNNERS
            and i + 1 < len(words)
            and words[i + 1].value in ("run", "exec", "test")
        ):
            if words[i + 1].value == "test":  # `hatch test` runs pytest
                return [Word(words[i].raw, "pytest", words[i].line, words[i].col), *words[i + 2 :]]
            i += 2
            while i < len(words) and words[i].value.startswith("-"):
                option = words[i].value
                i += 2 if option in _VALUE_OPTIONS else 1
            if base == "hatch" and i < len(words) and ":" in words[i].value:
                env, _, script = words[i].value.partition(":")
                if script:
                    return [
                        Word(words[i].raw, script, words[i].line, words[i].col),
                        *words[i + 1 :],
                    ]
        elif base in ("uvx", "pipx") and i + 1 < len(words):
            i += 1
            if base == "pipx" and words[i].value == "run":
                i += 1
            while i < len(words) and words[i].value.startswith("-"):
                i += 2 if words[i].value in _VALUE_OPTIONS else 1
        elif _PYTHON.match(base):
            j = i + 1
            while j < len(words) and words[j].value.startswith("-") and words[j].value != "-m":
                j += 2 if words[j].value in ("-X", "-W") else 1
            if j + 1 < len(words) and words[j].value == "-m":
                module = words[j + 1]
                if (
                    module.value == "coverage"
                    and j + 2 < len(words)
                    and words[j + 2].value == "run"
                ):
                    i = j + 3
                    continue
                return [Word(module.raw, module.value, module.line, module.col), *words[j + 2 :]]
            return list(words[i:])
        elif base == "coverage" and i + 1 < len(words) and words[i + 1].value == "run":
            i += 2
            while i < len(words) and words[i].value.startswith("-") and words[i].value != "-m":
                i += 1
            if i < len(words) and words[i].value == "-m":
                i += 1
        else:
            break
    return list(words[i:])


_INLINE_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


# options with which a runner lists, describes or collects but runs no test (`pytest --co | wc -l`)
_NO_TEST_OPTIONS = {
    "pytest": frozenset(
        {
            "--collect-only",
            "--co",
            "--version",
            "-V",
            "--help",
            "-h",
            "--fixtures",
            "--funcargs",
            "--fixtures-per-test",
            "--markers",
        }
    ),
    "tox": frozenset({"--version", "--help", "-h", "-l", "--listenvs", "-a", "--listenvs-all"}),
    "nox": frozenset({"--version", "--help", "-h", "-l", "--list", "--list-sessions"}),
}
_NO_TEST_OPTIONS["py.test"] = _NO_TEST_OPTIONS["pytest"]


def _runs_no_tests(program: str, args: list[Word]) -> bool:
    """A runner asked only to list, describe or collect: a failure of it is no test's failure."""
    options = _NO_TEST_OPTIONS.get(program)
    return options is not None and any(w.value.split("=", 1)[0] in options for w in args)


def inline_script(command: Command) -> tuple[str, bool] | None:
    """The script of `bash -c '...'` (any POSIX shell) and whether its flags turn errexit on
    (`bash -ec`, `sh -e -c`, `-o errexit`); None for any other command."""
    args = argv(command)
    if not args or args[0].value.rsplit("/", 1)[-1] not in _INLINE_SHELLS:
        return None
    errexit, i = False, 1
    while i < len(args) and args[i].value.startswith("-") and not args[i].value.startswith("--"):
        flag = args[i].value
        if flag == "-o" and i + 1 < len(args):
            errexit = errexit or args[i + 1].value == "errexit"
            i += 2
            continue
        errexit = errexit or "e" in flag[1:]
        if "c" in flag[1:]:
            return (args[i + 1].value, errexit) if i + 1 < len(args) else None
        i += 1
    return None


def is_test_command(command: Command, depth: int = 0) -> bool:
    """True when the command runs a test suite (pytest, tox, `npm test`, `make test`, `go test`, ...),
    also through `bash -c '...'` (nested strings followed to a small depth)."""
    if command.calls_tests:
        return True
    if depth == 0:
        if command.runs_tests is None:
            command.runs_tests = _runs_tests(command, 0)
        return command.runs_tests
    return _runs_tests(command, depth)


def _runs_tests(command: Command, depth: int) -> bool:
    args = argv(command)
    if not args:
        return False
    program = args[0].value.rsplit("/", 1)[-1]
    if program in _INLINE_SHELLS and depth < 3:
        values = [w.value for w in args[1:]]
        if "-c" in values and values.index("-c") + 1 < len(values):
            inline = parse_snippet(values[values.index("-c") + 1]).commands
            return any(is_test_command(c, depth + 1) for c in inline)
    if program in ("test", "[", "[["):
        return False  # the shell's condition builtin
    if program == "find":
        return find_exec(args) is not None
    if _PYTHON.match(program) and len(args) > 1 and not args[1].value.startswith("-"):
        args = args[1:]  # `python manage.py test`, `python run_tests.py`
        program = args[0].value.rsplit("/", 1)[-1]
    if _runs_no_tests(program, args[1:]):
        return False
    if program in TEST_PROGRAMS or runner_of(args[0].value, [w.value for w in args[1:4]]):
        return True
    if program in _SUBCOMMAND_RUNNERS or args[0].value in _SUBCOMMAND_RUNNERS:
        rest = [w.value for w in args[1:3] if not w.value.startswith("-")]
        if rest and rest[0] == "run" and len(rest) > 1:
            return bool(_TESTY.search(rest[1]))
        return bool(rest) and bool(_TESTY.search(rest[0]))
    if program in ("manage.py",) and len(args) > 1 and args[1].value == "test":
        return True
    if program == "setup.py" and len(args) > 1 and args[1].value == "test":
        return True
    return bool(_TEST_SCRIPT.search(args[0].value))


_FIND_ACTIONS = frozenset({"-exec", "-execdir", "-ok", "-okdir"})


def find_exec(args: list[Word]) -> tuple[Command, str] | None:
    """The test command a `find ... -exec <cmd> {} ;` (or `+`) runs, and its terminator (`;` or
    `+`); None when find runs no test command."""
    i = 1
    while i < len(args):
        if args[i].value not in _FIND_ACTIONS:
            i += 1
            continue
        j = i + 1
        while j < len(args) and args[j].value not in (";", "+"):
            j += 1
        inner = Command(args[i + 1 : j])
        if inner.words and is_test_command(inner):
            return inner, args[j].value if j < len(args) else ";"
        i = j + 1
    return None


def errexit_setting(command: Command) -> bool | None:
    """False for `set +e` (or `set +o errexit`), True for `set -e`, None for any other command."""
    args = argv(command)
    if not args or args[0].value != "set":
        return None
    state: bool | None = None
    values = [w.value for w in args[1:]]
    for i, value in enumerate(values):
        if value in ("+o", "-o") and i + 1 < len(values) and values[i + 1] == "errexit":
            state = value == "-o"
        elif len(value) > 1 and value[0] in "+-" and value[1:].isalpha() and "e" in value[1:]:
            state = value[0] == "-"
    return state


def is_pytest_command(command: Command) -> bool:
    """True when pytest options on this command line reach pytest (pytest itself, tox/nox posargs)."""
    args = argv(command)
    return bool(args) and args[0].value.rsplit("/", 1)[-1] in PYTEST_PROGRAMS


def propagates_failure(command: Command) -> bool:
    """`exit 1`, `exit $?`, bare `exit`/`return`, `false`: the command keeps a failure a failure."""
    args = argv(command)
    if not args:
        return False
    head = args[0].value
    if head in ("exit", "return"):
        return len(args) == 1 or args[1].value not in ("0",)
    return head in ("false", "/bin/false")


def is_break_like(command: Command) -> bool:
    """`break`, `exit 0`, `return 0`, or `exit`/`return` right after `&&`: leaves a loop on success."""
    args = argv(command)
    if not args:
        return False
    head = args[0].value
    if head == "break":
        return True
    if head in ("exit", "return"):
        if len(args) > 1:
            return args[1].value == "0"
        return command.op_before == "&&"
    return False


def pipeline_runs_tests(commands: list[Command], index: int) -> bool:
    """True when the pipeline ending at commands[index] (`pytest | tee log`) contains a test command."""
    i = index
    while True:
        if is_test_command(commands[i]):
            return True
        if i == 0 or commands[i].op_before != "|":
            return False
        i -= 1


def right_operand(commands: list[Command], index: int) -> list[Command]:
    """The commands run when commands[index] fails under `||`: a `{ ...; }`/`( ... )` group, or a
    pipeline/`&&` chain."""
    start = index + 1
    if start >= len(commands):
        return []
    first = commands[start]
    operand = [first]
    if first.opens_group:
        depth = first.opens_group - first.closes_group
        i = start + 1
        while depth > 0 and i < len(commands):
            operand.append(commands[i])
            depth += commands[i].opens_group - commands[i].closes_group
            i += 1
        return operand
    i = start
    while i + 1 < len(commands) and commands[i].op_after in ("|", "&&"):
        i += 1
        operand.append(commands[i])
    return operand


LAST_FAILED_FLAGS = frozenset(
    {"--lf", "--last-failed", "--ff", "--failed-first", "--sw", "--stepwise"}
)


def reruns_last_failures(command: Command) -> bool:
    """`... --lf` (pytest's last-failed options, passed through any wrapper): a re-run of failures."""
    return any(w.value.split("=", 1)[0] in LAST_FAILED_FLAGS for w in command.words[1:])


def _starts_chain(commands: list[Command], index: int) -> bool:
    """A `||` chain worth judging: its first part runs tests, or a later part re-runs the last
    failures (`hatch run cov || hatch run cov --lf`: the script name says nothing, `--lf` does)."""
    if pipeline_runs_tests(commands, index):
        return True
    end = index
    while end < len(commands) and commands[end].op_after == "||":
        part = right_operand(commands, end)
        if not part:
            return False
        if any(reruns_last_failures(c) for c in part):
            return True
        end = part[-1].index
    return False


def fallbacks(script: ShellScript) -> Iterator[tuple[Command, list[Command]]]:
    """Every `test-command || something` in the script, with the `something`: one per `||` chain (the
    first test command of the chain and everything the chain runs after it), linear in its length."""
    commands = script.commands
    index = 0
    while index < len(commands):
        command = commands[index]
        if command.op_after == "||" and _starts_chain(commands, index):
            operand: list[Command] = []
            end = index
            while end < len(commands) and commands[end].op_after == "||":
                part = right_operand(commands, end)
                if not part:
                    break
                operand.extend(part)
                end = part[-1].index
            if operand:
                yield command, operand
            index = max(end, index) + 1
            continue
        index += 1


def captured_status(script: ShellScript, operand: list[Command]) -> bool:
    """`cmd || status=$?` (or `|| failed=1`) followed later by `exit $status`: the failure is kept and
    reported at the end, so nothing is swallowed."""
    if len(operand) != 1 or len(operand[0].words) != 1:
        return False
    match = _ASSIGNMENT.match(operand[0].words[0].value)
    if match is None:
        return False
    name = match.group(0)[:-1]
    later = script.commands[operand[0].index + 1 :]
    for command in later:
        args = [w.raw.strip("'\"") for w in argv(command)]  # raw: `$status` before expansion
        if args and args[0] in ("exit", "return") and len(args) > 1:
            if args[1] in (f"${name}", f"${{{name}}}"):
                return True
    return False


def _flags_set(branches: list[Command]) -> set[str]:
    """Names the branches of an `if` only assign (`then PASSED=true; else PASSED=false`)."""
    names: set[str] = set()
    for command in branches:
        words = command.words
        if len(words) == 1 and _ASSIGNMENT.match(words[0].value):
            names.add(words[0].value.split("=", 1)[0])
        elif words and words[0].value not in ("echo", "printf", ":"):
            return set()
    return names


def _reads(command: Command, names: set[str]) -> bool:
    return any(f"${n}" in w.raw or f"${{{n}}}" in w.raw for w in command.words for n in names)


def flag_reported(script: ShellScript, conditional: Conditional, errexit: bool) -> bool:
    """`if pytest; then PASSED=true; else PASSED=false; fi` and, later, a command that fails on the
    flag: `$PASSED` run as a command, or a `[ ... ]`/`test` of it, under `set -e` (or as the last
    command), or an `if` on it whose branch fails (`exit 1`). The failure is reported after the
    steps between, so nothing is swallowed."""
    names = _flags_set(conditional.branches)
    if not names or not conditional.branches:
        return False
    start = max(c.index for c in (*conditional.condition, *conditional.branches)) + 1
    later = script.commands[start:]
    for position, command in enumerate(later):
        if not _reads(command, names):
            continue
        head = command.words[0]
        shown = head.raw.strip("\"'")
        runs_flag = any(shown in (f"${n}", f"${{{n}}}") for n in names)
        tests_flag = head.raw in ("[", "[[", "test")
        last = position == len(later) - 1
        if (runs_flag or tests_flag) and (errexit or last) and command.op_after not in ("||", "&&"):
            return True
    for other in script.conditionals:
        if other is conditional or not other.condition or other.condition[0].index < start:
            continue
        if any(_reads(c, names) for c in other.condition) and any(
            propagates_failure(c) for c in other.branches
        ):
            return True
    return False

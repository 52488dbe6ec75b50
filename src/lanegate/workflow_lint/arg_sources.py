"""Every place of a file where test-runner arguments are written, with rerun flags and plugins found.

Computed once per file and shared by the rules that report them (rerun flags, PYTEST_ADDOPTS, config
addopts, `-p` plugin loads): command lines of `run:` blocks, `env:` values, matrix values, action
inputs, tox `commands`/`setenv`, pytest ini/toml `addopts`, and pyproject strings (hatch scripts, ...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.pytest_args import ArgHit, rerun_args, split_args
from lanegate.workflow_lint.pytest_config import PYTEST_SECTIONS, PYTEST_TOML_TABLES, ValueLine
from lanegate.workflow_lint.rule import INI_KINDS, SHELL_KINDS, FileKind
from lanegate.workflow_lint.runners import (
    OPTION_VARIABLES,
    retry_options,
    runner_of,
    variable_retry_options,
)
from lanegate.workflow_lint.shell import (
    Command,
    Word,
    argv,
    is_pytest_command,
    parse_shell,
)
from lanegate.workflow_lint.yamldoc import YNode

COMMAND, ENV, ADDOPTS_ENV, MATRIX, INPUT, CONFIG_ADDOPTS = (
    "command",
    "env",
    "addopts-env",
    "matrix",
    "input",
    "config-addopts",
)
_DATA_COMMANDS = frozenset(
    {"echo", "printf", "cat", "tee", "export", "declare", "local", "readonly"}
)
_ADDOPTS = "PYTEST_ADDOPTS="


@dataclass(frozen=True, slots=True)
class PlacedHit:
    """A rerun flag or plugin load at a 1-based position, and where it was written."""

    source: str
    kind: str
    text: str
    line: int
    column: int


def _expand(words: list[Word]) -> list[Word]:
    """Words plus the arguments inside `NAME=value` and quoted multi-argument words, at the word's position."""
    out: list[Word] = []
    for word in words:
        out.append(word)
        value = word.value
        inner = value.split("=", 1)[1] if "=" in value and not value.startswith("-") else value
        if " " in inner or inner != value:
            out.extend(Word(w.raw, w.value, word.line, word.col) for w in split_args(inner))
    return out


def command_hits(command: Command) -> list[ArgHit]:
    """Rerun flags/plugins on one command line: flags on any command but plain data output, `-p` and
    pytest-only flags on pytest (and tox/nox posargs) command lines."""
    args = argv(command)
    variable_hits = [
        ArgHit("flag", word, shown)
        for word in command.words
        if word.value.split("=", 1)[0] in OPTION_VARIABLES
        for _, shown in variable_retry_options(
            word.value.split("=", 1)[0], [w.value for w in split_args(word.value.split("=", 1)[1])]
        )
    ]
    if not args or args[0].value in _DATA_COMMANDS:
        return variable_hits
    words = _expand(args[1:])
    hits = rerun_args(words, pytest_context=is_pytest_command(command))
    runner = runner_of(args[0].value, [w.value for w in args[1:]])
    if runner is not None:
        taken = {id(h.word) for h in hits}
        hits.extend(
            ArgHit("flag", words[index], shown)
            for index, shown in retry_options(runner, [w.value for w in words])
            if id(words[index]) not in taken
        )
    return hits + variable_hits


def addopts_hits(command: Command) -> list[tuple[Word, list[ArgHit]]]:
    """`PYTEST_ADDOPTS=...` written by a command (an assignment, `export`, or `echo ... >> $GITHUB_ENV`)."""
    found: list[tuple[Word, list[ArgHit]]] = []
    for word in command.words:
        at = word.value.find(_ADDOPTS)
        if at < 0:
            continue
        hits = rerun_args(split_args(word.value[at + len(_ADDOPTS) :]), pytest_context=True)
        if hits:
            found.append((word, hits))
    return found


def placed_hits(ctx: FileContext) -> list[PlacedHit]:
    """All hits of the file (cached on the context)."""
    cached = ctx.cache.get("arg_hits")
    if cached is None:
        cached = _compute(ctx)
        ctx.cache["arg_hits"] = cached
    assert isinstance(cached, list)
    return cached


def _compute(ctx: FileContext) -> list[PlacedHit]:
    if ctx.kind in SHELL_KINDS:
        return _yaml_hits(ctx)
    if ctx.kind in INI_KINDS:
        return _ini_hits(ctx)
    if ctx.kind in (FileKind.PYPROJECT, FileKind.TOOL_TOML):
        return _toml_hits(ctx)
    return []


def _in_scalar(ctx: FileContext, node: YNode, source: str, word: Word, hit: ArgHit) -> PlacedHit:
    assert ctx.yaml is not None
    line, col = ctx.yaml.position_in_scalar(node, word.line, word.col, word.raw)
    return PlacedHit(source, hit.kind, hit.text, line, col)


# text that cannot hold a rerun flag, `-p` plugin or PYTEST_ADDOPTS is never split into words
_MAYBE = re.compile(
    r"TESTOPTS|TEST_OPTS|-p|--(re|only|force|max-runs|min-passes|cumul|flaky)|PYTEST_ADDOPTS|rerunFailing|maxRetries|rerun"
)


def _scalar_words(node: YNode) -> list[Word]:
    return _expand(split_args(node.text)) if _MAYBE.search(node.text) else []


def _yaml_hits(ctx: FileContext) -> list[PlacedHit]:
    out: list[PlacedHit] = []
    for block, script in ctx.posix_scripts(_MAYBE):
        for command in script.commands:
            out.extend(
                _in_scalar(ctx, block.node, COMMAND, h.word, h) for h in command_hits(command)
            )
            for word, hits in addopts_hits(command):
                out.extend(_in_scalar(ctx, block.node, ADDOPTS_ENV, word, h) for h in hits)
    for env in ctx.env_maps():
        for name, value in env.str_items():
            if not value.is_scalar:
                continue
            if not _MAYBE.search(value.text) and name != "PYTEST_PLUGINS":
                continue
            if name == "PYTEST_ADDOPTS":
                hits = rerun_args(split_args(value.text), pytest_context=True)
                out.extend(_in_scalar(ctx, value, ADDOPTS_ENV, h.word, h) for h in hits)
            elif name in OPTION_VARIABLES:
                words = split_args(value.text)
                out.extend(
                    _in_scalar(ctx, value, ENV, words[i], ArgHit("flag", words[i], shown))
                    for i, shown in variable_retry_options(name, [w.value for w in words])
                )
            elif name == "PYTEST_PLUGINS":
                for word in split_args(value.text.replace(",", " ")):
                    hits = rerun_args(
                        [Word("-p", "-p", word.line, word.col), word], pytest_context=True
                    )
                    out.extend(_in_scalar(ctx, value, ENV, word, h) for h in hits)
            else:
                hits = rerun_args(_scalar_words(value), pytest_context="PYTEST" in name.upper())
                out.extend(_in_scalar(ctx, value, ENV, h.word, h) for h in hits)
    for _, job in ctx.jobs():
        strategy = job.get("strategy")
        matrix = strategy.get("matrix") if strategy is not None else None
        if matrix is not None:
            for value in matrix.scalars():
                hits = rerun_args(_scalar_words(value), pytest_context=True)
                out.extend(_in_scalar(ctx, value, MATRIX, h.word, h) for h in hits)
    for step in ctx.steps():
        inputs = step.node.get("with")
        if inputs is None:
            continue
        for name, value in inputs.str_items():
            if value.is_scalar and name not in ("script",):
                hits = rerun_args(_scalar_words(value), pytest_context="pytest" in name.lower())
                out.extend(_in_scalar(ctx, value, INPUT, h.word, h) for h in hits)
    for _, job in ctx.jobs():  # inputs passed to a reusable workflow
        inputs = job.get("with")
        if inputs is not None:
            for name, value in inputs.str_items():
                if value.is_scalar:
                    hits = rerun_args(_scalar_words(value), pytest_context="pytest" in name.lower())
                    out.extend(_in_scalar(ctx, value, INPUT, h.word, h) for h in hits)
    return out


def _line_words(text: str) -> list[Command]:
    return parse_shell(text).commands


def _at(source: str, hits: list[ArgHit], line: int, column: int) -> list[PlacedHit]:
    """Hits of one config value line, placed at `column` (1-based) plus each word's offset."""
    return [PlacedHit(source, h.kind, h.text, line, column + h.word.col) for h in hits]


def _command_line_hits(value: ValueLine) -> list[PlacedHit]:
    return [
        placed
        for command in _line_words(value.text)
        for placed in _at(COMMAND, command_hits(command), value.line, value.column)
    ]


def _ini_hits(ctx: FileContext) -> list[PlacedHit]:
    out: list[PlacedHit] = []
    for entry in ctx.ini():
        key = entry.key.lower()
        testenv = ctx.kind is FileKind.TOX_INI and entry.section.startswith("testenv")
        for value in entry.values:
            if entry.section in PYTEST_SECTIONS and key == "addopts":
                hits = rerun_args(_expand(split_args(value.text)), pytest_context=True)
                out.extend(_at(CONFIG_ADDOPTS, hits, value.line, value.column))
            elif testenv and key in ("commands", "commands_pre", "commands_post"):
                out.extend(_command_line_hits(value))
            elif testenv and key in ("setenv", "set_env"):
                name, eq, rest = value.text.partition("=")
                if eq and name.strip() == "PYTEST_ADDOPTS":
                    offset = value.column + len(name) + 1 + (len(rest) - len(rest.lstrip()))
                    hits = rerun_args(split_args(rest.strip()), pytest_context=True)
                    out.extend(_at(ADDOPTS_ENV, hits, value.line, offset))
    return out


def _toml_hits(ctx: FileContext) -> list[PlacedHit]:
    out: list[PlacedHit] = []
    for entry in ctx.toml_entries():
        table, _, key = entry.dotted.rpartition(".")
        if table in PYTEST_TOML_TABLES:
            if key == "addopts":
                for value in entry.strings:
                    hits = rerun_args(_expand(split_args(value.text)), pytest_context=True)
                    out.extend(_at(CONFIG_ADDOPTS, hits, value.line, value.column))
            continue
        for value in entry.strings:  # scripts of hatch, poe, pdm, tox's legacy ini, ...
            out.extend(_command_line_hits(value))
    return out

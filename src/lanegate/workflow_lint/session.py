"""One lint run over one root: reads each file once (size-capped, UTF-8), parses it once for its kind,
runs the rules that read that kind, and lints local actions and reusable workflows on demand."""

from __future__ import annotations

import io
import re
import tokenize
import tomllib
from pathlib import Path

from lanegate.model import Finding
from lanegate.workflow_lint.bounded_parse import TooDeep, parse_python_tree, parse_toml
from lanegate.workflow_lint.bounded_read import InputFileError, read_bounded
from lanegate.workflow_lint.context import MAX_SCRIPT_CHARS, FileContext, LocalTarget
from lanegate.workflow_lint.discover import kind_of
from lanegate.workflow_lint.registry import OVERSIZED, TEST_RETRY_LOOP, UNPARSEABLE, rules_for
from lanegate.workflow_lint.rule import SHELL_KINDS, YAML_KINDS, FileKind
from lanegate.workflow_lint.step_purpose import TEST_WORDS, file_purpose
from lanegate.workflow_lint.yamldoc import YamlDoc, YamlSyntaxError, YNode, parse_yaml

MAX_FILE_BYTES = 2 * 1024 * 1024
# local actions and reusable workflows calling each other: deeper than this is a finding, not a recursion
MAX_LOCAL_DEPTH = 32
_TOML_POSITION = re.compile(r"at line (\d+), column (\d+)")
# a flaky mark, a rerun plugin, or the `try` or `suppress` a hand-written retry loop needs
_PYTHON_WORDS = re.compile(r"flaky|rerun|retry|\btry\s*:|suppress", re.IGNORECASE)
# without the hand-written retry loop's rule, only a mark, a plugin or a retry library matters
_MARK_WORDS = re.compile(r"flaky|rerun|retry", re.IGNORECASE)


def _callable(ctx: FileContext) -> bool:
    """A workflow another one can call (`on: workflow_call`): its callers ask what it is for."""
    root = ctx.root
    on = root.get("on") if root is not None else None
    if on is None and root is not None:
        on = root.get("true")  # `on:` read as a YAML 1.1 boolean
    return on is not None and (
        "workflow_call" in on.text
        or on.get("workflow_call") is not None
        or any(i.text == "workflow_call" for i in on.items)
    )


class Session:
    """Lints files under `root`, each at most once; results are cached by root-relative path."""

    def __init__(self, root: Path, *, judged_tests: frozenset[str] | None = None) -> None:
        self.root = root
        self.results: dict[str, tuple[Finding, ...]] = {}
        self.evidence: dict[str, bool] = {}  # workflows, actions, scripts: do they run tests?
        # `path:line: why` of scripts that run tests in a shell lint does not analyse (pwsh, cmd)
        self.not_analysed: list[str] = []
        # file -> the local actions, reusable workflows and scripts it runs (what Lane B's callers reach)
        self.calls: dict[str, set[str]] = {}
        # reusable workflows' parsed YAML: a call is judged with the inputs it passes
        self.documents: dict[str, YNode] = {}
        # the test modules `test-retry-loop` judges (None: every one)
        self.judged_tests = judged_tests
        self._in_progress: set[str] = set()
        self._stack: list[str] = []
        self._depth = 0

    def lint(self, relative: str, kind: FileKind) -> tuple[Finding, ...]:
        """Findings of one file (cached); a file being linted higher up the call chain yields none."""
        if self._stack:
            self.calls.setdefault(self._stack[-1], set()).add(relative)
        cached = self.results.get(relative)
        if cached is not None:
            return cached
        if relative in self._in_progress:
            return ()
        if self._depth >= MAX_LOCAL_DEPTH:
            ctx = FileContext(relative, kind, "", resolver=self)
            message = (
                f"reached through more than {MAX_LOCAL_DEPTH} nested local `uses:`: not followed"
            )
            return (ctx.finding(UNPARSEABLE, None, None, message),)
        self._in_progress.add(relative)
        self._stack.append(relative)
        self._depth += 1
        try:
            findings = tuple(self._lint(relative, kind))
        finally:
            self._depth -= 1
            self._stack.pop()
            self._in_progress.discard(relative)
        self.results[relative] = findings
        return findings

    def _lint(self, relative: str, kind: FileKind) -> list[Finding]:
        path = self.root / relative
        ctx = FileContext(relative, kind, "", resolver=self)
        try:
            data = read_bounded(path, MAX_FILE_BYTES)
        except InputFileError as exc:
            return [ctx.finding(OVERSIZED if exc.oversized else UNPARSEABLE, None, None, str(exc))]
        encoding = "utf-8"
        if kind in (FileKind.PYTHON, FileKind.SETUP_PY):
            # Python source is read in the encoding its PEP 263 cookie declares (`# coding: latin-1`)
            try:
                encoding = tokenize.detect_encoding(io.BytesIO(data).readline)[0]
            except SyntaxError as exc:
                return [ctx.finding(UNPARSEABLE, None, None, f"invalid Python: {exc.msg}")]
        try:
            ctx.text = data.decode(encoding).removeprefix("\ufeff")
        except (UnicodeDecodeError, LookupError) as exc:
            start = getattr(exc, "start", 0)
            line = data[:start].count(b"\n") + 1
            named = "UTF-8" if encoding == "utf-8" else encoding
            return [ctx.finding(UNPARSEABLE, line, None, f"not {named} text (byte {start})")]
        problem = self._parse(ctx)
        if problem is not None:
            return [problem]
        findings: list[Finding] = []
        if kind is FileKind.WORKFLOW and ctx.yaml is not None and ctx.yaml.root is not None:
            if "workflow_call" in ctx.text:
                self.documents[relative] = ctx.yaml.root
        skipped = TEST_RETRY_LOOP if not self._judged(relative, kind) else None
        for rule in rules_for(kind):
            if rule is not skipped:
                findings.extend(rule.check(ctx))
        if kind in SHELL_KINDS:
            if kind is not FileKind.WORKFLOW or _callable(ctx):
                self.evidence[relative] = file_purpose(ctx)  # asked for by its callers only
            self.not_analysed.extend(
                f"{relative}:{block.node.line}: a {block.shell} script runs tests: not analysed"
                for block in ctx.run_blocks()
                if not block.is_posix and not block.is_python and TEST_WORDS.search(block.node.text)
            )
        findings.extend(
            ctx.at_node(
                OVERSIZED,
                block.node,
                f"a script of {len(block.node.text)} characters, over the {MAX_SCRIPT_CHARS}-character cap: not analysed",
            )
            for block in {id(b): b for b in ctx.oversized_blocks}.values()
        )
        return findings

    def _judged(self, relative: str, kind: FileKind) -> bool:
        """Whether `test-retry-loop` reads this file: every test module, or the ones asked for."""
        return (
            kind is not FileKind.PYTHON
            or self.judged_tests is None
            or relative in self.judged_tests
        )

    def _parse(self, ctx: FileContext) -> Finding | None:
        """Parse once for the file's kind; a file that does not parse is a finding (fail closed)."""
        if ctx.kind in YAML_KINDS or ctx.kind is FileKind.CONDA_ENV:
            try:
                ctx.yaml = parse_yaml(ctx.text)
            except YamlSyntaxError as exc:
                return ctx.finding(UNPARSEABLE, exc.line, exc.column, f"invalid YAML: {exc}")
            root = ctx.yaml.root
            if root is None and ctx.kind is FileKind.WORKFLOW:
                return ctx.finding(
                    UNPARSEABLE, None, None, "empty workflow (no jobs): nothing GitHub can run"
                )
            if root is not None and not root.is_map:
                return ctx.finding(
                    UNPARSEABLE,
                    root.line,
                    root.column,
                    f"top level of a {ctx.kind} must be a mapping",
                )
        elif ctx.kind is FileKind.SCRIPT:
            ctx.yaml = YamlDoc(None, tuple(ctx.lines))
        elif ctx.kind in (FileKind.PYPROJECT, FileKind.TOOL_TOML):
            try:
                ctx.toml = parse_toml(ctx.text)
            except TooDeep as exc:
                return ctx.finding(UNPARSEABLE, None, None, f"invalid TOML: {exc}")
            except tomllib.TOMLDecodeError as exc:
                match = _TOML_POSITION.search(str(exc))
                line, column = (int(match.group(1)), int(match.group(2))) if match else (None, None)
                return ctx.finding(
                    UNPARSEABLE, line, column, f"invalid TOML: {str(exc).split(' (at')[0]}"
                )
        elif ctx.kind in (FileKind.PYTHON, FileKind.SETUP_PY):
            words = _PYTHON_WORDS if self._judged(ctx.path, ctx.kind) else _MARK_WORDS
            # a conftest decides what pytest collects (discovery reads its `collect_ignore`):
            # always parsed, so one lanegate cannot read is a finding, not a silent default
            if not words.search(ctx.text) and ctx.path.rsplit("/", 1)[-1] != "conftest.py":
                return None  # no flaky mark, rerun plugin or retry loop without these words
            try:
                ctx.tree = parse_python_tree(ctx.text, filename=ctx.path)
                ctx.module = ctx.tree.module
            except SyntaxError as exc:
                return ctx.finding(
                    UNPARSEABLE, exc.lineno, exc.offset, f"invalid Python: {exc.msg}"
                )
            except TooDeep as exc:
                return ctx.finding(UNPARSEABLE, None, None, f"invalid Python: {exc}")
            except ValueError as exc:  # a NUL byte
                return ctx.finding(UNPARSEABLE, None, None, f"invalid Python: {exc}"[:200])
        return None

    # --- LocalResolver ---------------------------------------------------------------------------
    def resolve(self, uses: str, *, workflow: bool) -> LocalTarget | None:
        """Lint the local action directory or reusable workflow file `uses` names (inside the root)."""
        reference = uses.split("@", 1)[0].strip().removeprefix("./").rstrip("/")
        try:
            target = (self.root / reference).resolve()
            target.relative_to(self.root.resolve())
        except (OSError, ValueError):
            return None
        if workflow:
            candidates = [target]
        else:
            candidates = [target / "action.yml", target / "action.yaml"]
        for candidate in candidates:
            try:
                present = candidate.exists()
            except (
                OSError
            ):  # a name the filesystem refuses (too long): not a file of the repository
                present = False
            if present:
                relative = candidate.relative_to(self.root.resolve()).as_posix()
                kind = FileKind.WORKFLOW if workflow else FileKind.ACTION
                if workflow and kind_of(relative) is not FileKind.WORKFLOW:
                    kind = FileKind.WORKFLOW
                findings = self.lint(relative, kind)
                return LocalTarget(
                    relative,
                    findings,
                    self.evidence.get(relative, True),
                    self.documents.get(relative),
                )
        return None

    def script(self, path: str) -> LocalTarget | None:
        """Lint the repository script at root-relative `path`; None when it is not in the root."""
        try:
            root = self.root.resolve()
            target = (self.root / path).resolve()
            relative = target.relative_to(root).as_posix()
            # a name read from a script's text may be one the filesystem refuses (too long): no file
            if not (self.root / path).exists() or (self.root / path).is_dir():
                return None
            if any((parent / "pyvenv.cfg").is_file() for parent in target.parents):
                return (
                    None  # `. .venv/bin/activate`: a virtualenv's own script, not the repository's
                )
        except (OSError, ValueError):
            return None
        findings = self.lint(relative, FileKind.SCRIPT)
        return LocalTarget(relative, findings, self.evidence.get(relative, True))

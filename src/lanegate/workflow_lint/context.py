"""What a rule sees of one file: its text, parsed YAML, steps and `run:` blocks, parsed once and cached."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from lanegate.model import Finding, Location, Severity
from lanegate.workflow_lint.actions import is_script_action
from lanegate.workflow_lint.call_inputs import input_sets, never_forgives
from lanegate.workflow_lint.pytest_config import IniEntry, TomlEntry, ini_entries, toml_entries
from lanegate.workflow_lint.pytree import PyTree
from lanegate.workflow_lint.rule import FileKind, Rule
from lanegate.workflow_lint.shell import Command, ShellScript, parse_shell
from lanegate.workflow_lint.yamldoc import FILE_STYLE, SCALAR, YamlDoc, YNode


@dataclass(frozen=True, slots=True)
class LocalTarget:
    """A local action or reusable workflow a `uses: ./...` points at, and what was found in it."""

    path: str
    findings: tuple[Finding, ...]
    evidence: bool = True  # it runs tests (or lanegate cannot tell)
    document: YNode | None = None  # a reusable workflow's parsed YAML


class LocalResolver(Protocol):
    """Lints the file a local `uses:` or a script call names (once, cycle-safe) and hands back its
    findings."""

    def resolve(self, uses: str, *, workflow: bool) -> LocalTarget | None: ...

    def script(self, path: str) -> LocalTarget | None: ...


@dataclass(slots=True)
class Step:
    """One step of a job (workflow) or of `runs.steps` (composite action)."""

    node: YNode
    job_id: str | None
    job: YNode | None
    index: int

    @property
    def label(self) -> str:
        """How a reader finds the step: `step 'Run tests'`, else its `uses`, else its `run`'s first
        line (never a position: "step 6" means nothing in a workflow of named steps)."""
        for key, shown in (
            ("name", "step {!r}"),
            ("uses", "step `uses: {}`"),
            ("run", "step `{}`"),
        ):
            value = self.node.get(key)
            if value is not None and value.is_scalar and value.text.strip():
                first = value.text.strip().splitlines()[0].strip()
                if len(first) > 60:
                    first = first[:59] + "…"
                return shown.format(first)
        return f"step {self.index + 1}"


def working_directory(root: YNode | None, step: Step) -> str | None:
    """The folder a step's `run:` starts in, relative to the workspace: the step's
    `working-directory`, else its job's then its workflow's `defaults.run.working-directory`, else
    ""; None when it is an expression lanegate cannot evaluate."""
    candidates = [step.node.get("working-directory")]
    for holder in (step.job, root):
        defaults = holder.get("defaults") if holder is not None and holder.is_map else None
        run = defaults.get("run") if defaults is not None and defaults.is_map else None
        candidates.append(run.get("working-directory") if run is not None and run.is_map else None)
    for node in candidates:
        if node is not None and node.is_scalar:
            text = node.text.strip()
            return None if "${{" in text else text.removeprefix("./").rstrip("/")
    return ""


# a `run:` block or script longer than this is a finding, not analysed: every shell rule stays fast
MAX_SCRIPT_CHARS = 256 * 1024
# inputs through which actions run a shell command of the caller's (names compared with `_` as
# `-`): these, and any `<what>-command(s)` or `<what>-cmd` (`test_command`, `pre-command`)
_SHELL_INPUTS = frozenset({"run", "command", "commands", "cmd", "script"})
_SHELL_INPUT_SUFFIXES = ("-command", "-commands", "-cmd")


def _shell_input(name: str) -> bool:
    normal = name.lower().replace("_", "-")
    return normal in _SHELL_INPUTS or normal.endswith(_SHELL_INPUT_SUFFIXES)


_POSIX_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh"})


@dataclass(slots=True)
class RunBlock:
    """A `run:` script and the shell it runs in (`bash`, `sh`, `python`, `pwsh`, ...)."""

    step: Step
    node: YNode
    shell: str

    is_python: bool = False
    is_posix: bool = True
    explicit_shell: bool = True  # False: GitHub's default `bash -e {0}` (no pipefail)
    from_input: bool = False  # a shell command given to an action as an input (`command:`)

    @property
    def pipefail(self) -> bool:
        """True when the shell itself fails a pipeline on any failing part (GitHub's `shell: bash` is
        `bash --noprofile --norc -eo pipefail {0}`; the default, `sh` and custom shells are not)."""
        shell = self.shell.strip()
        return (self.explicit_shell and shell == "bash") or "pipefail" in shell

    def __post_init__(self) -> None:
        program = self.shell.split()[0].rsplit("/", 1)[-1] if self.shell.strip() else "bash"
        self.is_python = program.startswith("python")
        self.is_posix = program in _POSIX_SHELLS


@dataclass(slots=True)
class FileContext:
    """One scanned file and the views rules share (computed on first use, never reparsed)."""

    path: str
    kind: FileKind
    text: str
    yaml: YamlDoc | None = None
    resolver: LocalResolver | None = None
    _steps: list[Step] | None = None
    _runs: list[RunBlock] | None = None
    _shell: dict[int, ShellScript] = field(default_factory=dict)
    _lines: list[str] | None = None
    cache: dict[str, object] = field(default_factory=dict)
    oversized_blocks: list[RunBlock] = field(default_factory=list)
    toml: dict[str, object] | None = None
    module: object | None = None
    tree: PyTree | None = None  # the module walked once, for the rules that read Python

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.text.splitlines()
        return self._lines

    @property
    def root(self) -> YNode | None:
        return (
            self.yaml.root
            if self.yaml is not None and self.yaml.root is not None and self.yaml.root.is_map
            else None
        )

    # --- findings ------------------------------------------------------------------------------
    def finding(
        self,
        rule: Rule,
        line: int | None,
        column: int | None,
        message: str,
        *,
        route: tuple[str | int, ...] = (),
        fix: str = "",
    ) -> Finding:
        """A finding of `rule` at 1-based line/column of this file."""
        return Finding(
            rule_id=rule.id,
            message=message,
            severity=Severity.ERROR,
            primary=Location(self.path, line, column, route),
            fix=fix or rule.fix,
        )

    def at_node(
        self, rule: Rule, node: YNode, message: str, *, route: tuple[str | int, ...] = ()
    ) -> Finding:
        return self.finding(rule, node.line, node.column, message, route=route)

    def local_target_retries(
        self,
        rule: Rule,
        uses: YNode | None,
        *,
        workflow: bool,
        kind: str,
        caller: YNode | None = None,
    ) -> Finding | None:
        """A finding at `uses: ./...` when the local action or reusable workflow it names has its
        own findings (it retries or forgives a failure); None when it is clean or not local. With
        the calling job, a called workflow's `continue-on-error` that is false for every input value
        this call passes does not count."""
        if self.resolver is None or uses is None or not uses.is_scalar:
            return None
        ref = uses.text.strip()
        if not ref.startswith("./"):
            return None
        target = self.resolver.resolve(ref, workflow=workflow)
        if target is None or not target.findings:
            return None
        findings = target.findings
        if caller is not None and target.document is not None:
            document = target.document
            calls = input_sets(caller, document)
            if calls is not None:
                findings = tuple(
                    f
                    for f in findings
                    if f.primary.path != target.path or not never_forgives(f, document, calls)
                )
        if not findings:
            return None
        rules = ", ".join(sorted({f.rule_id for f in findings}))
        first = findings[0].primary.render()
        return self.at_node(
            rule, uses, f"{kind} {ref} retries or forgives a failure ({rules}; first at {first})"
        )

    def at_command(self, rule: Rule, block: RunBlock, command: Command, message: str) -> Finding:
        """A finding at the first word of a shell command inside a `run:` block."""
        return self.in_scalar(
            rule, block.node, command.line, command.col, command.words[0].raw, message
        )

    def in_scalar(
        self, rule: Rule, node: YNode, line_index: int, column: int, token: str, message: str
    ) -> Finding:
        """A finding at a position inside a scalar's value (e.g. one line of a `run:` block)."""
        assert self.yaml is not None
        line, col = self.yaml.position_in_scalar(node, line_index, column, token)
        return self.finding(rule, line, col, message)

    # --- config views ------------------------------------------------------------------------
    def ini(self) -> list[IniEntry]:
        cached = self.cache.get("ini")
        if cached is None:
            cached = ini_entries(self.lines)
            self.cache["ini"] = cached
        assert isinstance(cached, list)
        return cached

    def toml_entries(self) -> list[TomlEntry]:
        cached = self.cache.get("toml_entries")
        if cached is None:
            cached = toml_entries(self.lines)
            self.cache["toml_entries"] = cached
        assert isinstance(cached, list)
        return cached

    # --- workflow and action views ---------------------------------------------------------------
    def jobs(self) -> Iterator[tuple[str, YNode]]:
        root = self.root
        jobs = root.get("jobs") if root is not None and self.kind is FileKind.WORKFLOW else None
        if jobs is not None:
            for job_id, job in jobs.str_items():
                if job.is_map:
                    yield job_id, job

    def steps(self) -> list[Step]:
        if self._steps is None:
            steps: list[Step] = []
            root = self.root
            if root is not None and self.kind is FileKind.WORKFLOW:
                for job_id, job in self.jobs():
                    seq = job.get("steps")
                    if seq is not None and seq.is_seq:
                        steps.extend(
                            Step(s, job_id, job, i) for i, s in enumerate(seq.items) if s.is_map
                        )
            elif root is not None and self.kind is FileKind.ACTION:
                runs = root.get("runs")
                seq = runs.get("steps") if runs is not None else None
                if seq is not None and seq.is_seq:
                    steps.extend(
                        Step(s, None, None, i) for i, s in enumerate(seq.items) if s.is_map
                    )
            self._steps = steps
        return self._steps

    def run_blocks(self) -> list[RunBlock]:
        if self._runs is None and self.kind is FileKind.SCRIPT:
            # a repository script is one run block spanning the whole file
            whole = YNode(SCALAR, 1, 1, len(self.lines))
            whole.text, whole.style = self.text, FILE_STYLE
            shell = "python" if self.path.endswith(".py") else "bash"
            self._runs = [RunBlock(Step(whole, None, None, 0), whole, shell, explicit_shell=False)]
        if self._runs is None:
            runs: list[RunBlock] = []
            default = _default_shell(self.root)
            for step in self.steps():
                node = step.node.get("run")
                if node is None or not node.is_scalar:
                    continue
                shell_node = step.node.get("shell")
                shell = shell_node.text if shell_node is not None and shell_node.is_scalar else ""
                if not shell and step.job is not None:
                    shell = _default_shell(step.job)
                chosen = shell or default
                runs.append(RunBlock(step, node, chosen or "bash", explicit_shell=bool(chosen)))
            runs.extend(self._input_blocks())
            self._runs = runs
        return self._runs

    def _input_blocks(self) -> list[RunBlock]:
        """Shell commands given to actions as inputs (`command:`, `run:`, ...; never a JavaScript
        `script:` of actions/github-script), analysed like `run:` blocks. The action's shell is not
        known: pipefail is assumed, so only constructs written in the command itself are findings."""
        blocks: list[RunBlock] = []
        for step in self.steps():
            inputs = step.node.get("with")
            if inputs is None or not inputs.is_map:
                continue
            shell_inputs = [
                value
                for name, value in inputs.str_items()
                if _shell_input(name) and value.is_scalar
            ]
            uses = step.node.get("uses")
            if not shell_inputs or uses is None or is_script_action(uses.text):
                continue
            blocks.extend(RunBlock(step, value, "bash", from_input=True) for value in shell_inputs)
        return blocks

    def run_block_of(self, step: Step) -> RunBlock | None:
        """The `run:` block of a step, if it has one (indexed once per file)."""
        index = self.cache.get("run_block_of")
        if not isinstance(index, dict):
            index = {id(b.step.node): b for b in self.run_blocks() if not b.from_input}
            self.cache["run_block_of"] = index
        found = index.get(id(step.node))
        return found if isinstance(found, RunBlock) else None

    def steps_of(self, job_id: str) -> list[Step]:
        """The steps of one job, in order (grouped once per file)."""
        groups = self.cache.get("steps_of")
        if not isinstance(groups, dict):
            grouped: dict[str | None, list[Step]] = {}
            for step in self.steps():
                grouped.setdefault(step.job_id, []).append(step)
            self.cache["steps_of"] = groups = grouped
        found = groups.get(job_id, [])
        return found if isinstance(found, list) else []

    def shell(self, block: RunBlock) -> ShellScript:
        """The parsed shell script of a `run:` block (parsed once per file); a block over
        MAX_SCRIPT_CHARS is not parsed and is listed in `oversized_blocks` (the session reports it)."""
        key = id(block.node)
        script = self._shell.get(key)
        if script is None:
            text = block.node.text
            if len(text) > MAX_SCRIPT_CHARS:
                self.oversized_blocks.append(block)
                text = ""
            script = parse_shell(text)
            self._shell[key] = script
        return script

    def posix_scripts(
        self, gate: re.Pattern[str] | None = None
    ) -> Iterator[tuple[RunBlock, ShellScript]]:
        """Every POSIX-shell `run:` block with its parsed script; with a `gate`, only blocks whose text
        matches it (a cheap test that spares parsing blocks a rule cannot flag)."""
        for block in self.run_blocks():
            if block.is_posix and (gate is None or gate.search(block.node.text)):
                yield block, self.shell(block)

    def shell_of_text(self, node: YNode) -> ShellScript:
        key = id(node)
        script = self._shell.get(key)
        if script is None:
            script = parse_shell(node.text)
            self._shell[key] = script
        return script

    def env_maps(self) -> Iterator[YNode]:
        """Every `env:` mapping: workflow, job and step level (and `with.env` of actions)."""
        root = self.root
        if root is None:
            return
        top = root.get("env")
        if top is not None and top.is_map:
            yield top
        for _, job in self.jobs():
            env = job.get("env")
            if env is not None and env.is_map:
                yield env
        for step in self.steps():
            env = step.node.get("env")
            if env is not None and env.is_map:
                yield env


def _default_shell(node: YNode | None) -> str:
    if node is None:
        return ""
    defaults = node.get("defaults")
    run = defaults.get("run") if defaults is not None else None
    shell = run.get("shell") if run is not None else None
    return shell.text if shell is not None and shell.is_scalar else ""

"""The oracle check (SPEC 3.3): every new or changed test must call a property oracle on its own inputs.

Pure AST analysis, nothing is imported or run. A test passes when, in reachable code, it calls a function
of `lanegate.oracles` or of the configured oracle module (however imported or aliased, or through a helper
of the same file that does) with at least one argument that flows from the test's parameters (Hypothesis
`@given` arguments and pytest fixtures) through simple assignments. A test is rejected, with a line and
a reason, when it imports an oracle but never calls it, calls one only on constants or only in dead code,
or asserts something that restates the implementation (`assert f(x) == f(x)`, an expected value computed
by the function under test itself).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import PurePosixPath

from lanegate import oracles as _oracles
from lanegate.lanes.collection import locate, touched_by
from lanegate.pysource import parse as parse_python

BUILTIN_ORACLE_MODULE = "lanegate.oracles"
BUILTIN_ORACLES = frozenset(_oracles.__all__)

REASON_NO_ORACLE = "calls no oracle ({modules})"
REASON_IMPORT_ONLY = "imports an oracle but never calls it"
REASON_CONSTANTS = "calls an oracle only on constants, not on the test's inputs"
REASON_DEAD = "calls an oracle only in dead code (line {line})"
REASON_SELF_COMPARE = "asserts an expression equals itself (line {line})"
REASON_RESTATES = (
    "computes the expected value with the very call it checks, {name}() on the same arguments "
    "(line {line}): compute it another way (an oracle, an independent reference, or a relation "
    "between calls on different arguments)"
)
REASON_SAME_REFERENCE = "compares {name} with itself as its own reference (line {line})"
REASON_NO_TESTS = "pytest collects no test from this new test file"
REASON_SYNTAX = "cannot parse: {error}"

# Calls that neither compute the code under test nor make a value depend on it.
_NEUTRAL_CALLS = frozenset(
    {
        "len",
        "list",
        "tuple",
        "set",
        "frozenset",
        "dict",
        "sorted",
        "str",
        "int",
        "float",
        "bool",
        "repr",
        "bytes",
        "type",
        "isinstance",
        "abs",
        "min",
        "max",
        "sum",
        "any",
        "all",
        "range",
        "enumerate",
        "zip",
    }
)


@dataclass(frozen=True, slots=True)
class OracleModule:
    """Where oracles live: dotted module names that mean it, and its public function names if known."""

    label: str
    dotted: frozenset[str]
    functions: frozenset[str] | None

    @classmethod
    def from_policy(cls, module: str, source: str | None) -> OracleModule:
        """Build from `properties.module` (a path like tests/oracles.py or a dotted name)."""
        names: set[str] = set()
        if module.endswith(".py") or "/" in module:
            parts = PurePosixPath(module.strip("/")).with_suffix("").parts
        else:
            parts = tuple(module.split("."))
        # `tests/oracles.py` is imported as tests.oracles, or as oracles when tests/ is on sys.path.
        for i in range(len(parts)):
            names.add(".".join(parts[i:]))
        functions: frozenset[str] | None = None
        if source is not None:
            try:
                tree = parse_python(source)
            except SyntaxError:
                tree = None
            if tree is not None:
                functions = frozenset(
                    node.name
                    for node in tree.body
                    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                    and not node.name.startswith("_")
                )
        return cls(module, frozenset(names), functions)


@dataclass(frozen=True, slots=True)
class Rejection:
    """One rejected test (or file): where, which test, why."""

    path: str
    line: int
    test: str
    reason: str


@dataclass(frozen=True, slots=True)
class FileVerdict:
    """The oracle check of one test file: tests checked, those that passed, and the rejections."""

    path: str
    checked: tuple[str, ...]
    passed: frozenset[str]
    rejections: tuple[Rejection, ...]
    # for each passed test: the line spans of the oracle calls that made it pass (its own, and those
    # of the same-file helpers it calls), which the lane expects to see reached at run time
    sites: dict[str, tuple[tuple[int, int], ...]] = field(default_factory=dict)


@dataclass(slots=True)
class _Imports:
    """Local names bound by imports, mapped to the dotted name they stand for."""

    aliases: dict[str, str] = field(default_factory=dict)
    star_oracles: set[str] = field(default_factory=set)
    imports_oracle: bool = False


def _is_oracle_module(name: str, custom: OracleModule) -> bool:
    return name == BUILTIN_ORACLE_MODULE or name in custom.dotted


def _collect_imports(tree: ast.Module, custom: OracleModule) -> _Imports:
    out = _Imports()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    out.aliases[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    out.aliases[head] = head
                if _is_oracle_module(alias.name, custom):
                    out.imports_oracle = True
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}" if base else alias.name
                if alias.name == "*":
                    if _is_oracle_module(base, custom):
                        out.imports_oracle = True
                        known = (
                            BUILTIN_ORACLES
                            if base == BUILTIN_ORACLE_MODULE
                            else (custom.functions or frozenset())
                        )
                        out.star_oracles.update(f"{base}.{n}" for n in known)
                    continue
                out.aliases[alias.asname or alias.name] = full
                if _is_oracle_module(base, custom) or _is_oracle_module(full, custom):
                    out.imports_oracle = True
    return out


def _dotted(expr: ast.expr, imports: _Imports) -> str | None:
    """The dotted name a call target stands for, through import aliases (None when not a name)."""
    attrs: list[str] = []
    while isinstance(expr, ast.Attribute):
        attrs.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name):
        return None
    head = imports.aliases.get(expr.id, expr.id)
    if not attrs:
        for star in imports.star_oracles:
            if star.rsplit(".", 1)[1] == expr.id and expr.id not in imports.aliases:
                return star
    return ".".join([head, *reversed(attrs)])


def _oracle_function(dotted: str | None, custom: OracleModule) -> str | None:
    """`lanegate.oracles.round_trip` -> `round_trip` when the name is an oracle call target."""
    if dotted is None or "." not in dotted:
        return None
    module, name = dotted.rsplit(".", 1)
    if name.startswith("_"):
        return None
    if module == BUILTIN_ORACLE_MODULE:
        return name if name in BUILTIN_ORACLES else None
    if module in custom.dotted:
        return name if custom.functions is None or name in custom.functions else None
    return None


def _constant_truth(test: ast.expr) -> bool | None:
    """The truth of a condition that is a literal constant (`if False:`, `while 0:`), else None."""
    if isinstance(test, ast.Constant):
        return bool(test.value)
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _constant_truth(test.operand)
        return None if inner is None else not inner
    return None


_TERMINAL = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def _split_reachable(
    body: Iterable[ast.stmt], live: list[ast.stmt], dead: list[ast.stmt], reachable: bool = True
) -> None:
    """Sort statements into reachable and dead (after return/raise, under a constant-false branch)."""
    for stmt in body:
        if not reachable:
            dead.append(stmt)
            continue
        if isinstance(stmt, ast.If | ast.While):
            truth = _constant_truth(stmt.test)
            live.append(stmt)
            _split_reachable(stmt.body, live, dead, truth is not False)
            _split_reachable(
                stmt.orelse, live, dead, truth is not True or isinstance(stmt, ast.While)
            )
            continue
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.With | ast.AsyncWith):
            live.append(stmt)
            _split_reachable(stmt.body, live, dead)
            _split_reachable(getattr(stmt, "orelse", []), live, dead)
            continue
        if isinstance(stmt, ast.Try):
            live.append(stmt)
            for block in (stmt.body, stmt.orelse, stmt.finalbody):
                _split_reachable(block, live, dead)
            for handler in stmt.handlers:
                _split_reachable(handler.body, live, dead)
            continue
        live.append(stmt)
        if isinstance(stmt, _TERMINAL):
            reachable = False


def _own_nodes(stmt: ast.stmt) -> Iterator[ast.AST]:
    """Nodes of one statement, not descending into nested statements, functions, classes or lambdas."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.stmt | ast.FunctionDef | ast.ClassDef | ast.Lambda):
                continue
            stack.append(child)


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _target_names(target: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _inputs(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = func.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
    names = {a.arg for a in params} - {"self", "cls"}
    if args.vararg:
        names.add(args.vararg.arg)
    if args.kwarg:
        names.add(args.kwarg.arg)
    return names


def _tainted(statements: list[ast.stmt], inputs: set[str]) -> set[str]:
    """Names whose value flows from the inputs through assignments, loops and `with ... as` (fixpoint)."""
    tainted = set(inputs)
    changed = True
    while changed:
        changed = False
        for stmt in statements:
            pairs: list[tuple[ast.AST, ast.AST]] = []
            if isinstance(stmt, ast.Assign):
                pairs = [(t, stmt.value) for t in stmt.targets]
            elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and stmt.value is not None:
                pairs = [(stmt.target, stmt.value)]
            elif isinstance(stmt, ast.For | ast.AsyncFor):
                pairs = [(stmt.target, stmt.iter)]
            elif isinstance(stmt, ast.With | ast.AsyncWith):
                pairs = [(i.optional_vars, i.context_expr) for i in stmt.items if i.optional_vars]
            for node in _own_nodes(stmt):
                if isinstance(node, ast.NamedExpr):
                    pairs.append((node.target, node.value))
            for target, value in pairs:
                if _names(value) & tainted:
                    new = _target_names(target) - tainted
                    if new:
                        tainted |= new
                        changed = True
    return tainted


def _call_args(call: ast.Call) -> list[ast.expr]:
    return [*call.args, *(k.value for k in call.keywords)]


@dataclass(slots=True)
class _Scan:
    live_flowing: list[ast.Call] = field(default_factory=list)
    live_constant: list[ast.Call] = field(default_factory=list)
    dead: list[ast.Call] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


class _Checker:
    """Checks the test functions of one parsed file."""

    def __init__(self, tree: ast.Module, custom: OracleModule) -> None:
        self.tree = tree
        self.custom = custom
        self.imports = _collect_imports(tree, custom)
        self.helpers = self._oracle_helpers()

    def _is_oracle_call(self, call: ast.Call) -> bool:
        dotted = _dotted(call.func, self.imports)
        if _oracle_function(dotted, self.custom) is not None:
            return True
        return isinstance(call.func, ast.Name) and call.func.id in self.helpers

    def _oracle_helpers(self) -> set[str]:
        """Module-level non-test functions that call an oracle on their own parameters."""
        helpers: set[str] = set()
        candidates = [
            n
            for n in self.tree.body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            and not n.name.startswith("test")
        ]
        changed = True
        self.helpers = helpers
        while changed:
            changed = False
            for func in candidates:
                if func.name in helpers:
                    continue
                if self._scan(func).live_flowing:
                    helpers.add(func.name)
                    changed = True
        return helpers

    def _scan(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> _Scan:
        live: list[ast.stmt] = []
        dead: list[ast.stmt] = []
        _split_reachable(func.body, live, dead)
        tainted = _tainted(live, _inputs(func))
        scan = _Scan()
        assigned_calls = self._assigned_calls(live)
        for stmt in live:
            for node in _own_nodes(stmt):
                if isinstance(node, ast.Call) and self._is_oracle_call(node):
                    args = _call_args(node)
                    if any(_names(a) & tainted for a in args):
                        scan.live_flowing.append(node)
                    else:
                        scan.live_constant.append(node)
                    problem = self._same_reference(node)
                    if problem:
                        scan.problems.append(problem)
            if isinstance(stmt, ast.Assert):
                problem = self._restating_assert(stmt, assigned_calls)
                if problem:
                    scan.problems.append(problem)
        for stmt in dead:
            for node in ast.walk(stmt):
                if isinstance(node, ast.Call) and self._is_oracle_call(node):
                    scan.dead.append(node)
        return scan

    def _same_reference(self, call: ast.Call) -> str | None:
        name = _oracle_function(_dotted(call.func, self.imports), self.custom)
        if name == "equivalent" and len(call.args) >= 2:
            if ast.dump(call.args[0]) == ast.dump(call.args[1]):
                return REASON_SAME_REFERENCE.format(
                    name=ast.unparse(call.args[0]), line=call.lineno
                )
        return None

    def _assigned_calls(self, live: list[ast.stmt]) -> dict[str, ast.Call]:
        """name -> the call of `name = callee(...)` (the expected-value-from-the-implementation
        smell, when the assertion makes the same call)."""
        out: dict[str, ast.Call] = {}
        for stmt in live:
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and isinstance(stmt.value, ast.Call)
                and _dotted(stmt.value.func, self.imports) is not None
            ):
                out[stmt.targets[0].id] = stmt.value
        return out

    def _calls(self, expr: ast.expr, assigned: dict[str, ast.Call]) -> set[tuple[str, str]]:
        """The non-neutral calls whose result this side of a comparison is (one level of names),
        each as (callee, its arguments' syntax): `f(x)` and `f(x, limit=n)` are different calls."""
        if isinstance(expr, ast.Name) and expr.id in assigned:
            expr = assigned[expr.id]
        found: set[tuple[str, str]] = set()
        if isinstance(expr, ast.Call):
            callee = _dotted(expr.func, self.imports)
            if callee is not None and callee not in _NEUTRAL_CALLS:
                arguments = [ast.dump(a) for a in expr.args] + [ast.dump(k) for k in expr.keywords]
                found.add((callee, "\0".join(arguments)))
            elif callee in _NEUTRAL_CALLS:
                for arg in expr.args:
                    found |= self._calls(arg, assigned)
        elif isinstance(expr, ast.Attribute | ast.Subscript):
            found |= self._calls(expr.value, assigned)
        return found

    def _restating_assert(self, stmt: ast.Assert, assigned: dict[str, ast.Call]) -> str | None:
        """An assertion whose two sides are the same call (the same function on the same
        arguments): it checks the code against itself. The same function on different arguments is
        a relation between calls (a metamorphic property), which is a check."""
        test = stmt.test
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return None
        if not isinstance(test.ops[0], ast.Eq | ast.NotEq | ast.Is | ast.IsNot | ast.LtE | ast.GtE):
            return None
        left, right = test.left, test.comparators[0]
        if ast.dump(left) == ast.dump(right):
            return REASON_SELF_COMPARE.format(line=stmt.lineno)
        shared = self._calls(left, assigned) & self._calls(right, assigned)
        names = sorted(c for c, _ in shared if _oracle_function(c, self.custom) is None)
        if names:
            return REASON_RESTATES.format(name=names[0], line=stmt.lineno)
        return None

    def _helper_problems(
        self, func: ast.FunctionDef | ast.AsyncFunctionDef, seen: frozenset[str]
    ) -> list[str]:
        """The problems of the same-file helper functions `func` calls in live code (followed
        into their own helpers): a check moved into a helper is judged as it is inline."""
        by_name = {
            n.name: n
            for n in self.tree.body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name not in seen
        }
        live: list[ast.stmt] = []
        _split_reachable(func.body, live, [])
        for stmt in live:
            for node in _own_nodes(stmt):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                    continue
                helper = by_name.get(node.func.id)
                if helper is None:
                    continue
                problems = self._scan(helper).problems or self._helper_problems(
                    helper, seen | {helper.name}
                )
                if problems:
                    return problems
        return []

    def sites(
        self, func: ast.FunctionDef | ast.AsyncFunctionDef, seen: frozenset[str] = frozenset()
    ) -> tuple[tuple[int, int], ...]:
        """The spans of the oracle calls with flowing arguments in `func`, following same-file
        helpers into their own such calls."""
        out: list[tuple[int, int]] = []
        by_name = {
            n.name: n
            for n in self.tree.body
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
        }
        for call in self._scan(func).live_flowing:
            out.append((call.lineno, call.end_lineno or call.lineno))
            if isinstance(call.func, ast.Name) and call.func.id in self.helpers:
                helper = by_name.get(call.func.id)
                if helper is not None and helper.name not in seen:
                    out.extend(self.sites(helper, seen | {helper.name}))
        return tuple(sorted(set(out)))

    def verdict(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        """None when the test passes, else the reason it is rejected."""
        scan = self._scan(func)
        problems = scan.problems or self._helper_problems(func, frozenset({func.name}))
        if problems:
            return problems[0]
        if scan.live_flowing:
            return None
        if scan.live_constant:
            return REASON_CONSTANTS
        if scan.dead:
            return REASON_DEAD.format(line=scan.dead[0].lineno)
        if self.imports.imports_oracle:
            return REASON_IMPORT_ONLY
        modules = dict.fromkeys((BUILTIN_ORACLE_MODULE, self.custom.label))
        return REASON_NO_ORACLE.format(modules=" or ".join(modules))


def test_functions(
    tree: ast.Module,
) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """(qualname, node) by pytest's default names (`test*` functions, `test*` methods of `Test*`
    classes): only for a file pytest could not collect, whose tests are then still checked."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            for item in node.body:
                if isinstance(
                    item, ast.FunctionDef | ast.AsyncFunctionDef
                ) and item.name.startswith("test"):
                    yield f"{node.name}.{item.name}", item


def _span(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[tuple[int, int], ...]:
    first = min([func.lineno, *(d.lineno for d in func.decorator_list)])
    return ((first, func.end_lineno or func.lineno),)


def check_source(
    path: str,
    source: str,
    custom: OracleModule,
    changed: frozenset[int] | None = None,
    node_ids: Sequence[str] | None = None,
) -> FileVerdict:
    """Check the tests of one file; `changed` limits the check to tests touching those lines (None:
    all). `node_ids` are what pytest collected from the file; None (pytest could not collect it)
    falls back to pytest's default names."""
    try:
        tree = parse_python(source, path)
    except SyntaxError as exc:
        reason = REASON_SYNTAX.format(error=exc.msg)
        return FileVerdict(
            path, (), frozenset(), (Rejection(path, exc.lineno or 1, "<file>", reason),)
        )
    checker = _Checker(tree, custom)
    checked: list[str] = []
    passed: set[str] = set()
    sites: dict[str, tuple[tuple[int, int], ...]] = {}
    rejections: list[Rejection] = []
    if node_ids is None:
        all_tests = [(name, func, _span(func)) for name, func in test_functions(tree)]
    else:
        all_tests = [
            (site.qualname, site.node, site.spans)
            for site in (locate(tree, n) for n in dict.fromkeys(_function_id(n) for n in node_ids))
            if site.node is not None
        ]
    for name, func, spans in all_tests:
        if changed is not None and not touched_by(spans, changed):
            continue
        checked.append(name)
        verdict = checker.verdict(func)
        if verdict is None:
            passed.add(name)
            sites[name] = checker.sites(func)
        else:
            rejections.append(Rejection(path, func.lineno, name, verdict))
    if changed is None and not all_tests:
        rejections.append(Rejection(path, 1, "<file>", REASON_NO_TESTS))
    return FileVerdict(path, tuple(checked), frozenset(passed), tuple(rejections), sites)


def _function_id(node_id: str) -> str:
    return node_id.split("[", 1)[0]

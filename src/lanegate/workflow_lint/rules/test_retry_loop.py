"""Flags a retry written by hand in test code: a failure of the act swallowed and the act run again
until it passes, where no workflow or plugin check sees it (a rerun plugin written by hand, in a test,
a fixture, or a home-made `flaky`-style decorator of any name in a helper module).

The shapes: a `for` or `while` whose body runs an act under `try` (or `with suppress(...)`, or an
`ExitStack` that entered a `suppress`), swallows its failure in an `except` that goes round again, and
leaves the loop once the act succeeded (`break`/`return`, or a flag the `while` tests); a loop that
leaves on the result of a helper of the same module that swallows the act's failure (`if attempt():
break`, `while not attempt():`, `any(attempt() for _ in range(3))`), or runs such a helper more than
once on the same input whatever consumes the results (`max(...)`, `True in [...]`, `sum(map(...))`,
`next(filter(...))`, a counter in the `while`); a function that calls itself again from its `except`; a retry library (`tenacity`, `backoff`, `retrying`) as a decorator or a
`for attempt in Retrying(...)` loop. A loop over different inputs (`for value in values: try:
parse(value)`) is not a retry: a `for` is one only when its act does not use the loop's own variable.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.rule import FileKind, Rule

_EXITS = (ast.Raise, ast.Return, ast.Break)
# nested scopes and loops have their own retry question
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.For,
    ast.AsyncFor,
    ast.While,
)


def _own_nodes(statements: list[ast.stmt]) -> Iterator[ast.AST]:
    """Every node of `statements`, not descending into nested functions, classes or loops."""
    stack: list[ast.AST] = list(statements)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):  # a nested loop or function is yielded, not entered
            stack.extend(ast.iter_child_nodes(node))


def _leaves(statements: list[ast.stmt]) -> bool:
    """Whether these statements leave the loop (a `break` or `return` outside nested loops)."""
    return any(isinstance(n, ast.Break | ast.Return) for n in _own_nodes(statements))


def _goes_round(handler: ast.ExceptHandler) -> bool:
    """An `except` that does not always end the loop: its last statement is no raise, return or
    break (`if attempt == last: raise` goes round on every other attempt)."""
    return not handler.body or not isinstance(handler.body[-1], _EXITS)


def _names(nodes: list[ast.stmt]) -> set[str]:
    return {n.id for s in nodes for n in ast.walk(s) if isinstance(n, ast.Name)}


def _call_name(node: ast.AST) -> str:
    """The last name of a call's function (`contextlib.suppress(...)` -> `suppress`), else ''."""
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _suppresses(node: ast.With | ast.AsyncWith) -> bool:
    """`with suppress(...)` / `with contextlib.suppress(...)`, or an `ExitStack` whose body enters a
    `suppress` (`stack.enter_context(suppress(E))`): a `try` whose `except` goes round."""
    for item in node.items:
        name = _call_name(item.context_expr)
        if name == "suppress":
            return True
        if name in ("ExitStack", "AsyncExitStack"):
            for inner in _own_nodes(node.body):
                if _call_name(inner) in ("enter_context", "enter_async_context") and any(
                    _call_name(arg) == "suppress" for arg in getattr(inner, "args", ())
                ):
                    return True
    return False


def _swallowing(node: ast.AST) -> tuple[list[ast.stmt], list[ast.stmt]] | None:
    """(the act, what runs on success) of a statement that swallows the act's failure and goes on."""
    if isinstance(node, ast.Try | ast.TryStar) and any(_goes_round(h) for h in node.handlers):
        return node.body, node.body + node.orelse
    if isinstance(node, ast.With | ast.AsyncWith) and _suppresses(node):
        return node.body, node.body
    return None


def _retry_try(loop: ast.For | ast.AsyncFor | ast.While) -> ast.stmt | None:
    """The `try` (or `with suppress`) of `loop`'s own body that retries its act, if there is one."""
    loop_vars: set[str] = set()
    if isinstance(loop, ast.For | ast.AsyncFor):
        loop_vars = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    for node in _own_nodes(loop.body):
        found = _swallowing(node)
        if found is None or not isinstance(node, ast.stmt):
            continue
        act, succeeded = found
        after = loop.body[loop.body.index(node) + 1 :] if node in loop.body else []
        if not (_leaves(succeeded) or _leaves(after) or _sets_loop_flag(loop, succeeded)):
            continue  # never leaves once the act succeeded: it drains or polls, it does not retry
        if loop_vars & _names(act):
            continue  # the act changes with the loop variable: a loop over inputs
        return node
    return None


def _sets_loop_flag(loop: ast.For | ast.AsyncFor | ast.While, succeeded: list[ast.stmt]) -> bool:
    """A `while` whose condition reads a name the success path sets anew (`while not ok: try:
    act(); ok = True`, `while conn is None: try: conn = connect()`): the loop ends on success by
    its flag instead of a `break`. A name grown from itself (`buffer += sock.recv(n)`) is data
    accumulating, not a flag."""
    if not isinstance(loop, ast.While):
        return False
    tested = {n.id for n in ast.walk(loop.test) if isinstance(n, ast.Name)}
    for stmt in succeeded:
        for node in ast.walk(stmt):
            if not isinstance(node, ast.Assign):
                continue
            reads = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in tested - reads:
                    return True
    return False


def _swallowing_helpers(module: ast.Module) -> set[str]:
    """Functions of the module whose body swallows a failure of its act (a `try` with an `except`
    that does not re-raise, or `with suppress(...)`): `attempt()` returns instead of failing. A
    function that hands on such a helper's result (`return attempt()`, `ok = attempt(); return
    ok`) or calls it and goes on (`attempt()` as a statement) swallows too, however deep the chain;
    one that asserts the result (`assert attempt()`) does not."""
    functions = [
        node
        for node in ast.walk(module)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    out = set()
    for node in functions:
        for inner in _own_nodes(node.body):
            if (
                isinstance(inner, ast.Try | ast.TryStar)
                and any(not h.body or not isinstance(h.body[-1], ast.Raise) for h in inner.handlers)
            ) or (isinstance(inner, ast.With | ast.AsyncWith) and _suppresses(inner)):
                out.add(node.name)
                break
    grown = True
    while grown:  # one function more per round at least, so at most len(functions) rounds
        grown = False
        for node in functions:
            if node.name not in out and _hands_on(node, out):
                out.add(node.name)
                grown = True
    return out


def _hands_on(func: ast.FunctionDef | ast.AsyncFunctionDef, helpers: set[str]) -> bool:
    """Whether `func` returns a swallowing helper's result or calls one as a statement."""

    def calls(node: ast.AST | None) -> bool:
        return node is not None and any(_call_name(n) in helpers for n in ast.walk(node))

    own = list(_own_nodes(func.body))
    carried = {
        target.id
        for node in own
        if isinstance(node, ast.Assign | ast.AnnAssign) and calls(node.value)
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name)
    }
    for node in own:
        if isinstance(node, ast.Return) and node.value is not None:
            names = {n.id for n in ast.walk(node.value) if isinstance(n, ast.Name)}
            if calls(node.value) or names & carried:
                return True
        if isinstance(node, ast.Expr) and _call_name(node.value) in helpers:
            return True
    return False


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
# what calls the function it is given again and again
_MAPPERS = frozenset({"map", "filter", "starmap", "filterfalse", "takewhile", "dropwhile"})


def _stored(nodes: list[ast.stmt]) -> set[str]:
    """Names a loop's body assigns: what changes from one round to the next."""
    return {
        n.id
        for s in nodes
        for n in ast.walk(s)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


def _repeated_helper_calls(
    module: ast.Module, helpers: set[str]
) -> Iterator[tuple[ast.AST, ast.expr]]:
    """(the construct that repeats, the call or name) for every swallowing helper run more than
    once on the same input: in a loop's test or body, a comprehension, a lambda (which `map`,
    `sorted` or `filter` call again), or handed by name to `map`/`filter`, whatever consumes the
    results (`max(...)`, `True in [...]`, `sum(...) > 0`, `next(filter(...))`, a counter in the
    loop's test). A call whose arguments change from round to round (the loop's variables, a name
    the body assigns) is a loop over inputs; `assert helper()` on each round and `all(...)` demand
    every run to pass, which is no retry. Walked without recursion."""
    stack: list[tuple[ast.AST, ast.AST | None, frozenset[str]]] = [(module, None, frozenset())]
    while stack:
        node, repeating, varying = stack.pop()
        children: list[tuple[ast.AST, ast.AST | None, frozenset[str]]] = []
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            children = [(c, None, frozenset()) for c in ast.iter_child_nodes(node)]
        elif isinstance(node, ast.For | ast.AsyncFor):
            target = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
            loop = varying | target | _stored([*node.body, *node.orelse])
            children = [(node.iter, repeating, varying)]
            children += [(s, node, loop) for s in (*node.body, *node.orelse)]
        elif isinstance(node, ast.While):
            loop = varying | _stored([*node.body, *node.orelse])
            children = [(c, node, loop) for c in (node.test, *node.body, *node.orelse)]
        elif isinstance(node, _COMPREHENSIONS):
            targets = varying | {
                n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)
            }
            first, *rest = node.generators
            children = [(first.iter, repeating, varying)]
            for part in (*(g.iter for g in rest), *(i for g in node.generators for i in g.ifs)):
                children.append((part, node, targets))
            elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            children += [(e, node, targets) for e in elts]
        elif isinstance(node, ast.Lambda):
            args = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
            children = [(node.body, node, varying | args)]
        elif isinstance(node, ast.Assert) and _calls([node.test], helpers) is node.test:
            children = [(a, repeating, varying) for a in ast.iter_child_nodes(node.test)]
        elif isinstance(node, ast.Call) and _call_name(node) == "all" and len(node.args) == 1:
            # every run must pass: the comprehension's parts are judged as if run once
            arg = node.args[0]
            parts: list[ast.AST] = (
                list(ast.iter_child_nodes(arg)) if isinstance(arg, _COMPREHENSIONS) else [arg]
            )
            for piece in parts:
                inner = (
                    ast.iter_child_nodes(piece) if isinstance(piece, ast.comprehension) else [piece]
                )
                children += [(c, repeating, varying) for c in inner]
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            used = {
                n.id
                for a in (*node.args, *node.keywords)
                for n in ast.walk(a)
                if isinstance(n, ast.Name)
            }
            if name in helpers and repeating is not None and not used & varying:
                yield repeating, node
            if _call_name(node) in _MAPPERS:
                for arg in node.args:
                    if isinstance(arg, ast.Name) and arg.id in helpers:
                        yield node, arg
            children = [(c, repeating, varying) for c in ast.iter_child_nodes(node)]
        else:
            children = [(c, repeating, varying) for c in ast.iter_child_nodes(node)]
        stack.extend(children)


def _calls(nodes: list[ast.AST], names: set[str]) -> ast.Call | None:
    for node in nodes:
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
                if inner.func.id in names:
                    return inner
    return None


def _helper_retry(loop: ast.For | ast.AsyncFor | ast.While, helpers: set[str]) -> ast.Call | None:
    """A loop that runs a swallowing helper again until it reports success: `while not
    attempt():`, `if attempt(): break`, or `ok = attempt()` then `if ok: break` (not with the
    loop's own variable: a loop over inputs)."""
    call: ast.Call | None = None
    if isinstance(loop, ast.While) and isinstance(loop.test, ast.UnaryOp):
        if isinstance(loop.test.op, ast.Not):
            call = _calls([loop.test.operand], helpers)
    if call is None:
        results: dict[str, ast.Call] = {}
        for stmt in loop.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, found = stmt.targets[0], _calls([stmt.value], helpers)
                if isinstance(target, ast.Name) and found is not None:
                    results[target.id] = found
            if isinstance(stmt, ast.If) and _leaves(stmt.body):
                test = stmt.test
                if isinstance(test, ast.Name) and test.id in results:
                    call = results[test.id]
                elif isinstance(test, ast.Call):
                    call = _calls([test], helpers)
            if call is not None:
                break
    if call is None:
        return None
    if isinstance(loop, ast.For | ast.AsyncFor):
        loop_vars = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
        if loop_vars & {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}:
            return None
    return call


def _generator_retry(node: ast.Call, helpers: set[str]) -> bool:
    """`any(attempt() for _ in range(3))`: a swallowing helper called until it returns true."""
    if _call_name(node) != "any" or len(node.args) != 1:
        return False
    gen = node.args[0]
    if not isinstance(gen, ast.GeneratorExp | ast.ListComp) or len(gen.generators) != 1:
        return False
    loop = gen.generators[0]
    loop_vars = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    call = _calls([gen.elt], helpers)
    return (
        call is not None
        and _call_name(loop.iter) == "range"
        and not loop_vars & {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
    )


def _recursive_retry(func: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.Call | None:
    """A function that calls itself again from an `except` of its own body."""
    for inner in _own_nodes(func.body):
        if isinstance(inner, ast.Try | ast.TryStar):
            for handler in inner.handlers:
                call = _calls(list(handler.body), {func.name})
                if call is not None:
                    return call
    return None


_RETRY_LIBRARIES = ("tenacity", "backoff", "retrying", "retry", "stamina")
_LIBRARY_CALLS = frozenset(
    {"retry", "on_exception", "on_predicate", "Retrying", "AsyncRetrying", "retry_context"}
)


def _library_names(module: ast.Module) -> tuple[set[str], set[str]]:
    """(module aliases, imported names) of the retry libraries this module imports."""
    aliases: set[str] = set()
    names: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in _RETRY_LIBRARIES:
                    aliases.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[0] in _RETRY_LIBRARIES:
                for alias in node.names:
                    if alias.name in _LIBRARY_CALLS:
                        names.add(alias.asname or alias.name)
    return aliases, names


def _library_retry(node: ast.expr, aliases: set[str], names: set[str]) -> bool:
    """`tenacity.retry`, `@retry(...)` imported from a retry library, `backoff.on_exception(...)`,
    `Retrying(...)`: a retry library's own rerun."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id in names
    if isinstance(target, ast.Attribute) and target.attr in _LIBRARY_CALLS:
        root = target.value
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and root.id in aliases
    return False


def check(ctx: FileContext) -> Iterator[Finding]:
    module = ctx.module
    if not isinstance(module, ast.Module):
        return
    helpers = _swallowing_helpers(module)
    aliases, names = _library_names(module)

    def at(node: ast.AST, message: str) -> Finding:
        line, column = getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1
        return ctx.finding(RULE, line, column, message)

    rerun = "a failure is re-run inside the test"
    flagged: set[int] = set()  # constructs the shapes below already named
    for node in ast.walk(module):
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            found = _retry_try(node)
            call = None if found is not None else _helper_retry(node, helpers)
            if found is not None or call is not None:
                flagged.add(id(node))
            if found is not None:
                yield at(
                    node,
                    f"a loop retries the act under `try` (line {found.lineno}) until it succeeds: "
                    + rerun,
                )
            elif call is not None:
                yield at(
                    node,
                    f"a loop runs {_call_name(call)}(), which swallows its act's failure, until it "
                    "succeeds: " + rerun,
                )
            elif isinstance(node, ast.For | ast.AsyncFor) and _library_retry(
                node.iter, aliases, names
            ):
                yield at(node, "a loop over a retry library's attempts: " + rerun)
        elif isinstance(node, ast.Call) and _generator_retry(node, helpers):
            flagged.update(id(arg) for arg in node.args)
            yield at(
                node,
                "any(...) runs a helper that swallows its act's failure until it succeeds: "
                + rerun,
            )
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            recursive = _recursive_retry(node)
            if recursive is not None:
                yield at(recursive, f"{node.name}() calls itself again from its `except`: " + rerun)
            for decorator in node.decorator_list:
                if _library_retry(decorator, aliases, names):
                    yield at(decorator, f"{node.name} is wrapped by a retry library: " + rerun)
    for construct, run in _repeated_helper_calls(module, helpers):
        if id(construct) in flagged:
            continue
        flagged.add(id(construct))
        helper = run.id if isinstance(run, ast.Name) else _call_name(run)
        yield at(
            construct,
            f"{helper}(), which swallows its act's failure, runs more than once on the same "
            "input and the test goes on with its results: " + rerun,
        )


RULE = Rule(
    id="test-retry-loop",
    summary="test code retries its own act until it passes (a hand-written rerun)",
    fix="remove the loop and let one failure fail the test; fix the flakiness or lease the test",
    kinds=frozenset({FileKind.PYTHON}),
    check=check,
)

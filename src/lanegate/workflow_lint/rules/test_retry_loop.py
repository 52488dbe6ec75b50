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
An `except` that turns a test's own failure (an `AssertionError`, or anything raised around an
`assert` or a wrapped test function) into an xfail, a skip or a quiet return forgives it the same
way (a `@flaky_on_pypy` decorator by any name).

The principle: a retry hides a test's failure, running the code that decides the verdict (an
assertion, the call under test) again after it failed and letting a later success stand. Waiting is
not retrying: a poll re-reads state that something else changes, where a retry re-does the act; nor
is a loop over alternatives, the library's own retry as the code under test (a stand-in handed to it
as a value), or errors the test plants and then asserts on (see `_no_verdict_rerun`). Not flagged: a retry library on a helper (not a test, not a fixture) that only reads and
checks state, paced (`wait=`); a loop whose act only blocks for something to arrive and catches the
wait's own expiry (`accept()` raising `TimeoutError`); a loop paced by a `sleep` catching only
"nobody is there yet" (`ConnectionRefusedError`, `FileNotFoundError`). An `except` catching only an act's
"nothing found" signal (`NoSuchExample`, `DoesNotExist`, `StopIteration`) swallows no failure. A helper whose `except`
ends the test (`pytest.skip`) or records the failure in the caller's collection does not swallow.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator

from lanegate.model import Finding
from lanegate.workflow_lint.context import FileContext
from lanegate.workflow_lint.pytree import PyTree
from lanegate.workflow_lint.rule import FileKind, Rule

_EXITS = (ast.Raise, ast.Return, ast.Break)
_Loop = ast.For | ast.AsyncFor | ast.While
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


def _own_nodes(t: PyTree, statements: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Every node of `statements`, not descending into nested functions, classes or loops (a nested
    loop or function is yielded, not entered)."""
    return t.own(statements, _SCOPES)


def _leaves(t: PyTree, statements: list[ast.stmt]) -> bool:
    """Whether these statements leave the loop (a `break` or `return` outside nested loops)."""
    return any(isinstance(n, ast.Break | ast.Return) for n in _own_nodes(t, statements))


def _goes_round(t: PyTree, handler: ast.ExceptHandler) -> bool:
    """An `except` that does not always end the loop: its last statement is no raise, return or
    break (`if attempt == last: raise` goes round on every other attempt), or it has a `continue`
    (`if "timeout" in str(e): continue` then `raise`)."""
    return (
        not handler.body
        or not isinstance(handler.body[-1], _EXITS)
        or any(isinstance(n, ast.Continue) for n in _own_nodes(t, handler.body))
    )


def _names(t: PyTree, nodes: list[ast.stmt]) -> set[str]:
    return {n.id for s in nodes for n in t.walk(s) if isinstance(n, ast.Name)}


def _call_name(node: ast.AST) -> str:
    """The last name of a call's function (`contextlib.suppress(...)` -> `suppress`), else ''."""
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _suppresses(t: PyTree, node: ast.With | ast.AsyncWith) -> bool:
    """`with suppress(...)` / `with contextlib.suppress(...)`, or an `ExitStack` whose body enters a
    `suppress` (`stack.enter_context(suppress(E))`): a `try` whose `except` goes round."""
    for item in node.items:
        name = _call_name(item.context_expr)
        if name == "suppress":
            return True
        if name in ("ExitStack", "AsyncExitStack"):
            for inner in _own_nodes(t, node.body):
                if _call_name(inner) in ("enter_context", "enter_async_context") and any(
                    _call_name(arg) == "suppress" for arg in getattr(inner, "args", ())
                ):
                    return True
    return False


def _swallowing(t: PyTree, node: ast.AST) -> tuple[list[ast.stmt], list[ast.stmt]] | None:
    """(the act, what runs on success) of a statement that swallows the act's failure and goes on."""
    if isinstance(node, ast.Try | ast.TryStar) and any(_goes_round(t, h) for h in node.handlers):
        return node.body, node.body + node.orelse
    if isinstance(node, ast.With | ast.AsyncWith) and _suppresses(t, node):
        return node.body, node.body
    return None


# "nothing there yet": what a read or a wait raises when nothing has arrived (non-blocking I/O not
# ready, an empty queue or channel, a child process still running at its timeout, the end of the
# data). Catching one
# polls: it forgives no failure, whatever the act is
_NOT_READY = frozenset(
    {
        "WantReadError",
        "WantWriteError",
        "WantX509LookupError",
        "SSLWantReadError",
        "SSLWantWriteError",
        "BlockingIOError",
        "InterruptedError",
        "WouldBlock",
        "TimeoutExpired",
        "EOFError",
    }
)
_EMPTY = re.compile(r"\w*Empty(?:Error)?")
# what an act raises to say "nothing found", its documented outcome rather than a failure of it:
# `find(...)` raising `NoSuchExample`, `next()` on an exhausted iterator, an ORM's `DoesNotExist`
_NO_RESULT = re.compile(
    r"NoSuch[A-Z]\w*|No[A-Z]\w*Found(?:Error)?|\w*NotFound|\w*DoesNotExist"
    r"|StopIteration|StopAsyncIteration|\w*Empty(?:Error)?"
)


def _nothing_yet(t: PyTree, handlers: list[ast.ExceptHandler]) -> bool:
    """Handlers that each catch only "nothing there yet" signals (the table above, or any
    `...Empty`: `queue.Empty`, `asyncio.QueueEmpty`)."""
    for handler in handlers:
        caught = _caught(t, handler)
        if not caught or not all(n in _NOT_READY or _EMPTY.fullmatch(n) for n in caught):
            return False
    return bool(handlers)


def _no_result(t: PyTree, handler: ast.ExceptHandler) -> bool:
    """A handler catching only "nothing found" signals (`except NoSuchExample:`): swallowing one
    accepts an empty result, it forgives no failure."""
    caught = _caught(t, handler)
    return bool(caught) and all(_NO_RESULT.fullmatch(name) for name in caught or ())


# what a server or file the test started raises until it is there: waited for under a deadline
_NOT_THERE_YET = frozenset(
    {
        "ConnectionError",
        "ConnectionRefusedError",
        "ConnectionResetError",
        "ConnectionAbortedError",
        "OSError",
        "IOError",
        "error",
        "timeout",
        "TimeoutError",
        "URLError",
        "FileNotFoundError",
        "BrokenPipeError",
        "NewConnectionError",
        "RemoteDisconnected",
    }
)
# nobody is there yet (no server listening, no socket file): a paced loop on these waits for it to
# come up; errors in the middle of a conversation (reset, broken pipe, timeout) need a deadline
_ABSENT = frozenset({"ConnectionRefusedError", "FileNotFoundError"})
# a wait that ran out: nothing arrived within the timeout, which is no failure of anything
_WAIT_EXPIRED = frozenset({"TimeoutError", "timeout", "TimeoutExpired", "Empty"})
# calls that block until something arrives (a connection, bytes, a process, an event, a message)
_WAITS = frozenset(
    {
        "accept",
        "recv",
        "recvfrom",
        "recv_into",
        "recvmsg",
        "wait",
        "wait_for",
        "join",
        "select",
        "poll",
        "get",
        "get_nowait",
        "communicate",
        "read",
        "readline",
        "readexactly",
        "readuntil",
    }
)
# a test's own failure: retrying on it is always a rerun
_TEST_FAILURES = frozenset({"AssertionError", "Exception", "BaseException", "Failed"})
_CLOCKS = frozenset(
    {"time", "monotonic", "perf_counter", "monotonic_ns", "time_ns", "now", "utcnow"}
)


def _caught(t: PyTree, handler: ast.ExceptHandler) -> set[str] | None:
    """The last names of the exception types a handler catches; None for a bare `except:`, and
    for a class the tests make themselves (`PyTree.made_here`): its name says nothing of what
    raises it (`class ResultNotFound(AssertionError)` is the test's own failure), so it is
    judged as catching anything."""
    if handler.type is None:
        return None
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    out: set[str] = set()
    for kind in kinds:
        if isinstance(kind, ast.Attribute):
            out.add(kind.attr)
        elif isinstance(kind, ast.Name):
            if kind.id in t.made_here():
                return None
            out.add(kind.id)
        else:
            return None  # computed: anything
    return out


def _only(t: PyTree, handlers: list[ast.ExceptHandler], allowed: frozenset[str]) -> bool:
    for handler in handlers:
        caught = _caught(t, handler)
        if caught is None or not caught <= allowed:
            return False
    return bool(handlers)


def _clock_bounded(t: PyTree, loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """A loop that ends on a clock: the `while` compares a clock reading, or its body leaves or
    raises when a comparison with a clock reading says the deadline passed."""
    tests: list[ast.AST] = [loop.test] if isinstance(loop, ast.While) else []
    tests += [
        n.test for n in _own_nodes(t, loop.body) if isinstance(n, ast.If) and _ends_loop(t, n.body)
    ]
    return any(
        isinstance(n, ast.Compare)
        and any(isinstance(c, ast.Call) and _call_name(c) in _CLOCKS for c in t.walk(n))
        for test in tests
        for n in t.walk(test)
    )


def _ends_loop(t: PyTree, statements: list[ast.stmt]) -> bool:
    return any(isinstance(n, _EXITS) or _call_name(n) == "fail" for n in _own_nodes(t, statements))


def _only_waits(t: PyTree, act: list[ast.stmt]) -> bool:
    """An act whose every call blocks until something arrives (`sock = listener.accept()[0]`,
    `await asyncio.wait_for(reader.readline(), 1)`: what a `wait_for` waits on counts as the wait)."""
    calls = [n for n in _own_nodes(t, act) if isinstance(n, ast.Call)]
    inside: set[int] = set()
    for call in calls:
        if _call_name(call) == "wait_for":
            inside.update(id(n) for n in t.walk_all(call.args))
    return bool(calls) and all(_call_name(c) in _WAITS or id(c) in inside for c in calls)


def _serves(t: PyTree, act: list[ast.stmt]) -> bool:
    """A read loop's round: it starts by waiting for what arrives (`data = conn.recv(1024)`,
    `x = decode(chan.recv(1024))`) and the rest handles what came (`conn.sendall(data.upper())`),
    as a server's loop does."""
    return bool(act) and any(
        isinstance(n, ast.Call) and _call_name(n) in _WAITS - {"get"} for n in t.walk(act[0])
    )


def _paced(t: PyTree, loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """A loop that pauses between its rounds (`time.sleep`, `asyncio.sleep`): it waits for
    something else to change, rather than drawing the same act again at once."""
    return any(_call_name(n) == "sleep" for n in _own_nodes(t, loop.body))


def _recovers(t: PyTree, handler: ast.ExceptHandler) -> bool:
    """A handler that reads the error it caught to decide (`if e.connection_invalidated:` ...) and
    raises otherwise: the recovery the code under test documents, not a blind second try."""
    if handler.name is None:
        return False
    decides = any(
        isinstance(n, ast.If)
        and any(isinstance(x, ast.Name) and x.id == handler.name for x in t.walk(n.test))
        for n in _own_nodes(t, handler.body)
    )
    return decides and any(isinstance(n, ast.Raise) for n in _own_nodes(t, handler.body))


# calls that only read: state, a server's answer to a GET, a response's status; re-running them
# re-does nothing (builtins that convert or measure, and `print`, read too)
_HTTP_READS = frozenset({"get", "head", "urlopen", "options"})
_READS = _HTTP_READS | frozenset(
    {
        "raise_for_status",
        "read",
        "json",
        "getcode",
        "exists",
        "is_file",
        "is_dir",
        "len",
        "isinstance",
        "hasattr",
        "getattr",
        "str",
        "repr",
        "int",
        "float",
        "bool",
        "list",
        "dict",
        "set",
        "tuple",
        "sorted",
        "items",
        "keys",
        "values",
        "format",
        "print",
        "load",
        "loads",
        "read_text",
        "read_bytes",
        "stat",
        "listdir",
    }
)


def _reads_only(t: PyTree, act: list[ast.stmt]) -> bool:
    """An act whose every call only reads (`requests.get(url).raise_for_status()`, `assert
    worker.state.tasks[key].state == "memory"`, `with open(path) as f: json.load(f)`): asked
    again, it re-reads, it re-does nothing."""
    return all(
        _call_name(n) in _READS or _opens_to_read(n)
        for n in t.walk_all(act)
        if isinstance(n, ast.Call)
    ) and not any(isinstance(n, (*_FUNCTIONS, ast.Lambda)) for n in t.walk_all(act))


def _opens_to_read(call: ast.Call) -> bool:
    """`open(path)` or `open(path, "rb")`: a file opened for reading."""
    if _call_name(call) != "open" or call.keywords and any(k.arg == "mode" for k in call.keywords):
        return False
    mode = call.args[1] if len(call.args) > 1 else None
    return mode is None or (isinstance(mode, ast.Constant) and str(mode.value) in ("r", "rb", "rt"))


def _reading_helper(t: PyTree, func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A helper whose every `try` only reads (`connection_file_ready(path)`: is the file there and
    whole yet?): called again in a paced loop, it polls."""
    tries = [n for n in t.own(func.body, _SCOPES) if isinstance(n, ast.Try | ast.TryStar)]
    return bool(tries) and all(_reads_only(t, n.body) for n in tries)


def _asks_a_server(t: PyTree, act: list[ast.stmt]) -> bool:
    """An act that asks a server for a page (`urlopen(url)`, `requests.get(url)`)."""
    return any(isinstance(n, ast.Call) and _call_name(n) in _HTTP_READS for n in t.walk_all(act))


def _forgives_failure(t: PyTree, node: ast.stmt, loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """Whether the `except` clauses that go round forgive a failure of the act (a retry), rather
    than poll non-blocking I/O, wait under a deadline for something to come up, re-read state
    that something else changes (an act that only reads, paced or under a deadline, or asking a
    server that is not answering yet), or run a documented recovery the error itself selects."""
    if not isinstance(node, ast.Try | ast.TryStar):
        return True  # `with suppress(...)`: judged by the loop's shape only
    handlers = [h for h in node.handlers if _goes_round(t, h) and not _stops(t, h, loop)]
    if not handlers:
        return False  # each `except` ends the loop by its condition (`self.running = False`)
    if _nothing_yet(t, handlers) or (handlers and all(_no_result(t, h) for h in handlers)):
        return False
    if _only(t, handlers, _WAIT_EXPIRED) and (_only_waits(t, node.body) or _serves(t, node.body)):
        return False  # `accept()` timed out: no client yet, asked again (a server's accept loop)
    if _only(t, handlers, _ABSENT) and _paced(t, loop):
        return False  # nothing listening yet: waited for with a pause, as a readiness probe does
    if _clock_bounded(t, loop) and _only(t, handlers, _NOT_READY | _NOT_THERE_YET):
        return False
    if _reads_only(t, node.body) and (
        _paced(t, loop)
        or _clock_bounded(t, loop)
        or (_asks_a_server(t, node.body) and _only(t, handlers, _NOT_THERE_YET | {"HTTPError"}))
    ):
        return False  # a poll: the act only re-reads what something else changes
    caught_failure = any((_caught(t, h) or {"Exception"}) & _TEST_FAILURES for h in handlers)
    return caught_failure or not all(_recovers(t, h) for h in handlers)


# methods that change a collection in place: the loop's next round reads another element
_MUTATORS = frozenset({"pop", "popleft", "popitem", "remove", "discard", "clear", "rotate"})


def _mutated(t: PyTree, statements: list[ast.stmt]) -> set[str]:
    """Names a loop's body changes in place (`try_locales.pop(0)`): the next round's act reads
    another alternative, a loop over alternatives."""
    return {
        n.func.value.id
        for n in t.walk_all(statements)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in _MUTATORS
        and isinstance(n.func.value, ast.Name)
    }


def _stops(t: PyTree, handler: ast.ExceptHandler, loop: _Loop) -> bool:
    """A handler that ends a `while` by its condition: it sets what the test reads to a false
    constant (`self.running = False`): no round again."""
    if not isinstance(loop, ast.While):
        return False
    tested = {ast.unparse(n) for n in t.walk(loop.test) if isinstance(n, ast.Name | ast.Attribute)}
    return any(
        isinstance(s, ast.Assign)
        and isinstance(s.value, ast.Constant)
        and not s.value.value
        and any(ast.unparse(target) in tested for target in s.targets)
        for s in handler.body
    )


def _retry_try(t: PyTree, loop: ast.For | ast.AsyncFor | ast.While) -> ast.stmt | None:
    """The `try` (or `with suppress`) of `loop`'s own body that retries its act, if there is one:
    the same act each round (not one that reads the loop's variable or a name the loop changes, as
    a search halving `eps` does), left once it succeeded, its failure forgiven."""
    varying: set[str] = set()
    if isinstance(loop, ast.For | ast.AsyncFor):
        varying = {n.id for n in t.walk(loop.target) if isinstance(n, ast.Name)}
    position = {id(s): i for i, s in enumerate(loop.body)}
    for node in _own_nodes(t, loop.body):
        found = _swallowing(t, node)
        if found is None or not isinstance(node, ast.stmt):
            continue
        act, succeeded = found
        index = position.get(id(node))
        after = loop.body[index + 1 :] if index is not None else []
        if not (_leaves(t, succeeded) or _leaves(t, after) or _sets_loop_flag(t, loop, succeeded)):
            continue  # never leaves once the act succeeded: it drains or polls, it does not retry
        if varying & _names(t, act):
            continue  # the act changes with the loop variable: a loop over inputs
        own = _stored(t, act)
        if isinstance(node, ast.With | ast.AsyncWith):  # `with ExitStack() as stack`: set up anew
            own |= {n.id for i in node.items for n in t.walk(i) if isinstance(n, ast.Name)}
        if _loads(t, act) & ((_stored(t, loop.body) | _mutated(t, loop.body)) - own):
            continue  # the act reads what the loop changes between rounds: a search, not a retry
        if not _forgives_failure(t, node, loop):
            continue
        return node
    return None


def _sets_loop_flag(
    t: PyTree, loop: ast.For | ast.AsyncFor | ast.While, succeeded: list[ast.stmt]
) -> bool:
    """A `while` whose condition reads a name the success path sets anew (`while not ok: try:
    act(); ok = True`, `while conn is None: try: conn = connect()`): the loop ends on success by
    its flag instead of a `break`, or a count of successes (`while passes < 2: ... passes += 1`). A
    name grown from the act (`buffer += sock.recv(n)`) is data accumulating, not a flag."""
    if not isinstance(loop, ast.While):
        return False
    tested = {n.id for n in t.walk(loop.test) if isinstance(n, ast.Name)}
    for stmt in succeeded:
        for node in t.walk(stmt):
            if (
                isinstance(node, ast.AugAssign)
                and isinstance(node.target, ast.Name)
                and node.target.id in tested
                and isinstance(node.value, ast.Constant)
            ):
                return True  # `passes += 1`: a count of successes the loop waits for
            if not isinstance(node, ast.Assign):
                continue
            reads = {n.id for n in t.walk(node.value) if isinstance(n, ast.Name)}
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id in tested - reads:
                    return True
    return False


_SCOPE_NODES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_TRIES = (ast.Try, ast.TryStar)
_IMPORTS = (ast.Import, ast.ImportFrom)
# the node types the one walk gathers or opens a scope at (compared by exact type)
_GATHERED = frozenset((*_SCOPE_NODES, *_LOOPS, *_TRIES, *_IMPORTS, ast.Assign))


class _Resolver:
    """The module's one walk (over the PyTree's pre-order list, with the scopes open at each node):
    which function definitions a bare name means where it is used, by Python's scoping (the nearest
    enclosing function, or the module, that defines it; a class body's names not seen from its
    methods; `obj.name(...)` means any method of that name), so two same-named nested helpers in
    different functions are two functions, never merged; and, gathered on the way, what the rule's
    shapes start from: loops, functions and calls in source order, every `try` with the functions
    around it, the nearest function or class around each call, and the imports."""

    def __init__(self, t: PyTree) -> None:
        self.t = t
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self._methods: dict[str, list[int]] = {}
        defined: dict[int, dict[str, list[int]]] = {}  # scope -> name -> function ids
        module = t.module
        chains: dict[int, tuple[ast.AST, ...]] = {id(module): (module,)}
        order: list[tuple[ast.AST, tuple[ast.AST, ...]]] = []
        # the scopes open at each node of the pre-order list: (where the scope's subtree ends, it)
        self.shapes: list[ast.AST] = []  # loops, functions and calls, in source order
        self.tries: list[tuple[ast.Try | ast.TryStar, tuple[ast.AST, ...]]] = []
        self.imports: list[ast.Import | ast.ImportFrom] = []
        self.assigns: list[ast.Assign] = []
        self.around: dict[int, tuple[ast.AST, ...]] = {}  # call -> the scopes around it
        open_scopes: list[tuple[int, ast.AST]] = [(len(t.nodes), module)]
        nodes, end, call, name = t.nodes, t.end, ast.Call, ast.Name
        scope_end = len(nodes)
        chain: tuple[ast.AST, ...] = (module,)
        for index in range(1, len(nodes)):
            node = nodes[index]
            if index >= scope_end:
                while index >= open_scopes[-1][0]:
                    open_scopes.pop()
                scope_end = open_scopes[-1][0]
                chain = chains[id(open_scopes[-1][1])]
            kind = type(node)
            if kind is name:
                order.append((node, chain))
                continue
            if kind is call:
                order.append((node, chain))
                self.shapes.append(node)
                self.around[id(node)] = chain
                continue
            if kind not in _GATHERED:
                continue
            if isinstance(node, _FUNCTIONS):  # the few gathered nodes: narrowed by isinstance
                scope = chain[-1]
                self.functions.append(node)
                self.shapes.append(node)
                defined.setdefault(id(scope), {}).setdefault(node.name, []).append(id(node))
                if isinstance(scope, ast.ClassDef):
                    self._methods.setdefault(node.name, []).append(id(node))
            elif isinstance(node, _LOOPS):
                self.shapes.append(node)
            elif isinstance(node, _TRIES):
                self.tries.append((node, chain))
            elif isinstance(node, _IMPORTS):
                self.imports.append(node)
            elif isinstance(node, ast.Assign):
                self.assigns.append(node)
            if kind in _SCOPE_NODES:
                chain = chains[id(node)] = (*chain, node)
                scope_end = end[index]
                open_scopes.append((scope_end, node))
        self._own: dict[int, list[ast.AST]] = {}
        self._targets: dict[int, tuple[int, ...]] = {}
        names = {f.name for f in self.functions}
        for node, chain in order:
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Attribute):
                    self._targets[id(node)] = tuple(self._methods.get(func.attr, ()))
                elif isinstance(func, ast.Name) and func.id in names:
                    self._targets[id(node)] = self._lookup(func.id, chain, defined)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id in names:
                self._targets[id(node)] = self._lookup(node.id, chain, defined)

    @staticmethod
    def _lookup(
        name: str, chain: tuple[ast.AST, ...], defined: dict[int, dict[str, list[int]]]
    ) -> tuple[int, ...]:
        for depth in range(len(chain) - 1, -1, -1):
            scope = chain[depth]
            if isinstance(scope, ast.ClassDef) and depth != len(chain) - 1:
                continue  # a method does not see its class body's names
            found = defined.get(id(scope), {}).get(name)
            if found:
                return tuple(found)
        return ()

    def own_body(self, func: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.AST]:
        """The nodes of `func`'s body outside its nested functions, classes and loops (walked
        once per function, however many questions are asked of them)."""
        found = self._own.get(id(func))
        if found is None:
            found = self._own[id(func)] = list(_own_nodes(self.t, func.body))
        return found

    def targets(self, node: ast.AST) -> tuple[int, ...]:
        """The function ids a call (or a name handed on, `map(attempt, ...)`) may run."""
        return self._targets.get(id(node), ())

    def runs(self, node: ast.AST, functions: set[int]) -> bool:
        return any(target in functions for target in self.targets(node))

    def reads_its_input(self, node: ast.AST, functions: set[int]) -> bool:
        """Whether every one of `functions` that `node` may run reads its own parameters: handed
        to `map`/`filter` (`strategy.map(build)`, `filter(is_valid, items)`), it runs on each
        element, a loop over inputs, as a `for` whose act uses its variable is."""
        by_id = {id(f): f for f in self.functions}
        targets = [by_id[i] for i in self.targets(node) if i in functions and i in by_id]
        return bool(targets) and all(_params(f) & _loads(self.t, f.body) for f in targets)


# pytest's and unittest's calls that end a test (they raise): a handler calling one does not return
_ENDS_TEST = frozenset({"skip", "xfail", "fail", "exit", "skipTest"})
# what puts a value into a collection the caller holds
_RECORDS = frozenset(
    {"append", "add", "extend", "insert", "appendleft", "put", "put_nowait", "update"}
)


def _params(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    args = func.args
    every = (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
    return {a.arg for a in every if a is not None}


def _ends_attempt(handler: ast.ExceptHandler) -> bool:
    """A handler that re-raises last or ends the test (`pytest.skip(...)` raises): it does not
    return to the caller as if the act had run."""
    body = handler.body
    if body and isinstance(body[-1], ast.Raise):
        return True
    return any(isinstance(s, ast.Expr) and _call_name(s.value) in _ENDS_TEST for s in body)


def _records(t: PyTree, handler: ast.ExceptHandler, held: set[str]) -> bool:
    """A handler that puts the failure into a collection the caller holds (`errors.append(str(e))`
    on a parameter, which the caller asserts empty): the failure is handed on, not forgiven."""
    for node in _own_nodes(t, handler.body):
        func = node.func if isinstance(node, ast.Call) else None
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _RECORDS
            and isinstance(func.value, ast.Name)
            and func.value.id in held
        ):
            return True
    return False


def _swallows(t: PyTree, func: ast.FunctionDef | ast.AsyncFunctionDef, resolver: _Resolver) -> bool:
    """Whether `func` swallows a failure of its act and returns as if it had run (an `except` of
    "nothing found" only accepts an empty result; one in a `finally:` guards the clean-up)."""
    held: set[str] | None = None  # what the caller holds: computed for the first handler that asks
    # a `try` inside a `finally:` guards the clean-up (`shutil.rmtree` after the `yield` of a
    # temporary-file helper), not the act
    cleanup: set[int] = set()  # filled as each `finally:` is met (pre-order: before what it holds)
    for inner in resolver.own_body(func):
        if id(inner) in cleanup:
            continue
        if isinstance(inner, ast.With | ast.AsyncWith) and _suppresses(t, inner):
            return True
        if not isinstance(inner, ast.Try | ast.TryStar):
            continue
        if inner.finalbody:
            cleanup.update(id(n) for n in t.walk_all(inner.finalbody))
        for handler in inner.handlers:
            if _ends_attempt(handler) or _no_result(t, handler):
                continue
            if held is None:
                held = _params(func) | {
                    name
                    for n in resolver.own_body(func)
                    if isinstance(n, ast.Nonlocal | ast.Global)
                    for name in n.names
                }
            if not _records(t, handler, held):
                return True
    return False


def _swallowing_helpers(t: PyTree, resolver: _Resolver) -> set[int]:
    """Functions of the module whose body swallows a failure of its act (a `try` with an `except`
    that does not re-raise, or `with suppress(...)`): `attempt()` returns instead of failing. A
    function that hands on such a helper's result (`return attempt()`, `ok = attempt(); return
    ok`) or calls it and goes on (`attempt()` as a statement) swallows too, however deep the chain;
    one that asserts the result (`assert attempt()`) does not. A worklist over who hands on whom:
    linear in the module."""
    out = {id(f) for f in resolver.functions if _swallows(t, f, resolver)}
    handed_by: dict[int, list[int]] = {}  # callee -> the functions that hand on its result
    for func in resolver.functions:
        for callee in _handed_on(t, func, resolver):
            handed_by.setdefault(callee, []).append(id(func))
    pending = list(out)
    while pending:
        for caller in handed_by.get(pending.pop(), ()):
            if caller not in out:
                out.add(caller)
                pending.append(caller)
    return out


def _handed_on(
    t: PyTree, func: ast.FunctionDef | ast.AsyncFunctionDef, resolver: _Resolver
) -> set[int]:
    """The functions whose result `func` returns (directly or through a name) or which it calls as
    a statement."""

    def called(node: ast.AST | None) -> set[int]:
        if node is None:
            return set()
        return {t for n in t.walk(node) if isinstance(n, ast.Call) for t in resolver.targets(n)}

    own = list(resolver.own_body(func))
    carried: dict[str, set[int]] = {}
    for node in own:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            callees = called(node.value)
            if callees:
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    if isinstance(target, ast.Name):
                        carried.setdefault(target.id, set()).update(callees)
    out: set[int] = set()
    for node in own:
        if isinstance(node, ast.Return) and node.value is not None:
            out |= called(node.value)
            for name in t.walk(node.value):
                if isinstance(name, ast.Name):
                    out |= carried.get(name.id, set())
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            out |= set(resolver.targets(node.value))
    return out


_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)
# what calls the function it is given again and again
_MAPPERS = frozenset({"map", "filter", "starmap", "filterfalse", "takewhile", "dropwhile"})


def _names_in(t: PyTree, nodes: Iterable[ast.AST], context: type[ast.expr_context]) -> set[str]:
    return {
        n.id
        for node in nodes
        for n in t.walk(node)
        if isinstance(n, ast.Name) and isinstance(n.ctx, context)
    }


def _stored(t: PyTree, nodes: Iterable[ast.AST]) -> set[str]:
    """Names a loop's body assigns: what changes from one round to the next."""
    return _names_in(t, nodes, ast.Store)


def _loads(t: PyTree, nodes: Iterable[ast.AST]) -> set[str]:
    """Names read anywhere in `nodes`."""
    return _names_in(t, nodes, ast.Load)


_Context = tuple[ast.AST, ast.AST | None, frozenset[str]]


def _repeat_children(
    t: PyTree,
    node: ast.AST,
    repeating: ast.AST | None,
    varying: frozenset[str],
    resolver: _Resolver,
    helpers: set[int],
) -> list[_Context]:
    """The children of `node` with what repeats them and the names that vary from round to round
    there (a loop, a comprehension or a lambda repeats its body; a function or class starts anew)."""
    children: list[tuple[ast.AST, ast.AST | None, frozenset[str]]] = []
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        children = [(c, None, frozenset()) for c in t.children(node)]
    elif isinstance(node, ast.For | ast.AsyncFor):
        target = {n.id for n in t.walk(node.target) if isinstance(n, ast.Name)}
        loop = varying | target | _stored(t, [*node.body, *node.orelse])
        over_inputs = bool(target & _loads(t, node.body))
        children = [(node.iter, repeating, varying)]
        children += [(s, None if over_inputs else node, loop) for s in (*node.body, *node.orelse)]
    elif isinstance(node, ast.While):
        loop = varying | _stored(t, [*node.body, *node.orelse])
        tested = _loads(t, [node.test])
        children = [(node.test, node, loop)]
        for stmt in (*node.body, *node.orelse):
            decides = isinstance(stmt, ast.Assign | ast.AugAssign | ast.AnnAssign) and bool(
                tested & _stored(t, [stmt])
            )
            children.append((stmt, node if decides else None, loop))
    elif isinstance(node, _COMPREHENSIONS):
        own = {n.id for g in node.generators for n in t.walk(g.target) if isinstance(n, ast.Name)}
        targets = varying | own
        first, *rest = node.generators
        elts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        ifs = [i for g in node.generators for i in g.ifs]
        over_inputs = bool(own & _loads(t, [*elts, *ifs, *(g.iter for g in rest)]))
        again = None if over_inputs else node
        children = [(first.iter, repeating, varying)]
        for part in (*(g.iter for g in rest), *ifs):
            children.append((part, again, targets))
        children += [(e, again, targets) for e in elts]
    elif isinstance(node, ast.Lambda):
        args = {a.arg for a in (*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs)}
        children = [(node.body, None if args & _loads(t, [node.body]) else node, varying | args)]
    elif isinstance(node, ast.Assert) and _calls(t, [node.test], resolver, helpers) is node.test:
        children = [(a, repeating, varying) for a in t.children(node.test)]
    elif isinstance(node, ast.Call) and _call_name(node) == "all" and len(node.args) == 1:
        # every run must pass: the comprehension's parts are judged as if run once
        arg = node.args[0]
        parts: list[ast.AST] = list(t.children(arg)) if isinstance(arg, _COMPREHENSIONS) else [arg]
        for piece in parts:
            inner = t.children(piece) if isinstance(piece, ast.comprehension) else [piece]
            children += [(c, repeating, varying) for c in inner]
    else:
        children = [(c, repeating, varying) for c in t.children(node)]
    return children


def _repeat_found(
    t: PyTree,
    node: ast.Call,
    repeating: ast.AST | None,
    varying: frozenset[str],
    resolver: _Resolver,
    helpers: set[int],
) -> Iterator[tuple[ast.AST, ast.expr]]:
    name = node.func.id if isinstance(node.func, ast.Name) else None
    used = {
        n.id for a in (*node.args, *node.keywords) for n in t.walk(a) if isinstance(n, ast.Name)
    }
    if (
        name is not None
        and resolver.runs(node, helpers)
        and repeating is not None
        and not used & varying
    ):
        yield repeating, node
    if _call_name(node) in _MAPPERS:
        for arg in node.args:
            if (
                isinstance(arg, ast.Name)
                and resolver.runs(arg, helpers)
                and not resolver.reads_its_input(arg, helpers)
            ):
                yield node, arg


def _repeated_helper_calls(
    t: PyTree, helpers: set[int], resolver: _Resolver
) -> Iterator[tuple[ast.AST, ast.expr]]:
    """(the construct that repeats, the call or name) for every swallowing helper run more than
    once on the same input: in a loop's test or body, a comprehension, a lambda (which `map`,
    `sorted` or `filter` call again), or handed by name to `map`/`filter`, whatever consumes the
    results (`max(...)`, `True in [...]`, `sum(...) > 0`, `next(filter(...))`, a counter in the
    loop's test). A call whose arguments change from round to round (the loop's variables, a name
    the body assigns) is a loop over inputs, and so is a loop whose body or element uses its own
    variable elsewhere (`for path in paths: if probe(): check(path)`: the probe is asked on each
    input); in a `while`, only a call whose result decides the loop (its test, a name the test reads)
    repeats; `assert helper()` on each round and `all(...)` demand every run to pass, which is no
    retry. Judged along the path from the nearest function, class or module
    down to each call that runs a helper, so the module is not walked again."""
    children_of: dict[int, list[_Context]] = {}  # each node is reached by one path: its context
    for call in resolver.shapes:
        if not isinstance(call, ast.Call) or not (
            (isinstance(call.func, ast.Name) and resolver.runs(call, helpers))
            or _call_name(call) in _MAPPERS
        ):
            continue
        target = t.index(call)
        top = next(s for s in reversed(resolver.around[id(call)]) if not isinstance(s, ast.Lambda))
        current: _Context | None = (top, None, frozenset())
        while current is not None and current[0] is not call:
            node, repeating, varying = current
            entries = children_of.get(id(node))
            if entries is None:
                entries = children_of[id(node)] = _repeat_children(
                    t, node, repeating, varying, resolver, helpers
                )
            current = next((e for e in entries if t.contains(e[0], target)), None)
        if current is not None:
            yield from _repeat_found(t, call, current[1], current[2], resolver, helpers)


def _calls(
    t: PyTree, nodes: list[ast.AST], resolver: _Resolver, functions: set[int]
) -> ast.Call | None:
    """The first call by bare name, in `nodes`, of one of `functions`."""
    for node in nodes:
        for inner in t.walk(node):
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name):
                if resolver.runs(inner, functions):
                    return inner
    return None


def _helper_retry(
    t: PyTree, loop: ast.For | ast.AsyncFor | ast.While, helpers: set[int], resolver: _Resolver
) -> ast.Call | None:
    """A loop that runs a swallowing helper again until it reports success: `while not
    attempt():`, `if attempt(): break`, or `ok = attempt()` then `if ok: break` (not with the
    loop's own variable: a loop over inputs)."""
    call: ast.Call | None = None
    if isinstance(loop, ast.While) and isinstance(loop.test, ast.UnaryOp):
        if isinstance(loop.test.op, ast.Not):
            call = _calls(t, [loop.test.operand], resolver, helpers)
    if call is None:
        results: dict[str, ast.Call] = {}
        for stmt in loop.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, found = stmt.targets[0], _calls(t, [stmt.value], resolver, helpers)
                if isinstance(target, ast.Name) and found is not None:
                    results[target.id] = found
            if isinstance(stmt, ast.If) and _leaves(t, stmt.body):
                test = stmt.test
                if isinstance(test, ast.Name) and test.id in results:
                    call = results[test.id]
                elif isinstance(test, ast.Call):
                    call = _calls(t, [test], resolver, helpers)
            if call is not None:
                break
    if call is None:
        return None
    if isinstance(loop, ast.For | ast.AsyncFor):
        loop_vars = {n.id for n in t.walk(loop.target) if isinstance(n, ast.Name)}
        if loop_vars & {n.id for n in t.walk(call) if isinstance(n, ast.Name)}:
            return None
    return call


def _generator_retry(t: PyTree, node: ast.Call, helpers: set[int], resolver: _Resolver) -> bool:
    """`any(attempt() for _ in range(3))`: a swallowing helper called until it returns true."""
    if _call_name(node) != "any" or len(node.args) != 1:
        return False
    gen = node.args[0]
    if not isinstance(gen, ast.GeneratorExp | ast.ListComp) or len(gen.generators) != 1:
        return False
    loop = gen.generators[0]
    loop_vars = {n.id for n in t.walk(loop.target) if isinstance(n, ast.Name)}
    call = _calls(t, [gen.elt], resolver, helpers)
    return (
        call is not None
        and _call_name(loop.iter) == "range"
        and not loop_vars & {n.id for n in t.walk(call) if isinstance(n, ast.Name)}
    )


def _recursive_retry(
    t: PyTree, func: ast.FunctionDef | ast.AsyncFunctionDef, resolver: _Resolver
) -> ast.Call | None:
    """A function that calls itself again from an `except` of its own body."""
    for inner in resolver.own_body(func):
        if isinstance(inner, ast.Try | ast.TryStar):
            for handler in inner.handlers:
                call = _calls(t, list(handler.body), resolver, {id(func)})
                if call is not None:
                    return call
    return None


_RETRY_LIBRARIES = ("tenacity", "backoff", "retrying", "retry", "stamina")
# a module whose text names none of them imports none of them: not walked for imports
_LIBRARY_WORDS = re.compile(r"\b(?:tenacity|backoff|retrying|retry|stamina)\b")
_LIBRARY_CALLS = frozenset(
    {"retry", "on_exception", "on_predicate", "Retrying", "AsyncRetrying", "retry_context"}
)


def _library_names(imports: list[ast.Import | ast.ImportFrom]) -> tuple[set[str], set[str]]:
    """(module aliases, imported names) of the retry libraries this module imports."""
    aliases: set[str] = set()
    names: set[str] = set()
    for node in imports:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in _RETRY_LIBRARIES:
                    aliases.add(alias.asname or alias.name.split(".")[0])
        elif node.module:
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


def _observes(statements: list[ast.stmt]) -> bool:
    """Statements that only read state and check it: assignments, `assert` and assertion helpers
    (`self.assertEqual`), `if ...: raise`, `return`, a `for` over things each checked so (no other
    call run for its effect, no `with`, no `while`): a poll's body."""
    for stmt in statements:
        if isinstance(stmt, ast.If):
            if not (_observes(stmt.body) and _observes(stmt.orelse)):
                return False
        elif isinstance(stmt, ast.For):
            if not (_observes(stmt.body) and _observes(stmt.orelse)):
                return False  # a check of each of several things (`for worker in workers:`)
        elif isinstance(stmt, ast.Expr):
            if not isinstance(stmt.value, ast.Constant) and not _call_name(stmt.value).startswith(
                "assert"
            ):
                return False  # a call for its effect (not an assertion helper): an act
        elif not isinstance(
            stmt, ast.Assign | ast.AnnAssign | ast.Assert | ast.Return | ast.Raise | ast.Pass
        ):
            return False
    return True


def _is_fixture(decorator: ast.expr) -> bool:
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("fixture", "yield_fixture")


# the keywords that pause a retry library between tries: `wait=` (tenacity), `delay=`/`backoff=`
# (retry, retrying's `wait_fixed=`), `interval=`
_PACING = ("wait", "delay", "backoff", "interval", "sleep", "jitter")


def _library_poll(func: ast.FunctionDef | ast.AsyncFunctionDef, decorator: ast.expr) -> bool:
    """A retry library that waits for a condition rather than re-running a test: on a helper (not a
    test, not a fixture) that only reads state and checks it, paced (`wait=...`; backoff always
    waits between tries). The test's act runs outside it, once; a failing check means "not yet"."""
    if func.name.startswith("test") or any(_is_fixture(d) for d in func.decorator_list):
        return False
    if not isinstance(decorator, ast.Call):
        return False
    paced = _call_name(decorator) in ("on_exception", "on_predicate") or any(
        k.arg is not None and k.arg.startswith(_PACING) for k in decorator.keywords
    )
    return paced and _observes(func.body)


# the failures of a test's own checks; caught explicitly, they are the test's failure
_CHECK_FAILURES = frozenset({"AssertionError", "Failed"})
_SKIPS = frozenset({"skip", "xfail", "skipTest"})


def _checks(t: PyTree, statements: list[ast.stmt], given: frozenset[str]) -> bool:
    """Whether these statements run a test's own check: an `assert`, an assertion helper
    (`assert_allclose`, `self.assertEqual`), or a test function a wrapper was handed (`func()`
    where `func` is a parameter of an enclosing function: a decorator running the test)."""
    for node in _own_nodes(t, statements):
        if isinstance(node, ast.Assert):
            return True
        if isinstance(node, ast.Call):
            if _call_name(node).startswith("assert"):
                return True
            if isinstance(node.func, ast.Name) and node.func.id in given:
                return True
    return False


def _unguarded_skip(t: PyTree, handler: ast.ExceptHandler, local: set[str]) -> bool:
    """A skip or xfail in the handler that no premise check guards: an `if` on the test's own
    state (a name its function assigned: `if w() is not None: pytest.skip(...)`, the object the
    premise needed was not freed) tells an unmet premise from a failure; one on a platform
    constant (`if IS_PYPY:`) forgives the failure where it happens."""
    stack: list[tuple[ast.AST, bool]] = [(s, False) for s in handler.body]
    while stack:
        node, guarded = stack.pop()
        if isinstance(node, (*_FUNCTIONS, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call) and _call_name(node) in _SKIPS and not guarded:
            return True
        if isinstance(node, ast.If):
            premise = guarded or bool(_loads(t, [node.test]) & local)
            stack.append((node.test, guarded))
            stack.extend((c, premise) for c in (*node.body, *node.orelse))
            continue
        stack.extend((c, guarded) for c in t.children(node))
    return False


def _run_at_import(resolver: _Resolver) -> set[int]:
    """Module-level functions, not tests, that only the module's top level calls
    (`_ensure_initialized()` at import): set-up before any test, deciding no test's verdict."""
    top: set[int] = set()
    inside: set[int] = set()
    for node in resolver.shapes:
        if isinstance(node, ast.Call):
            around = resolver.around[id(node)]
            (top if len(around) == 1 else inside).update(resolver.targets(node))
    top_level = {id(s) for s in resolver.t.module.body}
    module_functions = {id(f) for f in resolver.functions if not _is_test(f) and id(f) in top_level}
    return (top - inside) & module_functions


def _forgiven(t: PyTree, resolver: _Resolver) -> Iterator[tuple[ast.ExceptHandler, str]]:
    """(handler, what it turns the failure into) for every `except` that catches a test's own
    failure (an `AssertionError` or any exception, around an `assert`, an assertion helper or a
    test function handed to a wrapper) and turns it into an xfail or skip no premise check guards,
    or a quiet return: a flaky-test decorator by another name (`@flaky_on_pypy` xfails the
    failure). An `AssertionError` the code under test raises (`func()` of the test's own making,
    its effects asserted after) is its output, not the test's failure. Read from the `try`
    blocks the module's one walk gathered."""
    locals_of: dict[int, set[str]] = {}
    at_import = _run_at_import(resolver)
    for node, scopes in resolver.tries:
        chain = [s for s in scopes if isinstance(s, _FUNCTIONS)]
        if chain and id(chain[0]) in at_import:
            continue  # set-up run when the module is imported (a warm-up): no test's verdict
        if not node.orelse and chain:
            current = chain[-1]
            given = frozenset(name for f in chain[:-1] for name in _params(f))
            # a body that raises on purpose (`raise ValueError("exit the context")`) is caught
            # for that raise: an exit the test makes, not its failure
            deliberate = any(isinstance(n, ast.Raise) for n in _own_nodes(t, node.body))
            if not deliberate and _checks(t, node.body, given):
                for handler in node.handlers:
                    caught = _caught(t, handler)
                    if caught is not None and not caught & (
                        _CHECK_FAILURES | {"Exception", "BaseException"}
                    ):
                        continue
                    if id(current) not in locals_of:
                        locals_of[id(current)] = _stored(t, resolver.own_body(current))
                    if _unguarded_skip(t, handler, locals_of[id(current)]):
                        yield handler, "an xfail or skip"
                    elif all(
                        isinstance(s, ast.Pass)
                        or (isinstance(s, ast.Return) and s.value is None)
                        or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
                        for s in handler.body
                    ):
                        yield handler, "a pass"


def check(ctx: FileContext) -> Iterator[Finding]:
    module = ctx.module
    if not isinstance(module, ast.Module):
        return
    t = ctx.tree if ctx.tree is not None and ctx.tree.module is module else PyTree(module, 10**6)
    resolver = _Resolver(t)
    helpers = _swallowing_helpers(t, resolver)
    aliases, names = (
        _library_names(resolver.imports) if _LIBRARY_WORDS.search(ctx.text) else (set(), set())
    )

    def at(node: ast.AST, message: str) -> Finding:
        line, column = getattr(node, "lineno", 1), getattr(node, "col_offset", 0) + 1
        return ctx.finding(RULE, line, column, message)

    rerun = "a failure is re-run inside the test"
    flagged: set[int] = set()  # constructs the shapes below already named
    owners = _Owners(t, resolver)
    for node in resolver.shapes:
        owners.enter(node)
        if isinstance(node, ast.For | ast.AsyncFor | ast.While):
            found = _retry_try(t, node)
            if found is not None and _no_verdict_rerun(t, node, found, owners):
                found = None
            call = None if found is not None else _helper_retry(t, node, helpers, resolver)
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
        elif isinstance(node, ast.Call) and _generator_retry(t, node, helpers, resolver):
            flagged.update(id(arg) for arg in node.args)
            yield at(
                node,
                "any(...) runs a helper that swallows its act's failure until it succeeds: "
                + rerun,
            )
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            recursive = _recursive_retry(t, node, resolver)
            if recursive is not None:
                yield at(recursive, f"{node.name}() calls itself again from its `except`: " + rerun)
            for decorator in node.decorator_list:
                if _library_retry(decorator, aliases, names) and not _library_poll(node, decorator):
                    yield at(decorator, f"{node.name} is wrapped by a retry library: " + rerun)
    for handler, outcome in _forgiven(t, resolver):
        yield at(
            handler,
            f"an `except` turns the test's own failure into {outcome}: a failure is forgiven "
            "inside the test",
        )
    by_id = {id(f): f for f in resolver.functions}
    for construct, run in _repeated_helper_calls(t, helpers, resolver) if helpers else ():
        if id(construct) in flagged:
            continue
        if (
            isinstance(construct, _LOOPS)
            and (_paced(t, construct) or _clock_bounded(t, construct))
            and all(_reading_helper(t, by_id[i]) for i in resolver.targets(run) if i in by_id)
        ):
            continue  # a helper that only reads, asked again with a pause: a poll
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


# --- loops that re-run no verdict: the principle's exceptions, judged on a loop `_retry_try` found

# calls that change something (a write, a send, a start): an act re-done, never a readiness probe
_CHANGES = re.compile(
    r"(?:post|put|patch|delete|send|sendall|write|upload|insert|publish|submit|commit|save"
    r"|update|remove|push|append|invoke|apply|run|start|restart|kill|stop)(?:_\w*)?"
)


class _Owners:
    """The functions around each loop, kept by the one walk over `resolver.shapes` (pre-order: a
    stack of open functions), and which functions the module applies: calls (`retry_on(...)`,
    `helper()`), decorators (`@retry_on_failure`) and dunder methods (run by Python itself)."""

    def __init__(self, t: PyTree, resolver: _Resolver) -> None:
        self.t = t
        self.stack: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self.applied: set[int] = set()
        # functions handed on as values: an argument (`side_effect=fake`) or set on an object
        # (`conn.retry.call_with_retry = fake`)
        self.handed: set[int] = set()
        for assign in resolver.assigns:
            if isinstance(assign.value, ast.Name) and any(
                isinstance(target, ast.Attribute | ast.Subscript) for target in assign.targets
            ):
                self.handed.update(resolver.targets(assign.value))
        for node in resolver.shapes:
            if isinstance(node, ast.Call):
                self.applied.update(resolver.targets(node))
                for value in (*node.args, *(k.value for k in node.keywords)):
                    if isinstance(value, ast.Name):
                        self.handed.update(resolver.targets(value))
            elif isinstance(node, _FUNCTIONS):
                if node.name.startswith("__") and node.name.endswith("__"):
                    self.applied.add(id(node))
                for decorator in node.decorator_list:
                    target = decorator.func if isinstance(decorator, ast.Call) else decorator
                    self.applied.update(resolver.targets(target))

    def enter(self, node: ast.AST) -> None:
        """Called for every shape in source order: keeps the stack to the functions around it."""
        index = self.t.index(node)
        while self.stack and index >= self.t.end[self.t.index(self.stack[-1])]:
            self.stack.pop()
        if isinstance(node, _FUNCTIONS):
            self.stack.append(node)


def _is_test(func: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return func.name.startswith("test")


def _catches_no_test_failure(t: PyTree, handlers: list[ast.ExceptHandler]) -> bool:
    """Every handler names its exceptions, and none is a test's failure (`AssertionError`, any
    exception, or a class the tests made)."""
    for handler in handlers:
        caught = _caught(t, handler)
        if caught is None or caught & _TEST_FAILURES:
            return False
    return bool(handlers)


def _readiness_wait(
    t: PyTree, loop: _Loop, act: list[ast.stmt], chain: list[ast.FunctionDef | ast.AsyncFunctionDef]
) -> bool:
    """A wait for a precondition in a helper or fixture (no test around it): paced or under a
    deadline, its act runs no function it was handed, changes nothing (`socket.
    create_connection(...)`, `client.ping()`, reading the process table and asserting on it) and
    returns no call's result (a wait reports readiness; `return client.compute(job)` hands the
    test what it checks): a probe asked again, whatever it raises while the thing comes up."""
    if not chain or any(_is_test(f) for f in chain):
        return False
    if not (_paced(t, loop) or _clock_bounded(t, loop)):
        return False
    given = frozenset(name for f in chain for name in _params(f))
    if any(isinstance(n, ast.Call) and _call_name(n) in given for n in t.walk_all(act)):
        return False  # runs a function it was handed: a wrapper re-running it
    if any(
        isinstance(n, ast.Return) and any(isinstance(c, ast.Call) for c in t.walk_all([n.value]))
        for n in _own_nodes(t, act)
    ):
        return False  # hands the act's result to the caller (`return client.compute(job)`)
    return not any(
        isinstance(n, ast.Call) and _CHANGES.fullmatch(_call_name(n)) for n in t.walk_all(act)
    )


def _library_stand_in(
    t: PyTree,
    act: list[ast.stmt],
    handlers: list[ast.ExceptHandler],
    chain: list[ast.FunctionDef | ast.AsyncFunctionDef],
    owners: _Owners,
) -> bool:
    """The library's own retry, imitated as a value handed to the code under test (`conn.retry.
    call_with_retry = fake`, `side_effect=retrying`): the loop runs a callable it was given,
    retries only the library's errors, one of the function given the callable and the functions
    around it (up to the test) is handed on as a value, and none is called or applied as a
    decorator in the module. A `retry_on(ConnectionError)` decorator, applied to tests here or in
    another module, is handed on as no value: it stays a retry."""
    if not _catches_no_test_failure(t, handlers):
        return False
    called = {
        n.func.id
        for n in t.walk_all(act)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    receiver = next((i for i in range(len(chain) - 1, -1, -1) if _params(chain[i]) & called), None)
    if receiver is None:
        return False
    handed = False
    for func in reversed(chain[: receiver + 1]):
        if _is_test(func):
            break
        if id(func) in owners.applied:
            return False
        handed = handed or id(func) in owners.handed
    return handed


def _asserted_after(
    t: PyTree,
    loop: _Loop,
    handlers: list[ast.ExceptHandler],
    chain: list[ast.FunctionDef | ast.AsyncFunctionDef],
) -> bool:
    """Errors the test plants and then asserts on: the handlers catch no test failure, and either
    each handler checks the state the error came in (`except ConnectionError: assert self.state
    in (1, 2)`: the disconnect the test injected) or an `assert` after the loop, in the same
    function, reads what the loop counted (its variable, a name the handler sets, the caught
    error): `assert i > 0`, `assert interruptions == 2`."""
    if not chain or not _catches_no_test_failure(t, handlers):
        return False
    if all(_checks(t, h.body, frozenset()) for h in handlers):
        return True
    counted = {h.name for h in handlers if h.name is not None} | _stored(t, [*handlers])
    if isinstance(loop, ast.For | ast.AsyncFor):
        counted |= _stored(t, [loop.target])
    counted |= {
        n.target.id
        for h in handlers
        for n in t.walk(h)
        if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
    }
    start, stop = t.end[t.index(loop)], t.end[t.index(chain[-1])]
    for node in t.nodes[start:stop]:
        if isinstance(node, ast.Assert) and _loads(t, [node.test]) & counted:
            return True
        if (
            isinstance(node, ast.Call)
            and _call_name(node).startswith("assert")
            and _loads(t, node.args) & counted
        ):
            return True
    return False


def _no_verdict_rerun(t: PyTree, loop: _Loop, found: ast.stmt, owners: _Owners) -> bool:
    """Whether the retrying loop `found` re-runs no verdict of the test: a readiness wait, the
    library's own retry handed to the code under test, or a count of planted errors asserted on."""
    if not isinstance(found, ast.Try | ast.TryStar):
        return False
    chain = list(owners.stack)
    handlers = [h for h in found.handlers if _goes_round(t, h)]
    return (
        _readiness_wait(t, loop, found.body, chain)
        or _library_stand_in(t, found.body, handlers, chain, owners)
        or _asserted_after(t, loop, handlers, chain)
    )

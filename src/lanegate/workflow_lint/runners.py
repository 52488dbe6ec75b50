"""Test runners as data: how each is invoked, and the flags that make it re-run failing tests.

One row per runner. `programs` are the executable names; `subcommands` the first arguments that make a
general tool run tests (`cargo test`, `spin test`); `retry_flags` the options that re-run failures
(written `--flag N` or `--flag=N`). Task runners (tox, nox, hatch, make, spin, pixi, npm scripts) hand
their extra arguments to the runner underneath, so the flags of the runners they wrap apply to them.
"""

from __future__ import annotations

from dataclasses import dataclass

# flags that mean "re-run failures" for whatever reads them
UNAMBIGUOUS_FLAGS = frozenset(
    {
        "--reruns",
        "--reruns-delay",
        "--only-rerun",
        "--rerun-except",
        "--force-reruns",
        "--force-flaky",
        "--rerun-fails",
    }
)
# flags that mean it only on a pytest command line (`pip --retries` and `curl --retry` are network retries)
PYTEST_ONLY_FLAGS = frozenset(
    {"--retries", "--retry-delay", "--cumulative-timing", "--max-runs", "--min-passes"}
)
_PYTEST_FLAGS = UNAMBIGUOUS_FLAGS | PYTEST_ONLY_FLAGS
_JS_FLAGS = frozenset({"--retries", "--retry"})


@dataclass(frozen=True, slots=True)
class Runner:
    """One test runner: how it is called and which of its flags re-run failing tests."""

    name: str
    programs: frozenset[str]
    subcommands: frozenset[str] = frozenset()  # empty: the program itself runs tests
    retry_flags: frozenset[str] = frozenset()
    retry_properties: frozenset[str] = frozenset()  # `-Dname=N` system properties (maven)


RUNNERS: tuple[Runner, ...] = (
    Runner("pytest", frozenset({"pytest", "py.test"}), retry_flags=_PYTEST_FLAGS),
    Runner("unittest", frozenset({"unittest", "nose2", "nosetests", "stestr", "trial"})),
    Runner("tox", frozenset({"tox"}), retry_flags=_PYTEST_FLAGS),
    Runner("nox", frozenset({"nox"}), retry_flags=_PYTEST_FLAGS),
    Runner(
        "hatch",
        frozenset({"hatch"}),
        frozenset({"test"}),
        retry_flags=_PYTEST_FLAGS,
    ),
    Runner("spin", frozenset({"spin"}), frozenset({"test"}), retry_flags=_PYTEST_FLAGS),
    Runner("pixi", frozenset({"pixi"}), frozenset({"test"}), retry_flags=_PYTEST_FLAGS),
    Runner(
        "make",
        frozenset({"make", "just", "task", "invoke", "inv", "gulp", "grunt"}),
        frozenset({"test"}),
    ),
    Runner("hypothesis", frozenset({"hypothesis"}), frozenset({"fuzz"})),
    Runner(
        "npm scripts",
        frozenset({"npm", "yarn", "pnpm", "bun", "npx"}),
        frozenset({"test", "jest", "mocha", "vitest", "playwright", "cypress"}),
        retry_flags=_JS_FLAGS,
    ),
    Runner("jest", frozenset({"jest"}), retry_flags=_JS_FLAGS),
    Runner("mocha", frozenset({"mocha"}), retry_flags=frozenset({"--retries"})),
    Runner("vitest", frozenset({"vitest"}), retry_flags=frozenset({"--retry"})),
    Runner("playwright", frozenset({"playwright"}), retry_flags=frozenset({"--retries"})),
    Runner("cypress", frozenset({"cypress"})),
    Runner(
        "cargo",
        frozenset({"cargo"}),
        frozenset({"test", "nextest", "t"}),
        retry_flags=frozenset({"--retries", "--flaky-result"}),
    ),
    Runner("go test", frozenset({"go"}), frozenset({"test"})),
    Runner("gotestsum", frozenset({"gotestsum"}), retry_flags=frozenset({"--rerun-fails"})),
    Runner("rspec", frozenset({"rspec"}), retry_flags=frozenset({"--retry", "--only-failures"})),
    Runner(
        "rake",
        frozenset({"rake"}),
        frozenset({"test", "spec", "rspec", "rspec-rerun", "test:all"}),
        retry_flags=frozenset({"--retry"}),
    ),
    Runner(
        "maven",
        frozenset({"mvn", "mvnw", "./mvnw"}),
        frozenset({"test", "verify", "install", "package"}),
        retry_properties=frozenset(
            {"surefire.rerunFailingTestsCount", "failsafe.rerunFailingTestsCount"}
        ),
    ),
    Runner(
        "gradle",
        frozenset({"gradle", "gradlew", "./gradlew"}),
        frozenset({"test", "check", "build"}),
        retry_properties=frozenset({"maxRetries", "testRetry.maxRetries"}),
    ),
    Runner("ctest", frozenset({"ctest"})),
    Runner("phpunit", frozenset({"phpunit", "pest", "paratest", "codecept"})),
    Runner("composer", frozenset({"composer"}), frozenset({"test", "phpunit", "pest"})),
)
# the package managers' own commands: any other first word runs a package script (`yarn smoke`)
_PACKAGE_COMMANDS = frozenset(
    """install i ci add remove rm uninstall update upgrade up audit publish pack version config cache
    global why info view init create link unlink login logout exec dlx x outdated list ls dedupe
    prune rebuild set workspace workspaces bin root doctor help start build lint format dev serve
    deploy release docs clean""".split()
)
_TEST_SCRIPT_PARTS = ("test", "spec", "e2e", "smoke")
# variables whose value is handed to a runner as options (minitest's `TESTOPTS="--retry"`)
OPTION_VARIABLES: dict[str, frozenset[str]] = {
    "TESTOPTS": frozenset({"--retry", "--retries"}),
    "TEST_OPTS": frozenset({"--retry", "--retries"}),
}
# task names that re-run failures whatever the flags (`rake rspec-rerun`)
RETRY_TASKS = frozenset({"rspec-rerun", "rerun", "test:rerun", "retry"})
_BY_PROGRAM: dict[str, tuple[Runner, ...]] = {}
for _runner in RUNNERS:
    for _program in _runner.programs:
        _BY_PROGRAM[_program] = (*_BY_PROGRAM.get(_program, ()), _runner)


def _package_test_script(runner: Runner, rest: list[str], positional: list[str]) -> bool:
    """`npm run testci`, `yarn test:unit`, `pnpm e2e`: a package script whose name says it tests,
    or any package script handed a retry flag (`yarn smoke --retries=2`: npm and yarn have no such
    option of their own, so the script's runner reads it)."""
    if runner.name != "npm scripts" or not positional:
        return False
    script = (
        positional[1]
        if positional[0] in ("run", "run-script") and len(positional) > 1
        else positional[0]
    )
    if positional[0] not in ("run", "run-script") and script in _PACKAGE_COMMANDS:
        return False
    named = any(part in script.lower() for part in _TEST_SCRIPT_PARTS)
    return named or any(w.split("=", 1)[0] in runner.retry_flags for w in rest)


def runner_of(program: str, rest: list[str]) -> Runner | None:
    """The runner a command line runs: `program` (its base name or path as written) and the words
    after it; None when it is not a test command this table knows."""
    candidates = _BY_PROGRAM.get(program) or _BY_PROGRAM.get(program.rsplit("/", 1)[-1], ())
    positional = [w for w in rest if not w.startswith("-")][:3]
    for runner in candidates:
        if _package_test_script(runner, rest, positional):
            return runner
        if not runner.subcommands:
            return runner
        words = positional[1:] if positional[:1] == ["run"] else positional
        # the first or second positional: `cargo test`, and an alias before it, `cargo x test`
        if any(
            word in runner.subcommands
            or word.split(":", 1)[0] in runner.subcommands
            or word in RETRY_TASKS
            for word in words[:2]
        ):
            return runner
    return None


def variable_retry_options(name: str, words: list[str]) -> list[tuple[int, str]]:
    """(index, flag) of the retry options in the value of an option variable (`TESTOPTS`)."""
    flags = OPTION_VARIABLES.get(name, frozenset())
    return [(i, w.split("=", 1)[0]) for i, w in enumerate(words) if w.split("=", 1)[0] in flags]


def retry_options(runner: Runner, words: list[str]) -> list[tuple[int, str]]:
    """(index, flag as shown) of every option in `words` that makes `runner` re-run failures."""
    found: list[tuple[int, str]] = []
    for index, word in enumerate(words):
        name = word.split("=", 1)[0]
        if name in runner.retry_flags:
            found.append((index, name))
        elif word.startswith("-D") and name[2:] in runner.retry_properties:
            found.append((index, name))
        elif word in RETRY_TASKS and index <= 1:
            found.append((index, word))
    return found

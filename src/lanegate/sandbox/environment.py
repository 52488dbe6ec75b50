"""Which of lanegate's environment variables a process that runs head code starts with.

Head code reads its whole environment, and the ledgers, the score report and the pull request
comment carry strings it chose (test ids: `@pytest.mark.parametrize("v", [os.environ["TOKEN"]])`
names a test after a secret), so a variable that reaches a test is as good as published, network
or not. A runner's environment holds what its workflow put there (`GITHUB_TOKEN`, cloud keys, a
registry password at job level), a developer's shell holds more. So head code gets a short list of
variables no test can do without or that say nothing secret (`PASSTHROUGH`), the markers by which
Hypothesis and test suites tell a CI run (`CI_MARKERS`, where the lane asks for them), and the
names the trusted policy lists in `sandbox.pass_env` (a database URL the suite needs); the lanes
then add what they set themselves. Everything else, `PYTEST_ADDOPTS` and `PYTEST_PLUGINS`
included, stays outside, whether or not the sandbox is on, so that both modes judge the same
tests under the same environment.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PASSTHROUGH = (
    "PATH",
    "HOME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "USER",
    "LOGNAME",
    "VIRTUAL_ENV",
    "PYTHONPATH",
    "SYSTEMROOT",
    "PYTHONUTF8",
)
# what Hypothesis reads to choose its `ci` profile (derandomized examples), as test suites do
CI_MARKERS = (
    "CI",
    "GITHUB_ACTIONS",
    "GITLAB_CI",
    "CIRCLECI",
    "CIRRUS_CI",
    "BUILDKITE",
    "TF_BUILD",
    "TEAMCITY_VERSION",
    "CODEBUILD_BUILD_ID",
    "HEROKU_TEST_RUN_ID",
    "bamboo.buildKey",
)


def passed_environment(
    source: Mapping[str, str], pass_env: Iterable[str] = (), *, ci_markers: bool = True
) -> dict[str, str]:
    """The variables of `source` that head code may see (see the module docstring)."""
    names = {*PASSTHROUGH, *pass_env, *(CI_MARKERS if ci_markers else ())}
    return {name: value for name, value in source.items() if name in names}

"""Actions known never to run the caller's tests, by what they are (not by the words in their name):
each row is an `owner/repo[/path]` pattern (`*` for any path below it) and what the action does.

A step that uses one of them produces no test evidence, so `continue-on-error` on it forgives nothing
the gate reads. An action not in the table and not recognised otherwise stays evidence (fail closed).
Add a row with what the action does; the test suite checks each row against a workflow using it.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

# (pattern, what the action does): lower case, matched on `owner/repo[/path]` of `uses:` (no ref)
NON_TEST_ACTIONS: tuple[tuple[str, str], ...] = (
    # coverage and test-result uploads and comments: they read reports, they run nothing
    ("codecov/codecov-action", "uploads coverage to Codecov"),
    ("codecov/test-results-action", "uploads test results to Codecov"),
    ("coverallsapp/github-action", "uploads coverage to Coveralls"),
    ("py-cov-action/python-coverage-comment-action", "comments coverage on the pull request"),
    ("mishakav/pytest-coverage-comment", "comments coverage on the pull request"),
    ("irongut/codecoveragesummary", "summarises a coverage report"),
    ("5monkeys/cobertura-action", "comments coverage on the pull request"),
    ("orgoro/coverage", "comments coverage on the pull request"),
    # caches and build layers
    ("satackey/action-docker-layer-caching", "caches docker layers"),
    ("jpribyl/action-docker-layer-caching", "caches docker layers"),
    ("swatinem/rust-cache", "caches Rust build output"),
    ("mozilla-actions/sccache-action", "sets up a compiler cache"),
    ("hendrikmuhs/ccache-action", "sets up a compiler cache"),
    ("docker/setup-buildx-action", "sets up docker buildx"),
    ("docker/setup-qemu-action", "sets up QEMU emulation"),
    ("docker/metadata-action", "computes image tags"),
    # credentials and logins
    ("aws-actions/configure-aws-credentials", "configures cloud credentials"),
    ("google-github-actions/auth", "configures cloud credentials"),
    ("azure/login", "configures cloud credentials"),
    ("docker/login-action", "logs in to a registry"),
    ("webfactory/ssh-agent", "loads an SSH key"),
    ("actions/create-github-app-token", "creates a GitHub App token"),
    ("tibdex/github-app-token", "creates a GitHub App token"),
    # change detection and run control
    ("dorny/paths-filter", "detects changed paths"),
    ("tj-actions/changed-files", "detects changed files"),
    ("fkirc/skip-duplicate-actions", "decides whether to skip a duplicate run"),
    ("styfle/cancel-workflow-action", "cancels older runs"),
    ("technote-space/get-diff-action", "detects changed files"),
    # pull request and issue chores, notifications
    ("peter-evans/create-pull-request", "opens a pull request"),
    ("peter-evans/create-or-update-comment", "writes a comment"),
    ("peter-evans/find-comment", "finds a comment"),
    ("marocchino/sticky-pull-request-comment", "writes a comment"),
    ("thollander/actions-comment-pull-request", "writes a comment"),
    ("slackapi/slack-github-action", "notifies Slack"),
    ("8398a7/action-slack", "notifies Slack"),
    ("rtcamp/action-slack-notify", "notifies Slack"),
    ("zulip/github-actions-zulip/*", "notifies Zulip"),
    ("sarisia/actions-status-discord", "notifies Discord"),
    ("appleboy/discord-action", "notifies Discord"),
    ("appleboy/telegram-action", "notifies Telegram"),
    ("dawidd6/action-send-mail", "sends an email"),
    ("actions/labeler", "labels the pull request"),
    ("actions/stale", "marks stale issues"),
    # releases, publishing, provenance, security scans
    ("pypa/gh-action-pypi-publish", "publishes to PyPI"),
    ("softprops/action-gh-release", "creates a release"),
    ("jamesives/github-pages-deploy-action", "deploys pages"),
    ("peaceiris/actions-gh-pages", "deploys pages"),
    ("actions/attest-build-provenance", "attests build provenance"),
    ("github/codeql-action/*", "runs CodeQL analysis"),
    ("step-security/harden-runner", "hardens the runner"),
    ("ossf/scorecard-action", "runs the OpenSSF scorecard"),
    ("actions/dependency-review-action", "reviews dependencies"),
    # artifacts
    ("actions/upload-artifact", "uploads an artifact"),
    ("actions/download-artifact", "downloads an artifact"),
    ("actions/cache", "caches files"),
    ("actions/cache/*", "caches files"),
)


def non_test_action(slug: str) -> str | None:
    """What a known non-test action does, for `owner/repo[/path]` (any case); None when unknown."""
    name = slug.lower().strip("/")
    for pattern, what in NON_TEST_ACTIONS:
        if name == pattern or (pattern.endswith("/*") and fnmatchcase(name, pattern)):
            return what
    return None

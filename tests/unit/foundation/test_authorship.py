"""Authorship (SPEC 1): agent when a rule says so or when it cannot be told."""

from __future__ import annotations

import pytest

from lanegate.authorship import PullRequestFacts, decide
from lanegate.ledgers.models import AuthorKind
from lanegate.policy import AuthorshipPolicy

POLICY = AuthorshipPolicy(human_logins=("alice", "team-*"))


@pytest.mark.parametrize(
    ("facts", "kind", "why"),
    [
        (PullRequestFacts(), AuthorKind.AGENT, "unknown"),
        (PullRequestFacts(login="alice"), AuthorKind.HUMAN, "listed human"),
        (PullRequestFacts(login="team-bob"), AuthorKind.HUMAN, "listed human"),
        (PullRequestFacts(login="mallory"), AuthorKind.AGENT, "not a listed human"),
        (PullRequestFacts(login="renovate[bot]"), AuthorKind.AGENT, "matches '*[bot]'"),
        (PullRequestFacts(login="ALICE", labels=("Agent",)), AuthorKind.AGENT, "label 'agent'"),
        (PullRequestFacts(login="alice", user_type="Bot"), AuthorKind.AGENT, "Bot"),
        (
            PullRequestFacts(
                login="alice", commit_messages=("fix\n\nCo-authored-by: helper[bot] <x@y>",)
            ),
            AuthorKind.AGENT,
            "commit trailer",
        ),
        (
            PullRequestFacts(login="alice", commit_messages=("fix\n\nAgent: claude",)),
            AuthorKind.AGENT,
            "commit trailer",
        ),
        (
            PullRequestFacts(login="alice", commit_messages=("mentions an agent: in prose",)),
            AuthorKind.HUMAN,
            "listed human",
        ),
    ],
)
def test_decide(facts: PullRequestFacts, kind: AuthorKind, why: str) -> None:
    decision = decide(POLICY, facts)
    assert decision.kind is kind
    assert why in decision.reason


def test_agent_rules_beat_the_human_list() -> None:
    policy = AuthorshipPolicy(human_logins=("*",), agent_logins=("bot-*",))
    assert decide(policy, PullRequestFacts(login="bot-1")).kind is AuthorKind.AGENT
    assert decide(policy, PullRequestFacts(login="carol")).kind is AuthorKind.HUMAN


def test_no_human_list_means_every_diff_is_the_agents() -> None:
    policy = AuthorshipPolicy()
    assert decide(policy, PullRequestFacts(login="alice")).kind is AuthorKind.AGENT


def test_bot_glob_means_a_literal_bracket_suffix() -> None:
    # fnmatch alone reads `*[bot]` as "ends in b, o or t": 'bob' would be an agent, 'x[bot]' not
    policy = AuthorshipPolicy(human_logins=("*",))
    assert decide(policy, PullRequestFacts(login="bob")).kind is AuthorKind.HUMAN
    assert decide(policy, PullRequestFacts(login="robot")).kind is AuthorKind.HUMAN
    assert decide(policy, PullRequestFacts(login="dependabot[bot]")).kind is AuthorKind.AGENT

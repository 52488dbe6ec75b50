"""The policy loader: strict types and ranges, one source of truth, and `lanegate config` origins."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from lanegate.cli.main import main
from lanegate.errors import PolicyError
from lanegate.policy import Policy, load_policy, policy_from_mapping
from tests.gitrepo import Repo

ROOT = Path(__file__).resolve().parents[3]


def _load(tmp_path: Path, text: str) -> Policy:
    (tmp_path / "lanegate.toml").write_text(text, encoding="utf-8")
    return load_policy(tmp_path)


def test_no_file_gives_the_strict_defaults(tmp_path: Path) -> None:
    policy = load_policy(tmp_path)
    assert policy == Policy()
    assert policy.lane.flake_budget == 0 and policy.lane.retries_as_pass is False
    assert policy.properties.mutant_kill_ratio == 0.6 and policy.authorship.min_replays == 3
    assert all(origin == "default" for _, _, origin in policy.items())


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[lane]\nnmae = 'x'\n", "lanegate.toml: lane.nmae: unknown key"),
        ("[lanes]\nname = 'x'\n", "lanegate.toml: lanes: unknown table"),
        ("lane = 3\n", "lane: expected a table"),
        (
            "[properties]\nmax_mutants = true\n",
            "properties.max_mutants: expected an integer, got bool",
        ),
        (
            "[properties]\nmax_mutants = 1.5\n",
            "properties.max_mutants: expected an integer, got float",
        ),
        ("[properties]\nmax_mutants = -1\n", "properties.max_mutants: must be >= 0"),
        (
            "[properties]\nmin_mutants_per_function = -1\n",
            "properties.min_mutants_per_function: must be >= 0",
        ),
        (
            "[properties]\nmin_mutants_per_function = '4'\n",
            "properties.min_mutants_per_function: expected an integer, got str",
        ),
        ("[properties]\nmutant_draw = -1\n", "properties.mutant_draw: must be between 0 and"),
        (
            "[properties]\nmutant_draw = 4611686018427387904\n",
            "properties.mutant_draw: must be between 0 and",
        ),
        ("[properties]\nmutant_draw = '7'\n", "properties.mutant_draw: expected an integer"),
        (
            "[properties]\nmutant_kill_ratio = 0\n",
            "properties.mutant_kill_ratio: must be in (0, 1]",
        ),
        ("[properties]\nmutant_kill_ratio = 1.5\n", "must be in (0, 1]"),
        ("[properties]\nmutant_kill_ratio = nan\n", "must be a finite number"),
        ("[properties]\nmutant_kill_ratio = true\n", "expected a number, got bool"),
        ("[lane]\nmax_wall_seconds = inf\n", "must be a finite number"),
        ("[lane]\nmax_wall_seconds = 0\n", "must be > 0"),
        ("[lane]\nname = ''\n", "lane.name: must not be empty"),
        ("[lane]\nname = 3\n", "lane.name: expected a string, got int"),
        ("[lane]\nflake_budget = 1\n", "lane.flake_budget: must be 0 in Lane B"),
        ("[lane]\nretries_as_pass = true\n", "lane.retries_as_pass: must be false in Lane B"),
        ("[lane]\nforbidden_pytest_plugins = ['a', 1]\n", "expected an array of strings"),
        ("[authorship]\nmin_replays = 2\n", "authorship.min_replays: must be >= 3"),
        (
            "[fixtures]\nrequire_digest = 1\n",
            "fixtures.require_digest: expected true or false, got int",
        ),
        ("[fixtures]\ncases = 'x'\n", "fixtures.cases: expected an array of tables"),
        ("[lane\n", "invalid TOML"),
        ("[sandbox]\npass_env = 'DB_URL'\n", "sandbox.pass_env: expected an array of strings"),
        (
            "[sandbox]\npass_env = ['DB URL']\n",
            "sandbox.pass_env: 'DB URL' is not an environment variable name",
        ),
        (
            "[sandbox]\npass_env = ['DB_URL', 'PYTEST_ADDOPTS']\n",
            "sandbox.pass_env: 'PYTEST_ADDOPTS' is set by the lanes themselves",
        ),
        ("[sandbox]\npass_env = ['PYTHONPATH']\n", "'PYTHONPATH' is set by the lanes themselves"),
        ("[sandbox]\npass_env = ['LD_PRELOAD']\n", "'LD_PRELOAD' is set by the lanes themselves"),
    ],
)
def test_bad_policies_name_file_key_and_expectation(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(PolicyError) as info:
        _load(tmp_path, text)
    assert needle in info.value.diagnostic()
    assert "\n" not in info.value.diagnostic()


_CASE = "[[fixtures.cases]]\nid = 'c1'\ninput = 'in'\nexpected = 'out'\n"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (_CASE, "give exactly one of 'callable' or 'command'"),
        (_CASE + "callable = 'm:f'\ncommand = ['x']\n", "give exactly one"),
        (_CASE + "callable = 'not a callable'\n", "is not of the form module:function"),
        (_CASE + "command = []\n", "command: must not be empty"),
        (_CASE + "callable = 'm:f'\nextra = 1\n", "fixtures.cases[0].extra: unknown key"),
        (
            "[[fixtures.cases]]\nid = 'c1'\ninput = 'in'\ncallable = 'm:f'\n",
            "expected: required key is missing",
        ),
        (
            "[[fixtures.cases]]\nid = 'has space'\ninput = 'i'\nexpected = 'o'\ncallable = 'm:f'\n",
            "must match",
        ),
        (_CASE + "callable = 'm:f'\n" + _CASE + "callable = 'm:g'\n", "duplicate id 'c1'"),
        ("[fixtures]\ncases = [1]\n", "fixtures.cases[0]: expected a table, got int"),
    ],
)
def test_fixture_cases_are_validated(tmp_path: Path, text: str, needle: str) -> None:
    with pytest.raises(PolicyError) as info:
        _load(tmp_path, text)
    assert needle in info.value.diagnostic()


def test_valid_cases_and_exemptions_load(tmp_path: Path) -> None:
    policy = _load(
        tmp_path,
        _CASE
        + "callable = 'pkg.mod:run'\n"
        + "[[fixtures.cases]]\nid = 'c2'\ninput = 'i'\nexpected = 'o'\ncommand = ['tool', '--x']\n"
        + "[[lint.exemptions]]\nrule = 'continue-on-error'\ntarget = 'w.yml'\nreason = 'tracked'\n"
        + "expires = 2027-01-31\n",
    )
    assert [c.id for c in policy.fixtures.cases] == ["c1", "c2"]
    assert policy.fixtures.cases[1].command == ("tool", "--x")
    assert policy.lint.exemptions[0].expires.isoformat() == "2027-01-31"


@pytest.mark.parametrize(
    ("expires", "needle"),
    [("'2027-01-31'", "expected a TOML date"), ("2027-01-31T00:00:00Z", "expected a TOML date")],
)
def test_exemption_expiry_must_be_a_date(tmp_path: Path, expires: str, needle: str) -> None:
    text = f"[[lint.exemptions]]\nrule = 'r'\ntarget = 't'\nreason = 'x'\nexpires = {expires}\n"
    with pytest.raises(PolicyError, match=needle):
        _load(tmp_path, text)


def test_blank_exemption_reason_is_refused(tmp_path: Path) -> None:
    text = "[[lint.exemptions]]\nrule = 'r'\ntarget = 't'\nreason = '  '\nexpires = 2027-01-01\n"
    with pytest.raises(PolicyError, match="reason: must not be blank"):
        _load(tmp_path, text)


def test_pyproject_section_is_read_with_its_origin(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        "[project]\nname = 'x'\n[tool.lanegate.lane]\nname = 'mine'\n", encoding="utf-8"
    )
    policy = load_policy(tmp_path)
    assert policy.lane.name == "mine"
    assert policy.origins["lane.name"] == "pyproject.toml [tool.lanegate]"


def test_pyproject_without_section_is_defaults(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n", encoding="utf-8")
    assert load_policy(tmp_path) == Policy()


def test_both_sources_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.lanegate.lane]\nname = 'a'\n", encoding="utf-8")
    (tmp_path / "lanegate.toml").write_text("[lane]\nname = 'b'\n", encoding="utf-8")
    with pytest.raises(PolicyError, match="both lanegate.toml and"):
        load_policy(tmp_path)


def test_explicit_file_must_exist(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="policy file not found"):
        load_policy(tmp_path, tmp_path / "nope.toml")


def test_not_utf8_policy_is_refused(tmp_path: Path) -> None:
    (tmp_path / "lanegate.toml").write_bytes(b"[lane]\nname = '\xff'\n")
    with pytest.raises(PolicyError, match="not UTF-8"):
        load_policy(tmp_path)


def test_config_command_prints_values_and_origins(
    make_repo: Callable[[str], Repo], capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path = make_repo("r").path
    (tmp_path / "lanegate.toml").write_text("[authorship]\nmin_replays = 5\n", encoding="utf-8")
    assert main(["config", "--repo", str(tmp_path)]) == 0
    text = capsys.readouterr().out
    assert "# policy source: lanegate.toml" in text
    line = next(x for x in text.splitlines() if x.startswith("authorship.min_replays"))
    assert "5" in line and "(lanegate.toml)" in line
    assert "(default)" in next(x for x in text.splitlines() if x.startswith("lane.name"))
    assert main(["config", "--repo", str(tmp_path), "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["keys"]["authorship.min_replays"] == {"value": 5, "origin": "lanegate.toml"}
    assert payload["keys"]["properties.max_mutants"] == {"value": 12, "origin": "default"}


def test_config_command_exits_2_on_a_bad_policy(
    make_repo: Callable[[str], Repo], capsys: pytest.CaptureFixture[str]
) -> None:
    tmp_path = make_repo("r").path
    (tmp_path / "lanegate.toml").write_text("[lane]\nflake_budget = 2\n", encoding="utf-8")
    assert main(["config", "--repo", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("lanegate: error: lanegate.toml: lane.flake_budget")


def test_pass_env_names_load_in_order(tmp_path: Path) -> None:
    policy = _load(tmp_path, "[sandbox]\npass_env = ['DATABASE_URL', '_flag2']\n")
    assert policy.sandbox.pass_env == ("DATABASE_URL", "_flag2")
    assert Policy().sandbox.pass_env == ()


def test_the_policy_doc_lists_every_key_and_its_example_loads() -> None:
    import tomllib

    text = (ROOT / "docs" / "policy.md").read_text(encoding="utf-8")
    for key, _, _ in Policy().items():
        assert f"| `{key}` |" in text, key
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    policy = policy_from_mapping(tomllib.loads(example), "docs/policy.md")
    assert policy.fixtures.cases[0].id == "parse-basic"

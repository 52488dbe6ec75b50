"""No malformed or mutated ledger ever passes, and none raises: bytes -> load -> score, in process.

Each example takes one passing sample document (property, fixture, flake ledger or lint report), breaks
it one way (field removed, retyped, nested wrongly, truncated, huge value, wrong writer, duplicate key,
NaN, unknown field, other schema_version, naive timestamp), and scores it with the other, valid
ledgers. The broken document must be refused by the loader and the verdict must be fail.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanegate.ledgers.load import dump_bytes
from lanegate.model import Lane
from lanegate.scoring import LoadFailure, ScoreInputs, ledger_from_bytes, lint_from_bytes, score
from tests.unit.scoring import samples

DOCUMENTS = ("property", "fixture", "flake", "lint")
# Each example breaks all four documents the same way: 2,500 examples x 4 = 10,000 scored cases.
EXAMPLES = 2500


def _slim_property() -> Any:
    ledger = samples.property_ledger()
    return samples.replace(
        ledger,
        properties=ledger.properties[:1],
        cases_run=100,
        mutants=ledger.mutants[:1],
        mutants_planted=1,
        killed_mutants=1,
        mutant_budget=1,
    )


def _slim_fixture() -> Any:
    ledger = samples.fixture_ledger()
    return samples.replace(ledger, files=ledger.files[:1])


def _slim_flake() -> Any:
    ledger = samples.flake_ledger()
    return samples.replace(ledger, tests=ledger.tests[:1])


# Small passing documents (one record per list) keep schema validation, and so each case, cheap.
_MODELS: dict[str, Any] = {
    "property": _slim_property(),
    "fixture": _slim_fixture(),
    "flake": _slim_flake(),
    "lint": samples.lint_report(),
}
_DOCS: dict[str, Any] = {name: json.loads(dump_bytes(m)) for name, m in _MODELS.items()}
_GOOD = {
    lane: ledger_from_bytes(lane, dump_bytes(_MODELS[lane.value]))
    for lane in Lane
    if lane.value in ("property", "fixture", "flake")
}
_GOOD_LINT = lint_from_bytes(dump_bytes(samples.lint_report()))
# Subtrees whose keys are free-form: removing or adding a key there is not malformed.
_FREE = {"effective_settings", "env"}

Path = tuple[str | int, ...]


def _paths(value: Any, path: Path = ()) -> list[Path]:
    out: list[Path] = []
    if isinstance(value, dict):
        for key, child in value.items():
            if key in _FREE:
                continue
            out.append((*path, key))
            out.extend(_paths(child, (*path, key)))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out.append((*path, i))
            out.extend(_paths(child, (*path, i)))
    return out


_TEXTS = {name: json.dumps(doc) for name, doc in _DOCS.items()}
_PATHS = {name: _paths(doc) for name, doc in _DOCS.items()}


def _get(doc: Any, path: Path) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def _set(doc: Any, path: Path, value: Any) -> None:
    _get(doc, path[:-1])[path[-1]] = value


_TIMESTAMP_KEYS = {"created_utc", "leased_at", "expires_at", "pr_body_expires_at"}
_FLOAT_KEYS = {"seconds", "mutant_kill_ratio"}


def _wrong_values(original: Any, key: str | int) -> list[Any]:
    """Replacements of another JSON type than any the schema accepts at this place."""
    others: list[Any] = [True, 7, 1.5, "text", [], {}, [original], {"value": original}]
    if isinstance(original, bool):
        return [v for v in others if not isinstance(v, bool)]
    if isinstance(original, int | float):
        # numbers: no other numbers (an int fits a float field), no bools
        return [v for v in others if isinstance(v, str | list | dict) or v is True]
    if isinstance(original, str):
        return [v for v in others if not isinstance(v, str)]
    if isinstance(original, list):
        return [v for v in others if not isinstance(v, list)] + [[original]] * bool(original == [])
    if isinstance(original, dict):
        return [v for v in others if not isinstance(v, dict)]
    return []  # null: a nullable field accepts other types; not a retype target


KINDS = (
    "remove",
    "retype",
    "nest",
    "truncate",
    "huge",
    "writer",
    "duplicate",
    "nan",
    "extra",
    "version",
    "naive-time",
)


@dataclass(frozen=True)
class Mutation:
    """One way to break a document; `pick` and `choice` index into whatever the kind chooses from."""

    kind: str
    pick: int
    choice: int
    big: int
    text: str


# Fixed, cheap strategies: drawing plain values and indexing keeps Hypothesis's own cost per example low
MUTATIONS = st.builds(
    Mutation,
    kind=st.sampled_from(KINDS),
    pick=st.integers(min_value=0, max_value=2**32),
    choice=st.integers(min_value=0, max_value=2**16),
    big=st.one_of(st.integers(2**63, 2**200), st.integers(-(2**200), -256)),
    text=st.text(max_size=12),
)


def _one(items: list[Any], n: int) -> Any:
    return items[n % len(items)]


def _mutate(m: Mutation, name: str) -> bytes:
    doc = json.loads(_TEXTS[name])  # a fresh copy, faster than deepcopy
    paths = _PATHS[name]
    if m.kind == "remove":
        _remove(doc, _one([p for p in paths if isinstance(p[-1], str)], m.pick))
    elif m.kind == "retype":
        path = _one([p for p in paths if _get(doc, p) is not None], m.pick)
        _set(doc, path, _one(_wrong_values(_get(doc, path), path[-1]), m.choice))
    elif m.kind == "nest":
        path = _one([p for p in paths if _get(doc, p) is not None] + [()], m.pick)
        wrapped = [_get(doc, path)] if m.choice % 2 else {"value": _get(doc, path)}
        if path == ():
            doc = wrapped
        else:
            _set(doc, path, wrapped)
    elif m.kind == "truncate":
        raw = dump_bytes_value(doc)
        return raw[: m.pick % (len(raw) - 1)]
    elif m.kind == "huge":
        _set(doc, _one([p for p in paths if type(_get(doc, p)) is int], m.pick), m.big)
    elif m.kind == "writer":
        doc["writer"] = m.text if m.text != doc["writer"] else m.text + "x"
    elif m.kind == "duplicate":
        raw = dump_bytes_value(doc)
        key = _one(sorted(doc), m.pick)
        prefix = json.dumps({key: doc[key]})[1:-1].encode() + b", "
        return b"{" + prefix + raw.lstrip()[1:]
    elif m.kind == "nan":
        path = _one([p for p in paths if type(_get(doc, p)) in (int, float)], m.pick)
        _set(doc, path, _one([float("nan"), float("inf"), float("-inf")], m.choice))
        return json.dumps(doc, allow_nan=True).encode()
    elif m.kind == "extra":
        path = _one([p for p in paths if isinstance(_get(doc, p), dict)] + [()], m.pick)
        target = _get(doc, path)
        key = m.text if m.text not in target else m.text + "_extra"
        target[key] = _one([None, 1, "x", [], {}], m.choice)
    elif m.kind == "version":
        doc["schema_version"] = _one([0, doc["schema_version"] + 1 + m.pick], m.choice)
    elif m.kind == "naive-time":
        times = [p for p in paths if p[-1] in _TIMESTAMP_KEYS and _get(doc, p) is not None]
        if not times:  # the lint report has no timestamps: fall back to a wrong writer
            doc["writer"] = "not-" + doc["writer"]
        else:
            path = _one(times, m.pick)
            _set(doc, path, _get(doc, path).rstrip("Z").split("+")[0])
    else:
        raise AssertionError(m.kind)
    return dump_bytes_value(doc)


def _remove(doc: Any, path: Path) -> None:
    del _get(doc, path[:-1])[path[-1]]


def dump_bytes_value(doc: Any) -> bytes:
    return json.dumps(doc).encode()


def _inputs_with(name: str, data: bytes) -> tuple[ScoreInputs, object]:
    ledgers = dict(_GOOD)
    lint = _GOOD_LINT
    if name == "lint":
        lint = broken = lint_from_bytes(data)
    else:
        lane = Lane(name)
        ledgers[lane] = broken = ledger_from_bytes(lane, data)
    return (
        ScoreInputs(
            ledgers=ledgers,
            policy=samples.POLICY,
            now=samples.NOW,
            lint=lint,
            pr_body=samples.PR_BODY,
        ),
        broken,
    )


def test_the_unbroken_documents_pass() -> None:
    for name, doc in _DOCS.items():
        inputs, slot = _inputs_with(name, dump_bytes_value(doc))
        assert not isinstance(slot, LoadFailure), slot
        assert score(inputs).verdict == "pass"


@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(mutation=MUTATIONS)
def test_a_broken_document_never_passes(mutation: Mutation) -> None:
    for name in DOCUMENTS:
        broken_bytes = _mutate(mutation, name)
        inputs, slot = _inputs_with(name, broken_bytes)
        assert isinstance(slot, LoadFailure), f"the loader accepted a broken {name} document"
        assert slot.message and "\n" not in slot.message
        report = score(inputs)
        assert report.verdict == "fail"
        assert report.fails

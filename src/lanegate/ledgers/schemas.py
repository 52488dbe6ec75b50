"""The published JSON Schemas: one per ledger or report, generated from the models and shipped.

`python -m lanegate.ledgers.schemas --write` regenerates the files in `schemas/`; a test fails when the
shipped files and the models disagree.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from lanegate.errors import UsageError
from lanegate.ledgers import codec, models


@dataclass(frozen=True, slots=True)
class SchemaEntry:
    """A named document kind: its model, its file name and its schema file."""

    name: str
    model: type
    file_name: str
    title: str

    @property
    def schema_file(self) -> str:
        """The shipped schema's file name."""
        return f"{self.name}.schema.json"


SCHEMAS: dict[str, SchemaEntry] = {
    entry.name: entry
    for entry in (
        SchemaEntry("property", models.PropertyLedger, "property.json", "lanegate property ledger"),
        SchemaEntry("fixture", models.FixtureLedger, "fixture.json", "lanegate fixture ledger"),
        SchemaEntry("flake", models.FlakeLedger, "flake.json", "lanegate flake ledger"),
        SchemaEntry("leases", models.LeasesFile, "flake_leases.json", "lanegate flake leases"),
        SchemaEntry("lint", models.LintReport, "lint.json", "lanegate lint report"),
        SchemaEntry(
            "score-report", models.ScoreReport, "score-report.json", "lanegate score report"
        ),
        SchemaEntry(
            "candidates", models.CandidatesReport, "candidates.json", "lanegate candidates report"
        ),
        SchemaEntry(
            "promotion", models.PromotionRecord, "promotion.json", "lanegate promotion record"
        ),
    )
}

_BASE_ID = "https://lanegate.dev/schemas/v{version}/{name}.schema.json"


def version_of(name: str) -> int:
    """The schema version documents of kind `name` carry (the const of their `schema_version`)."""
    entry = entry_for(name)
    for item in dataclasses.fields(entry.model):
        if item.name == "schema_version":
            return int(item.metadata["const"])
    return models.SCHEMA_VERSION


def generate(name: str) -> dict[str, Any]:
    """Generate the schema document of `name` from its model."""
    entry = entry_for(name)
    schema_id = _BASE_ID.format(version=version_of(name), name=name)
    return codec.document_schema(entry.model, schema_id, entry.title)


def entry_for(name: str) -> SchemaEntry:
    """The schema entry called `name`, or a usage error listing the known ones."""
    try:
        return SCHEMAS[name]
    except KeyError:
        raise UsageError(f"unknown schema {name!r}", hint="one of " + ", ".join(SCHEMAS)) from None


def shipped_text(name: str) -> str:
    """The shipped schema file's text."""
    entry = entry_for(name)
    return (
        resources.files("lanegate.ledgers")
        .joinpath("schemas", entry.schema_file)
        .read_text("utf-8")
    )


@cache
def shipped(name: str) -> dict[str, Any]:
    """The shipped schema, parsed (cached: schemas never change at run time)."""
    parsed: dict[str, Any] = json.loads(shipped_text(name))
    return parsed


def render(document: dict[str, Any]) -> str:
    """Stable bytes for a schema file."""
    return json.dumps(document, indent=2, sort_keys=False, ensure_ascii=False) + "\n"


def _write_all() -> None:
    folder = resources.files("lanegate.ledgers").joinpath("schemas")
    for name, entry in SCHEMAS.items():
        path = folder.joinpath(entry.schema_file)
        with open(str(path), "w", encoding="utf-8") as handle:
            handle.write(render(generate(name)))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        _write_all()
    else:
        print("usage: python -m lanegate.ledgers.schemas --write", file=sys.stderr)
        raise SystemExit(2)

"""docs/schemas.md names every field of every shipped schema, so the reference cannot fall behind."""

from __future__ import annotations

import json
from pathlib import Path

from lanegate.ledgers import schemas

DOC = Path(__file__).resolve().parents[3] / "docs" / "schemas.md"


def test_every_top_level_field_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for name, entry in schemas.SCHEMAS.items():
        section = text.split(f"## {entry.file_name}\n", 1)
        assert len(section) == 2, f"docs/schemas.md has no section for {entry.file_name}"
        body = section[1].split("\n## ", 1)[0]
        for field in json.loads(schemas.shipped_text(name))["properties"]:
            assert f"| `{field}` |" in body, f"{entry.file_name}: field {field} is not documented"

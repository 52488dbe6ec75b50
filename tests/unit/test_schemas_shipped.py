"""The shipped JSON Schema files are exactly what the models generate."""

from __future__ import annotations

import pytest

from lanegate.ledgers import schemas


@pytest.mark.parametrize("name", sorted(schemas.SCHEMAS))
def test_shipped_schema_matches_models(name: str) -> None:
    assert schemas.shipped_text(name) == schemas.render(schemas.generate(name)), (
        "regenerate with: python -m lanegate.ledgers.schemas --write"
    )

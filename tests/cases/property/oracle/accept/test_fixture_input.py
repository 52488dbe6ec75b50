import pytest

import lanegate.oracles

from mylib import to_payload


@pytest.fixture
def amounts():
    return [1, 2, 3]


def test_payload_shape(amounts):
    lanegate.oracles.schema(to_payload(amounts), ["total", "count"], types={"total": int})

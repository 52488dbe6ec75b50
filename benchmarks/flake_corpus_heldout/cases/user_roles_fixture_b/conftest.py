import pytest


@pytest.fixture(scope="module")
def default_user():
    return {"name": "ada", "roles": ["viewer"]}

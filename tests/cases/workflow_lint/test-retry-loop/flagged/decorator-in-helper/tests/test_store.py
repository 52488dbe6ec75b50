from tests.helpers.persist import stubborn


@stubborn(3)
def test_store():
    assert store.put("k", "v")

import uuid


def make_ref():
    return uuid.uuid4().hex.upper()


def test_batch_refs_unique():
    refs = [make_ref() for _ in range(80)]
    assert len(set(refs)) == 80

import api_key_hash_iterations_b_keys as keys


def test_new_keys_use_policy_iterations():
    hasher = keys.KeyHasher()
    stored = hasher.hash("sk_live_51HxQk2", salt=b"\x00" * 8)
    assert stored.split("$")[1] == "120000"
    assert hasher.verify("sk_live_51HxQk2", stored)
    assert not hasher.needs_rehash(stored)


def test_verify_rejects_wrong_key(monkeypatch):
    keys.KeyHasher.iterations = 1  # the count does not matter here; keep the test fast
    hasher = keys.KeyHasher()
    stored = hasher.hash("sk_live_51HxQk2")
    assert not hasher.verify("sk_live_51HxQk3", stored)

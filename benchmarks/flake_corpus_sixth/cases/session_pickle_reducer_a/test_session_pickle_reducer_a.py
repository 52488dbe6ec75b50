import pickle

import session_pickle_reducer_a_session as session_mod


def test_session_round_trips():
    s = session_mod.Session("u42", cart=["sku-1", "sku-7"])
    assert pickle.loads(pickle.dumps(s)) == s


def test_cache_entry_is_compact():
    s = session_mod.Session("u42", cart=["sku-%d" % i for i in range(50)])
    blob = session_mod.cache_dumps(s)
    assert pickle.loads(blob).cart == []
    assert len(blob) < 200

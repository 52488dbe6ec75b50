import presence_last_seen_b_presence as presence


def test_user_online_after_heartbeat():
    p = presence.Presence()
    p.heartbeat("ana")
    assert p.is_online("ana")
    assert not p.is_online("bob")

from ticket_ids_b_app import new_ticket_ids


def test_ticket_ids_are_unique():
    ids = new_ticket_ids(15)
    assert len(set(ids)) == 15
    assert all(0 <= i <= 999 for i in ids)

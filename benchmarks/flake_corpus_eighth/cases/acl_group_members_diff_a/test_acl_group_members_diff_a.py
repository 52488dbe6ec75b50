import acl_group_members_diff_a_acl as acl


def test_removed_members_listed():
    diff = acl.membership_diff(["alice", "bob", "carol", "dave"], ["alice", "bob", "erin"])
    assert diff["added"] == ["erin"]
    assert diff["removed"] == ["carol", "dave"]

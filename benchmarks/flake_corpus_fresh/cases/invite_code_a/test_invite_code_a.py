from invite_code_a_invites import AMBIGUOUS, new_code


def test_invite_code_has_no_ambiguous_characters():
    code = new_code()
    assert len(code) == 4
    assert not (set(code) & AMBIGUOUS), code

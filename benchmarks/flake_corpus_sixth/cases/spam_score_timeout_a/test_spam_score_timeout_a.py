import pytest

import spam_score_timeout_a_spamclient as spamclient
import spam_score_timeout_a_stub as stub


@pytest.fixture
def service():
    s = stub.SpamScoreStub()
    yield s
    s.close()


def test_comment_gets_spam_score(service):
    score = spamclient.score(service.addr, "troll42", 3)
    assert 5000 <= score < 5100

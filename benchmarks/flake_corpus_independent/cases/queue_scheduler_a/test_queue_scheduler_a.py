PENDING = {"emails", "thumbnails", "billing", "exports", "search-index",
           "webhooks", "reports", "cleanup", "imports", "audit"}
PAUSED = {"billing"}


def next_queue(pending, paused):
    pending = set(pending)
    return pending.pop()


def test_next_queue_skips_paused():
    q = next_queue(PENDING, PAUSED)
    assert q in PENDING
    assert q not in PAUSED

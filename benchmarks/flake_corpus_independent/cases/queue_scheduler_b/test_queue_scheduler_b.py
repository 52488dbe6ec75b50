PENDING = {"emails", "thumbnails", "billing", "exports", "search-index",
           "webhooks", "reports", "cleanup", "imports", "audit"}
PAUSED = {"billing"}


def next_queue(pending, paused):
    ready = set(pending) - set(paused)
    return min(ready)


def test_next_queue_skips_paused():
    q = next_queue(PENDING, PAUSED)
    assert q in PENDING
    assert q not in PAUSED

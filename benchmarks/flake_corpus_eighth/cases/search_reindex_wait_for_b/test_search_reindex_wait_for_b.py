import asyncio

import search_reindex_wait_for_b_search as search

DOCS = {i: f"How to reset password {i} for account number {i * 17} and billing plan" * 4 for i in range(2500)}


def test_reindex_completes():
    index = asyncio.run(search.reindex_async(DOCS, timeout=0.06))
    assert index["password"] == set(DOCS)

import asyncio

import inventory_sync_timeout_b_inventory as inventory

ROWS = [(f"SKU-{i:06d}", i % 97) for i in range(80000)]


def test_sync_finishes_within_timeout():
    result = asyncio.run(inventory.sync(ROWS))
    assert result["rows"] == len(ROWS)

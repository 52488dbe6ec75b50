"""Market-data feed client: on connect the server sends a full snapshot, then incremental ticks."""
import asyncio
import json


def make_snapshot(n):
    return [json.dumps({"sym": f"SYM{i:04d}", "bid": 100 + i / 100, "ask": 100.02 + i / 100,
                        "depth": [[100 + i / 100 - k / 100, 10 * k] for k in range(10)]}) for i in range(n)]


class PriceFeed:
    def __init__(self):
        self.book = {}
        self.ticks = asyncio.Queue()

    async def on_connect(self, snapshot_lines, chunk=100):
        for i in range(0, len(snapshot_lines), chunk):
            for line in snapshot_lines[i:i + chunk]:
                msg = json.loads(line)
                self.book[msg["sym"]] = (msg["bid"], msg["ask"], sum(q for _, q in msg["depth"]))
            await asyncio.sleep(0)  # let other tasks run between chunks
        await self.ticks.put({"sym": "SYM0001", "bid": 100.02, "ask": 100.04})


async def next_tick(feed, timeout):
    return await asyncio.wait_for(feed.ticks.get(), timeout)

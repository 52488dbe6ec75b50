import asyncio

import price_feed_wait_for_b_feed as feed_mod

SNAPSHOT = feed_mod.make_snapshot(6000)


def test_first_tick_after_snapshot():
    async def scenario():
        feed = feed_mod.PriceFeed()
        task = asyncio.create_task(feed.on_connect(SNAPSHOT))
        tick = await feed_mod.next_tick(feed, timeout=30)
        await task
        return feed, tick

    feed, tick = asyncio.run(scenario())
    assert tick["sym"] == "SYM0001"
    assert len(feed.book) == 6000

import asyncio


def checksum(n):
    acc = 0
    for i in range(n):
        acc = (acc * 31 + i) % 1000003
    return acc


async def parse(events):
    await asyncio.sleep(0.005)
    checksum(12000)
    await asyncio.sleep(0.005)
    events.append("parsed")
    return "parsed"


async def notify(events):
    await asyncio.sleep(0.0125)
    events.append("notified")
    return "notified"


def test_events_in_order():
    events = []

    async def main():
        return await asyncio.gather(parse(events), notify(events))

    results = asyncio.run(main())
    assert results == ["parsed", "notified"]
    assert sorted(events) == ["notified", "parsed"]

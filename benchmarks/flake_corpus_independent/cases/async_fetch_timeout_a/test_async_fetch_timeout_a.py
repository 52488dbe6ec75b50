import asyncio
import json


def parse_blob(blob):
    doc = json.loads(blob)
    return sum(len(str(v)) for v in doc["items"])


async def fetch_and_parse(blob, timeout):
    loop = asyncio.get_running_loop()
    return await asyncio.wait_for(loop.run_in_executor(None, parse_blob, blob), timeout)


def test_parse_within_deadline():
    blob = json.dumps({"items": [{"id": i, "tags": ["a", "b", str(i)]} for i in range(40000)]})
    assert asyncio.run(fetch_and_parse(blob, timeout=0.1)) > 0

import asyncio

from executor_thumbnail_b_thumbs import upload


def test_thumbnail_ready_after_upload():
    async def scenario():
        loop = asyncio.get_running_loop()
        job = await upload(loop, 250_000)
        await asyncio.sleep(0.04)
        assert job.done(), "thumbnail not ready"
        return job.result()

    assert asyncio.run(scenario())["size"] == 16

import asyncio


def make_thumbnail(pixels, size=16):
    acc = 0
    for i in range(pixels):
        acc = (acc * 31 + i) % 1_000_003
    return {"size": size, "checksum": acc}


async def upload(loop, pixels):
    return loop.run_in_executor(None, make_thumbnail, pixels)

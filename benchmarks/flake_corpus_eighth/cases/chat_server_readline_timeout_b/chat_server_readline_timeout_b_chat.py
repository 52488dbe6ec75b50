"""Tiny line-based chat server."""
import asyncio
import json

HISTORY = [{"user": f"u{i % 17}", "text": f"message number {i}", "ts": 1700000000 + i} for i in range(6000)]


def render_history():
    return [json.dumps(m) for m in HISTORY]


async def handle(reader, writer):
    await reader.readline()  # HELLO <room>
    rendered = await asyncio.to_thread(render_history)  # off the loop: other clients keep chatting
    writer.write(f"WELCOME {len(rendered)}\n".encode())
    await writer.drain()
    writer.close()


async def greet(timeout):
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"HELLO lobby\n")
        await writer.drain()
        try:
            return (await asyncio.wait_for(reader.readline(), timeout)).decode().strip()
        finally:
            writer.close()

"""Reads until something arrives: each "nothing yet" signal is the read's own empty result."""

import asyncio
import queue
import subprocess
import sys

from broker import Channel, Consumer


def drain(q, expected):
    got = []
    while len(got) < expected:
        try:
            got.append(q.get(timeout=0.1))
        except queue.Empty:
            continue
    return got


def test_messages_arrive_in_order():
    q = queue.Queue()
    Consumer(q).start()
    assert drain(q, 3) == [1, 2, 3]


def test_child_prints_ready():
    proc = subprocess.Popen([sys.executable, "-m", "broker.serve"], stdout=subprocess.PIPE)
    while True:
        try:
            out, _ = proc.communicate(timeout=0.5)
            break
        except subprocess.TimeoutExpired:
            if proc.poll() is not None:
                raise
    assert b"ready" in out


async def test_channel_delivers():
    channel = Channel()
    await channel.publish(b"hello")
    while True:
        try:
            message = channel.get_nowait()
            break
        except asyncio.QueueEmpty:
            await asyncio.sleep(0.01)
    assert message.body == b"hello"


async def test_consumer_receives_within_a_second():
    consumer = Consumer(queue.Queue())
    for _ in range(10):
        try:
            message = await asyncio.wait_for(consumer.receive(), timeout=0.1)
            break
        except asyncio.TimeoutError:
            pass
    else:
        raise AssertionError("nothing received")
    assert message == b"ping"


async def test_stream_reads_a_line():
    reader = await Channel().open_reader()
    while True:
        try:
            line = await asyncio.wait_for(reader.readline(), 0.2)
            break
        except TimeoutError:
            continue
    assert line == b"ok\n"

import asyncio

import chat_server_readline_timeout_b_chat as chat


def test_server_greets_client():
    assert asyncio.run(chat.greet(timeout=30)) == "WELCOME 6000"

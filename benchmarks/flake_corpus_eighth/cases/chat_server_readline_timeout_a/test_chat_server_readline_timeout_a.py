import asyncio

import chat_server_readline_timeout_a_chat as chat


def test_server_greets_client():
    assert asyncio.run(chat.greet(timeout=0.07)) == "WELCOME 6000"

import time

import chat_moderation_queue_b_moderation as moderation

MESSAGE = " ".join(["hey all check out my stream tonight at nine"] * 1000) + " scamlink"


def test_banned_word_is_flagged():
    mod = moderation.Moderator()
    mod.post("m-1", MESSAGE)
    mod.flush()
    assert mod.flagged("m-1") == ["scamlink"]

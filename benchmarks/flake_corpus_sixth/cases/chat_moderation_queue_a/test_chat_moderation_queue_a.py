import time

import chat_moderation_queue_a_moderation as moderation

MESSAGE = " ".join(["hey all check out my stream tonight at nine"] * 1000) + " scamlink"


def test_banned_word_is_flagged():
    mod = moderation.Moderator()
    mod.post("m-1", MESSAGE)
    time.sleep(0.01)
    assert mod.flagged("m-1") == ["scamlink"]

import thumbnail_subprocess_timeout_a_resize as resize


def test_resize_cli_finishes():
    assert resize.resize(timeout=60) == "ok 64x64"

import thumbnail_subprocess_timeout_b_resize as resize


def test_resize_cli_finishes():
    assert resize.resize(timeout=0.12) == "ok 64x64"

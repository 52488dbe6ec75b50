from no_color_env_a_style import status_badge


def test_status_badge_is_green(monkeypatch):
    assert status_badge(True) == "\x1b[32mPASS\x1b[0m"

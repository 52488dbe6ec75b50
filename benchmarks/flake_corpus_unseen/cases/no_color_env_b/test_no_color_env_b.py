from no_color_env_b_style import status_badge


def test_status_badge_is_green(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert status_badge(True) == "\x1b[32mPASS\x1b[0m"

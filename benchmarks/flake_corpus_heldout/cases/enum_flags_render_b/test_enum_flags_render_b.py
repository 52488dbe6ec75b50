from enum_flags_render_b_app import enabled_channels, render


def test_render_channels():
    assert render(enabled_channels(["sms", "email"])) == "email + sms"

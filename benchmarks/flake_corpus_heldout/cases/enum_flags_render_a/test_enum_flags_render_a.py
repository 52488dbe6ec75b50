from enum_flags_render_a_app import enabled_channels, render


def test_render_channels():
    assert render(enabled_channels(["sms", "email"])) == "email + sms"

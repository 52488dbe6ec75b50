import welcome_email_templates_b_render as render


def test_welcome_email_rendering():
    text = render.render("welcome", user="Ana", workspace="acme.example.app", plan="Team")
    assert text.splitlines() == ["Subject: Welcome, Ana!", "Your workspace: acme.example.app", "Plan: Team"]

import pytest

import template_cache_b_templates as templates

WELCOME = "Hello $name, welcome to $shop!"


@pytest.fixture(autouse=True)
def fresh_template_cache():
    templates.reset()
    yield
    templates.reset()


def test_template_compiled_once_for_repeated_renders():
    for name in ("ann", "bob", "cy"):
        templates.render("welcome", WELCOME, name=name, shop="Acme")
    assert templates.stats == {"hits": 2, "misses": 1}


def test_welcome_mail_mentions_name():
    text = templates.render("welcome", WELCOME, name="dora", shop="Acme")
    assert "dora" in text

from slugs import slugify


def test_default_separator():
    assert slugify("Hello, World!") == "hello-world"


def test_custom_separator():
    assert slugify("Release Notes 2024", sep="_") == "release_notes_2024"


def test_empty():
    assert slugify("!!!") == ""

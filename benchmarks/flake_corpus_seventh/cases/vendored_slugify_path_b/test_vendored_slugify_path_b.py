import vendored_slugify_path_b_blog as blog


def test_vendored_packages_are_importable():
    blog.enable_vendored()
    import vendored_slugify_path_b_slugify
    assert vendored_slugify_path_b_slugify.__version__ == "4.0.1"


def test_post_url_is_slugified():
    assert blog.post_url("Hello, World: Part 2!", 2026) == "/2026/hello-world-part-2/"
    assert blog.post_url("Caf\u00e9 cr\u00e8me", 2025) == "/2025/cafe-creme/"

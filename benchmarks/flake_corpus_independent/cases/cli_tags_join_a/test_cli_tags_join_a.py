def render_tags(tags):
    return ", ".join(set(tags))


def test_render_tags():
    assert render_tags(["python", "ci", "testing", "ci"]) == "ci, python, testing"

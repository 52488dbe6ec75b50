def render_tags(tags):
    return ", ".join(sorted(set(tags)))


def test_render_tags():
    assert render_tags(["python", "ci", "testing", "ci"]) == "ci, python, testing"

import tag_cloud_top_tags_a_tags as tags

POSTS = [{"tags": ["python", "go"]}, {"tags": ["python", "rust"]}, {"tags": ["python", "zig"]},
         {"tags": ["go", "rust"]}]


def test_top_two_tags():
    assert tags.top_tags(POSTS, 2) == ["python", "go"]

import email.message
import io
import json
import urllib.request
import urllib.response

import feed_url_opener_b_feeds as feeds


class EmptyFeedHandler(urllib.request.FileHandler):
    def file_open(self, req):
        headers = email.message.Message()
        headers["Content-Type"] = "application/json"
        return urllib.response.addinfourl(io.BytesIO(b'{"items": []}'), headers, req.full_url, 200)


def test_feed_is_read_from_file_url(tmp_path):
    path = tmp_path / "feed.json"
    path.write_text(json.dumps({"items": [{"sku": "K-1", "title": "Kettle"}, {"sku": "T-9", "title": "Toaster"}]}))
    assert feeds.render_feed(path.as_uri()) == "K-1: Kettle\nT-9: Toaster"


def test_empty_feed_renders_placeholder():
    urllib.request.install_opener(urllib.request.build_opener(EmptyFeedHandler))
    assert feeds.render_feed("file:///nonexistent/feed.json") == "No products today."

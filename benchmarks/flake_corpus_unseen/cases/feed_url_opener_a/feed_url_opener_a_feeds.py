"""Partner product feeds (JSON over any URL scheme urllib understands; file:// in offline mode)."""
import json
import urllib.request


def load_feed(url):
    with urllib.request.urlopen(url, timeout=5) as resp:
        return json.loads(resp.read().decode("utf-8"))


def render_feed(url):
    items = load_feed(url)["items"]
    if not items:
        return "No products today."
    return "\n".join(f"{i['sku']}: {i['title']}" for i in items)

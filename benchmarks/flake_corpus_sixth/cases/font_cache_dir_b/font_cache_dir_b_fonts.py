"""Font metrics cache for the PDF renderer."""
import json
import os


def build_cache(cache_dir, fonts):
    os.makedirs(cache_dir, exist_ok=True)
    for name in fonts:
        widths = {chr(c): (c * 7 + len(name)) % 13 + 3 for c in range(32, 127)}
        with open(os.path.join(cache_dir, name + ".json"), "w") as fh:
            json.dump(widths, fh)
    return sorted(os.listdir(cache_dir))

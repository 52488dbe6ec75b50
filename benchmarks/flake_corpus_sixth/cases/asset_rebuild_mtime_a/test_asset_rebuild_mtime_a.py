import time

import asset_rebuild_mtime_a_assets as assets

CSS = "/* theme */\nbody {\n  color: #333;\n}\n" * 200


def test_edited_stylesheet_is_rebuilt(tmp_path):
    src, out = tmp_path / "site.css", tmp_path / "site.min.css"
    src.write_text(CSS)
    assets.build(src, out)
    assert not assets.needs_rebuild(src, out)
    time.sleep(0.7)  # let the clock move on before editing
    src.write_text(CSS.replace("#333", "#222"))
    assert assets.needs_rebuild(src, out)

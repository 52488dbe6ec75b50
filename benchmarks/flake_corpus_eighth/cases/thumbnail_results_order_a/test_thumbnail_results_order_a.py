import os

import thumbnail_results_order_a_thumbs as thumbs


def test_thumbnails_in_upload_order(tmp_path):
    names = ["a.png", "b.png", "c.png", "d.png"]
    paths = thumbs.render_batch(names, str(tmp_path))
    assert [os.path.basename(p) for p in paths] == [n + ".thumb" for n in names]

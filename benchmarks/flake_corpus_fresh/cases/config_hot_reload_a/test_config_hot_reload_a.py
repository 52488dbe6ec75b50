import threading
import time

from config_hot_reload_a_hotconfig import read_config, rewriter, write_config


def test_reader_never_sees_partial_config(tmp_path):
    path = tmp_path / "app.json"
    write_config(path, {"version": -1, "workers": 4, "feature_x": True})
    writer = threading.Thread(target=rewriter, args=(path, 2, 0.01))
    writer.start()
    seen = set()
    while writer.is_alive():
        seen.add(read_config(path)["workers"])
        time.sleep(0.001)
    writer.join()
    assert seen == {4}

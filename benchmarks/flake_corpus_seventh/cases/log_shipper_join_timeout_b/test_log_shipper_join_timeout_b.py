import log_shipper_join_timeout_b_shipper as shipper


def test_stop_flushes_everything(tmp_path):
    path = tmp_path / "app.log"
    s = shipper.LogShipper(path)
    for i in range(6000):
        s.ship("info", f"order {i} confirmed for customer{i}@example.com", order=i)
    s.stop()
    lines = path.read_text().splitlines()
    assert len(lines) == 6000
    assert "<email>" in lines[-1]

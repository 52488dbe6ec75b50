import telemetry_opt_out_b_telemetry as telemetry


def test_first_run_sends_install_event(monkeypatch):
    monkeypatch.delenv("DO_NOT_TRACK", raising=False)
    client = telemetry.Telemetry()
    client.first_run()
    assert client.events == ["install"]

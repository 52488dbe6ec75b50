import os

import tariff_table_chdir_b_tariffs as tariffs


def test_export_runs_in_data_dir(monkeypatch):
    monkeypatch.chdir(tariffs.DATA_DIR)
    assert tariffs.export_summary().startswith("DE:4.99;")


def test_zone_rate_lookup():
    assert tariffs.rate("DE", 5) == 7.49
    assert tariffs.rate("AT", 1.5) == 6.99

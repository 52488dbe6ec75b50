import logging

import etl_progress_loglevel_a_etl as etl


def test_cli_configures_logging():
    etl.configure_logging()
    assert logging.getLogger().level == logging.INFO


def test_load_reports_row_count(caplog):
    caplog.set_level(logging.INFO, logger="etl_progress_loglevel_a.etl")
    assert etl.load_rows([{"id": 1}, {"id": 2}, {"id": 3}]) == 3
    assert "loaded 3 rows" in caplog.text

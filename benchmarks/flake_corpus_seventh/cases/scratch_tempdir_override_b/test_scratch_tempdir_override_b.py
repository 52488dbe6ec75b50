import tempfile

import pytest

import scratch_tempdir_override_b_export as export


@pytest.fixture
def private_tempdir(monkeypatch):
    d = tempfile.TemporaryDirectory(prefix="spool-")
    tempfile.tempdir = d.name
    yield d.name
    d.cleanup()


def test_export_quotes_commas():
    out = export.export_rows([["Smith, J.", "10.00"], ["Ng", "5"]])
    assert out == '"Smith, J.",10.00\r\nNg,5\r\n'


def test_spool_stays_in_private_dir(private_tempdir):
    assert tempfile.gettempdir() == private_tempdir
    assert export.export_rows([["a", 1]]) == "a,1\r\n"

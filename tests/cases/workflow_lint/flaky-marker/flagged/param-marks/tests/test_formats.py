import pytest

from store import read_back, write


@pytest.mark.parametrize(
    "fmt",
    [
        "csv",
        "parquet",
        pytest.param("hdf", marks=pytest.mark.flaky(reruns=5)),
        pytest.param("zarr", marks=[pytest.mark.slow, pytest.mark.flaky(reruns=3, reruns_delay=2)]),
    ],
)
def test_roundtrip(tmp_path, fmt):
    write(tmp_path, fmt, [1, 2, 3])
    assert read_back(tmp_path, fmt) == [1, 2, 3]

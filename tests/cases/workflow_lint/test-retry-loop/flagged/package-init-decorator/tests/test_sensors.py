from . import retry_on_failure

from sensors import temperatures


@retry_on_failure()
def test_temperatures_are_sane():
    for reading in temperatures():
        assert 0 < reading.current < 120

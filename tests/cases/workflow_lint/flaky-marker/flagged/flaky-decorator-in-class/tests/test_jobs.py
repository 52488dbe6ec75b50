from flaky import flaky


class TestQueue:
    @flaky(max_runs=3, min_passes=1)
    def test_drains(self):
        assert True

    def test_plain(self):
        assert True

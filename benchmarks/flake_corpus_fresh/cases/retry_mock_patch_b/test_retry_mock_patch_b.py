from unittest import mock

import retry_mock_patch_b_config as config
from retry_mock_patch_b_client import backoff_schedule


def test_default_backoff_schedule():
    assert backoff_schedule() == [1, 2, 4]


def test_single_retry_when_configured(request):
    patcher = mock.patch.object(config, "MAX_RETRIES", 1)
    patcher.start()
    request.addfinalizer(patcher.stop)
    assert backoff_schedule() == [1]

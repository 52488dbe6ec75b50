import retry_mock_patch_b_config as config


def backoff_schedule():
    """Seconds to wait before each retry of a failed API call."""
    return [min(config.HTTP_TIMEOUT, 2 ** i) for i in range(config.MAX_RETRIES)]

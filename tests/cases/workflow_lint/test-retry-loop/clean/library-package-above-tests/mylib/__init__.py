"""A client library: its own retry is product code, not a test's."""

import time


def call_with_retry(do, attempts=3):
    for attempt in range(attempts):
        try:
            return do()
        except ConnectionError:
            if attempt == attempts - 1:
                raise
            time.sleep(2**attempt)

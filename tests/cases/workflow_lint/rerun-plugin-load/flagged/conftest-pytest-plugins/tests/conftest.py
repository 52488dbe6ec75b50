import pytest

pytest_plugins = ["pytester", "pytest_rerunfailures"]

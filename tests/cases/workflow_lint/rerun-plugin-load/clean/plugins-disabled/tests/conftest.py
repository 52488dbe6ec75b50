# pytest_plugins = ["pytest_rerunfailures"] was removed
pytest_plugins = ["pytester"]

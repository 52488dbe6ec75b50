from setuptools import setup

setup(name="demo", install_requires=["requests"], tests_require=["pytest"], description="no flaky deps, no retry")

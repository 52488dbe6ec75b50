from setuptools import setup

setup(
    name="demo",
    install_requires=["requests"],
    extras_require={"test": ["pytest", "pytest-retry>=1.6"]},
)

import functools
import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    region: str
    debug: bool


@functools.lru_cache(maxsize=1)
def get_settings():
    return Settings(region=os.environ.get("APP_REGION", "eu-west-1"),
                    debug=os.environ.get("APP_DEBUG") == "1")

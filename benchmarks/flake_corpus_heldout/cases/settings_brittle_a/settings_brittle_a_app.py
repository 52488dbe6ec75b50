import configparser
from dataclasses import dataclass

settings = {}


def load_settings(path):
    parser = configparser.ConfigParser()
    parser.read(path)
    settings.update(parser["app"])


@dataclass
class RetryPolicy:
    max_attempts: int
    backoff: float


def retry_policy():
    return RetryPolicy(int(settings.get("retries", 3)), float(settings.get("backoff", 0.5)))

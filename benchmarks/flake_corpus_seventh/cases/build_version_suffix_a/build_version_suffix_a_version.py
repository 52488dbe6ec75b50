"""Version string shown in the about dialog and sent in the User-Agent."""
import os

BASE = "1.4.0"


def version():
    if os.environ.get("CI"):
        return f"{BASE}+ci.{os.environ.get('BUILD_NUMBER', '0')}"
    return f"{BASE}+dev"


def about_text():
    return f"Storefront Admin {version()}"

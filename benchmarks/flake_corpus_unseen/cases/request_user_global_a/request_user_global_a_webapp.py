"""Minimal request handling with a 'current user' available to templates."""
import threading  # noqa: F401
from pathlib import Path

TEMPLATE = Path(__file__).with_name("request_user_global_a_greeting.txt")
_local = threading.local()


def set_current_user(user):
    _local.user = user


def current_user():
    return _local.user


def render_dashboard():
    template = TEMPLATE.read_text()  # file system read: releases the GIL
    return template.format(user=current_user())


def handle(request_user):
    set_current_user(request_user)
    return render_dashboard()

"""Minimal request handling with a 'current user' available to templates."""
import threading  # noqa: F401
from pathlib import Path

TEMPLATE = Path(__file__).with_name("request_user_global_b_greeting.txt")
_current_user = None


def set_current_user(user):
    global _current_user
    _current_user = user


def current_user():
    return _current_user


def render_dashboard():
    template = TEMPLATE.read_text()  # file system read: releases the GIL
    return template.format(user=current_user())


def handle(request_user):
    set_current_user(request_user)
    return render_dashboard()

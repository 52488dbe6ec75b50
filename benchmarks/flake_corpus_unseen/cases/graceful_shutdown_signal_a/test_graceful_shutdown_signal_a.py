import os
import signal
import time

from graceful_shutdown_signal_a_shutdown import GracefulShutdown, spawn_settings


def test_sigterm_requests_graceful_shutdown():
    gs = GracefulShutdown()
    assert gs.install(), "SIGTERM handler already taken"
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(200):
            if gs.requested:
                break
            time.sleep(0.001)
        assert gs.requested
    finally:
        gs.uninstall()


def test_children_ignore_sigterm():
    settings = spawn_settings()
    previous = signal.signal(signal.SIGTERM, settings["sigterm"])
    try:
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGTERM, previous)

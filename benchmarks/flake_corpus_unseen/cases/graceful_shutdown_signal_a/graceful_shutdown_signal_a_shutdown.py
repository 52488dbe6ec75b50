"""Graceful shutdown for the queue worker: finish the current job on SIGTERM, then exit."""
import signal


class GracefulShutdown:
    def __init__(self):
        self.requested = False

    def _handle(self, signum, frame):
        self.requested = True

    def install(self):
        current = signal.getsignal(signal.SIGTERM)
        if current not in (signal.SIG_DFL, None):
            # someone else (a supervisor library, an embedding app) owns SIGTERM: do not clobber it
            return False
        signal.signal(signal.SIGTERM, self._handle)
        return True

    def uninstall(self):
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def spawn_settings():
    """Settings for forked job children: they must ignore SIGTERM and let the parent drain."""
    return {"sigterm": signal.SIG_IGN}

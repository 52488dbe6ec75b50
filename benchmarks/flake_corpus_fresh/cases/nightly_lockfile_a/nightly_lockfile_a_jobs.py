import os
import tempfile

LOCK_DIR = tempfile.mkdtemp(prefix="nightly_lockfile_a-locks-")


class LockHeld(Exception):
    pass


class JobLock:
    def __init__(self, name):
        self.path = os.path.join(LOCK_DIR, f"{name}.lock")

    def acquire(self):
        try:
            fd = os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            raise LockHeld(self.path) from None
        os.write(fd, str(os.getpid()).encode())
        os.close(fd)
        return self

    def release(self):
        os.unlink(self.path)


def run_nightly(rows):
    lock = JobLock("nightly").acquire()
    try:
        return sum(rows)
    finally:
        lock.release()

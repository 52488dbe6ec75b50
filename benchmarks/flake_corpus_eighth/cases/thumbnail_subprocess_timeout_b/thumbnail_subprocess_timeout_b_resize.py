"""Runs the image resizer as a child process (it is isolated because the codec segfaults sometimes)."""
import subprocess
import sys

WORK = "import hashlib\nd=b'x'\nfor _ in range(60000): d=hashlib.md5(d).digest()\nprint('ok 64x64')"


def resize(timeout):
    out = subprocess.run([sys.executable, "-I", "-S", "-c", WORK], capture_output=True, text=True,
                         timeout=timeout, check=True)
    return out.stdout.strip()

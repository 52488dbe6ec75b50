"""How a sandboxed Python command starts: the standard library and site-packages before the repo.

`python -m pytest` puts the current directory first on `sys.path`, so a repository file named
`pytest.py`, `json.py` or `hypothesis/` replaces the real module. Inside the sandbox every Python
command runs as `python -P -s boot.py -m pytest ...` instead: `-P` keeps the script's directory and the
current directory off the front of the path, `-s` drops the user site, and this script appends the
current directory at the end, so the repository's own packages still import (as `python -m pytest`
users expect) but can no longer shadow anything installed. The folder lanegate itself was imported
from is put first when it is not on the path already. It imports only `gc`, `runpy`, `os` and `sys`.

`boot.py ROOT --standby MOD[,MOD...] -m MODULE [ARG...]` is the same command started before all of
its arguments are known: it imports the named modules (what the command imports first anyway:
`pytest` for `-m pytest`), then reads the rest of its arguments from stdin (each ended by a NUL
byte, the whole ended by a newline, then end of file), points fd 0 at /dev/null, and runs exactly as
`-m MODULE ARG... REST...` would. Its start (the sandbox, the interpreter, those imports) overlaps
whatever the lane does until it knows the arguments. Anything but a complete message on stdin
ends it with exit 2 before the command runs.
"""

from __future__ import annotations

import gc
import os
import runpy
import sys

STANDBY = "--standby"
MAX_STANDBY_BYTES = 16 * 1024 * 1024  # the rest of a standby's arguments, at most


def main() -> None:
    # the first argument is where the judging lanegate lives: its plugins must be that lanegate's,
    # whichever way it was installed (PYTHONPATH, which the sandbox drops, included)
    root, args = sys.argv[1], sys.argv[2:]
    if root not in sys.path:
        sys.path.insert(0, root)
    sys.path.append(os.getcwd())
    if args[:1] == [STANDBY] and len(args) >= 4 and args[2] == "-m":
        preload(args[1].split(","))
        args = [*args[2:], *_standby_arguments()]
    if len(args) >= 2 and args[0] == "-m":
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    elif len(args) >= 2 and args[0] == "-c":
        sys.argv = ["-c", *args[2:]]
        code = compile(args[1], "<string>", "exec")
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})  # noqa: S102
    elif args:
        sys.argv = list(args)
        runpy.run_path(args[0], run_name="__main__")
    else:
        raise SystemExit(
            "usage: boot.py ROOT -m MODULE [ARG...] | -c CODE [ARG...] | SCRIPT [ARG...]"
        )


def preload(names: list[str]) -> None:
    """Import `names` with the cycle collector paused: what pytest and lanegate's plugin create at
    import lives as long as the process, and the collections a thousand-odd classes and functions
    set off (5% of the import's CPU) find nothing to free. The collector runs as usual again before
    any code of the repository does."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        for name in names:
            __import__(name)
    finally:
        if was_on:
            gc.enable()


def _standby_arguments() -> list[str]:
    """The arguments the lane sends a standby on fd 0 (NUL-ended, then a newline, then EOF); fd 0
    is /dev/null afterwards, as it is for every other lane command."""
    chunks: list[bytes] = []
    size = 0
    while True:
        chunk = os.read(0, 65536)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_STANDBY_BYTES:
            raise SystemExit(2)
        chunks.append(chunk)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    data = b"".join(chunks)
    if not data.endswith(b"\n") or (len(data) > 1 and not data.endswith(b"\0\n")):
        raise SystemExit(2)  # the lane went away before it sent them: run nothing
    return [os.fsdecode(arg) for arg in data[:-2].split(b"\0")] if len(data) > 1 else []


if __name__ == "__main__":
    main()

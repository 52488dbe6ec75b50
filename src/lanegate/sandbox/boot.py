"""How a sandboxed Python command starts: the standard library and site-packages before the repo.

`python -m pytest` puts the current directory first on `sys.path`, so a repository file named
`pytest.py`, `json.py` or `hypothesis/` replaces the real module. Inside the sandbox every Python
command runs as `python -P -s boot.py -m pytest ...` instead: `-P` keeps the script's directory and the
current directory off the front of the path, `-s` drops the user site, and this script appends the
current directory at the end, so the repository's own packages still import (as `python -m pytest`
users expect) but can no longer shadow anything installed. The folder lanegate itself was imported
from is put first when it is not on the path already. It imports only `runpy`, `os` and `sys`.
"""

from __future__ import annotations

import os
import runpy
import sys


def main() -> None:
    # the first argument is where the judging lanegate lives: its plugins must be that lanegate's,
    # whichever way it was installed (PYTHONPATH, which the sandbox drops, included)
    root, args = sys.argv[1], sys.argv[2:]
    if root not in sys.path:
        sys.path.insert(0, root)
    sys.path.append(os.getcwd())
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


if __name__ == "__main__":
    main()

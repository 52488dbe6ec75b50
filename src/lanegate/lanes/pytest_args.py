"""A repository path or node id as an argument on a lane's pytest command line.

pytest reads an argument that starts with `-` as an option, and one that starts with `@` as a file
of more arguments (argparse's `fromfile_prefix_chars`, which applies after `--` too). A diff that
adds `@x/test_a.py` would otherwise have pytest read `x/test_a.py` (or, given as a node id, a file
named `x/test_a.py::test_a`) and take its lines as options of the lane's own run. `./` in front
keeps both names what they are: pytest normalizes it away, so collection and the node ids it
reports are those of the bare path.
"""

from __future__ import annotations

_READ_AS_MORE = ("-", "@")


def path_argument(path: str) -> str:
    """`path` (a repo-relative file, folder or node id) as pytest must be given it."""
    return f"./{path}" if path.startswith(_READ_AS_MORE) else path

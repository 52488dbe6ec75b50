"""lanegate's distribution name, and the refusal to run beside the unrelated namesake.

The index's `lanegate` distribution is another project that also installs an import package
`lanegate` and a `lanegate` command. Ours is distributed as `lanegate-ci` and keeps the import
package and command users' tests and workflows already name (`from lanegate.oracles import ...`).
Two distributions writing one import package leave no telling whose code runs, so the command
refuses to start while the namesake is installed in the same environment.
"""

from __future__ import annotations

import re
from importlib import metadata

from lanegate.errors import UsageError

DISTRIBUTION = "lanegate-ci"
NAMESAKE = "lanegate"


def _normal(name: str | None) -> str:
    return re.sub(r"[-_.]+", "-", name or "").lower()


def refuse_namesake() -> None:
    """Raise UsageError when the unrelated `lanegate` distribution is installed beside this one."""
    # the lookup matches a folder's name up to its first dash, so read the name it declares
    named = (
        d for d in metadata.distributions(name=NAMESAKE) if _normal(d.metadata["Name"]) == NAMESAKE
    )
    found = next(named, None)
    if found is None:
        return
    version = found.metadata["Version"] or "unknown version"
    raise UsageError(
        f"the distribution {NAMESAKE!r} ({version}, metadata in {found.locate_file('')}) is "
        f"installed in this environment; it is an unrelated project (or a stale install of this "
        f"one before its rename to {DISTRIBUTION!r}) that also provides the import package "
        f"'lanegate', so it is unknown whose code would run",
        hint=f"pip uninstall -y {NAMESAKE} && pip install --force-reinstall {DISTRIBUTION}",
    )

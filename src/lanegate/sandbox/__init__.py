"""The sandbox every process that runs head code goes through (SPEC 9).

One face: `open_sandbox(...)` gives a `Sandbox` for one lane run; `Sandbox.command(argv, ...)` turns a
command into the one that runs it inside bubblewrap: own PID, network, IPC, UTS, cgroup and user
namespaces (every descendant dies with the sandbox), the whole file system read-only, `$HOME`, `/tmp`
and `/run` replaced by empty private ones, and the work tree replaced by a private, size-bounded copy
mounted at its own path (so paths, editable installs and node ids stay the same, and nothing the tests
write reaches the real checkout, its `.git`, or lanegate's staging). Resource limits are lowered inside
before the command starts; Python commands start with the installed modules ahead of the repository,
and lanegate's own modules byte-compiled beforehand (`bytecode`: nothing can be cached inside).
`Sandbox.environment()` is what of lanegate's environment such a command may be given (`environment`:
a short passthrough list, CI's markers, the policy's `sandbox.pass_env`; never a token).
`sandbox_python()` is the interpreter those commands start: lanegate's own, or the separate tests venv
that `lanegate install` filled inside the sandbox (and that never runs outside it).

Where no sandbox can be built, `open_sandbox` raises `SandboxError` (the lanes fail closed); an explicit
`enabled=False` (the CLI's `--no-sandbox`) gives a pass-through sandbox whose `record` says so, and the
scorer fails agent diffs that used it.
"""

from __future__ import annotations

from lanegate.errors import SandboxError
from lanegate.policy import SandboxPolicy
from lanegate.sandbox.core import (
    OUTPUT_HINT,
    SANDBOX_TMP,
    Sandbox,
    SandboxedCommand,
    open_sandbox,
    refuse_commands,
)
from lanegate.sandbox.interpreter import SandboxInterpreter, sandbox_interpreter, sandbox_python

__all__ = [
    "OUTPUT_HINT",
    "SANDBOX_TMP",
    "Sandbox",
    "SandboxError",
    "SandboxPolicy",
    "SandboxedCommand",
    "SandboxInterpreter",
    "open_sandbox",
    "refuse_commands",
    "sandbox_interpreter",
    "sandbox_python",
]

"""Run a caller's pull_request workflow end to end under act, offline, in host mode (no Docker).

`lanegate/lanegate@v1` (the reusable workflow and the action) resolves to a small copy of this checkout;
actions/checkout, setup-python, upload-artifact and download-artifact resolve to the stand-ins under
tests/act/stand-ins (act cannot download anything). Artifacts land in a shared folder per run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import yaml

ROOT = Path(__file__).resolve().parents[2]
STAND_INS = Path(__file__).resolve().parent / "stand-ins"
ACT = Path(sys.executable).with_name("act")
ORG_REPO = "lanegate/lanegate"
# the files a release of lanegate ships to act: everything the action and the workflow need
SHIPPED = ("action.yml", "action", ".github", "src", "pyproject.toml", "README.md", "LICENSE")
_USES = re.compile(r"uses:\s*(actions/[\w-]+)@([0-9a-f]{40})")


def pinned_actions() -> dict[str, str]:
    """`actions/<name>` -> the SHA our action and workflows pin (each must have a stand-in)."""
    files = (ROOT / "action.yml", *sorted((ROOT / ".github" / "workflows").glob("*.yml")))
    return {
        name: sha for path in files for name, sha in _USES.findall(path.read_text(encoding="utf-8"))
    }


def ship_lanegate(dest: Path) -> Path:
    """A copy of the files a lanegate release consists of (act copies the folder it is given)."""
    for name in SHIPPED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(
                source, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        elif source.is_file():
            dest.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


@dataclass(frozen=True)
class ActResult:
    """One act run: exit code, log, the artifacts the stand-ins stored, and the job summary."""

    returncode: int
    log: str
    artifacts: Path
    cache: Path
    seconds: float

    def job_succeeded(self, job: str) -> bool:
        """Every run of `job` succeeded (each shard `job K/N` of a matrix job), and there was one."""
        ends = re.findall(
            rf"\[[^\]]*/{job}(?: [0-9]+/[0-9]+(?:-[0-9]+)?)?\s*\] 🏁  Job (\w+)", self.log
        )
        return bool(ends) and all(end == "succeeded" for end in ends)

    def job_failed(self, job: str) -> bool:
        """A run of `job` (or of one of its shards) failed."""
        pattern = rf"\[[^\]]*/{job}(?: [0-9]+/[0-9]+(?:-[0-9]+)?)?\s*\] 🏁  Job failed"
        return re.search(pattern, self.log) is not None

    def score_report(self) -> dict[str, Any] | None:
        """The score job's score-report.json, when the scorer wrote one."""
        found = sorted(self.artifacts.glob("lanegate-report-attempt-*/score-report.json"))
        return json.loads(found[0].read_text()) if found else None

    def fails(self) -> set[tuple[str, str]]:
        report = self.score_report()
        return {(f["lane"], f["rule_id"]) for f in report["fails"]} if report else set()

    def summary(self) -> str:
        """What the steps wrote to GITHUB_STEP_SUMMARY, as act logs it."""
        return "\n".join(line for line in self.log.splitlines() if "Summary - " in line)

    def artifact_names(self) -> list[str]:
        return sorted(p.name for p in self.artifacts.iterdir()) if self.artifacts.exists() else []

    def ledger(self, lane: str, attempt: int = 1) -> dict[str, Any]:
        """The fixture ledger, or the ledger inside shard 1/1 of the property or flake lane."""
        if lane in ("property", "flake"):
            return self.shard_ledger(lane, 1, 1, attempt)
        folder = self.artifacts / f"lanegate-{lane}-attempt-{attempt}"
        data: dict[str, Any] = json.loads((folder / f"{lane}.json").read_text())
        return data

    def shard_ledger(self, lane: str, index: int, count: int, attempt: int = 1) -> dict[str, Any]:
        """The lane ledger inside shard `index`/`count`'s uploaded shard file."""
        name = f"{lane}-shard-{index}-of-{count}"
        folder = self.artifacts / f"lanegate-{name}-attempt-{attempt}"
        data: dict[str, Any] = json.loads((folder / f"{name}.json").read_text())["ledger"]
        return data


def pull_request_event(
    repo: Path,
    base_sha: str,
    head_sha: str,
    *,
    number: int = 7,
    body: str = "",
    labels: tuple[str, ...] = ("agent",),
) -> dict[str, Any]:
    """A pull_request `opened` payload for `repo`'s base and head commits."""
    owner = {"login": "octo-org", "type": "Organization"}
    repository = {"full_name": "octo-org/widgets", "name": "widgets", "owner": owner}
    return {
        "action": "opened",
        "number": number,
        "repository": repository,
        "pull_request": {
            "number": number,
            "body": body,
            "labels": [{"name": label} for label in labels],
            "user": {"login": "coding-agent[bot]", "type": "Bot"},
            "head": {"sha": head_sha, "ref": "agent/change", "repo": repository},
            "base": {"sha": base_sha, "ref": "main", "repo": repository},
        },
    }


def run_act(
    repo: Path,
    workflow: str,
    event: dict[str, Any],
    work: Path,
    *,
    lanegate: Path,
    attempt: int = 1,
    env: dict[str, str] | None = None,
    secrets: dict[str, str] | None = None,
    timeout: float = 240,
    concurrent_jobs: int = 3,
    event_name: str = "pull_request",
    job: str | None = None,
) -> ActResult:
    """`act EVENT_NAME` (pull_request by default) on `repo` (the workspace) with `workflow` (relative
    to the repo); `job` runs that job alone."""
    work.mkdir(parents=True, exist_ok=True)
    event_path = work / "event.json"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    artifacts = work / "artifacts"
    artifacts.mkdir(exist_ok=True)
    cache = work / "act-cache"
    command = [
        str(ACT),
        event_name,
        "--no-skip-checkout",  # run the checkout stand-in, which clones `repo` into the workspace
        "-P",
        "ubuntu-latest=-self-hosted",
        "-e",
        str(event_path),
        "-W",
        workflow,
        "--action-cache-path",
        str(cache),
        "--concurrent-jobs",
        str(concurrent_jobs),
        "--local-repository",
        f"{ORG_REPO}@v1={lanegate}",
        *(["-j", job] if job else []),
    ]
    for name, sha in pinned_actions().items():
        stand_in = STAND_INS / name.removeprefix("actions/")
        assert stand_in.is_dir(), f"no stand-in for {name}"
        command += ["--local-repository", f"{name}@{sha}={stand_in}"]
    all_env = {
        "LANEGATE_PYTHON": sys.executable,
        "LANEGATE_ACT_ARTIFACTS": str(artifacts),
        "LANEGATE_ACT_REPO": str(repo),
        "GITHUB_RUN_ATTEMPT": str(attempt),
        "GITHUB_REPOSITORY": "octo-org/widgets",
        "LANEGATE_API_RETRIES": "off",
        **(env or {}),
    }
    for key, value in all_env.items():
        command += ["--env", f"{key}={value}"]
    for key, value in (secrets or {}).items():
        command += ["-s", f"{key}={value}"]
    process_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "RUNNER_"))}
    process_env["HOME"] = str(work / "home")  # act keeps state in ~/.cache/act; keep it per run
    (work / "home").mkdir(exist_ok=True)
    started = time.monotonic()
    result = subprocess.run(
        command,
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=process_env,
    )
    (work / "act.log").write_text(result.stdout + result.stderr, encoding="utf-8")
    return ActResult(
        result.returncode,
        result.stdout + result.stderr,
        artifacts,
        cache,
        time.monotonic() - started,
    )


T = TypeVar("T")


def concurrently(runs: Mapping[str, Callable[[], T]]) -> dict[str, T]:
    """Every run in a thread of its own (one act process each), so that a module of scenarios
    takes about as long as its slowest run; the results by name."""
    with ThreadPoolExecutor(max_workers=len(runs)) as pool:
        futures = {name: pool.submit(run) for name, run in runs.items()}
        return {name: future.result() for name, future in futures.items()}


def workflow_uses(path: Path) -> list[str]:
    """Every `uses:` value in a workflow file (for assertions on what a scenario ran)."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for job in doc.get("jobs", {}).values():
        if "uses" in job:
            found.append(job["uses"])
        found.extend(step["uses"] for step in job.get("steps", []) if "uses" in step)
    return found

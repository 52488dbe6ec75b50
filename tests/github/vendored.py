"""examples/vendored-lane-b.yml is lane-b.yml with literals for inputs and the action pinned by SHA.

`python -m tests.github.vendored --write` regenerates it; a test checks that the two agree.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LANE_B = ROOT / ".github" / "workflows" / "lane-b.yml"
VENDORED = ROOT / "examples" / "vendored-lane-b.yml"
PLACEHOLDER_PIN = "lanegate/lanegate@0000000000000000000000000000000000000000 # v1.0.0"
HEADER = """\
# lane B vendored: a copy of lanegate's reusable lane-b.yml for repositories that keep every workflow
# in-house. Pin lanegate's action to the commit of the release you reviewed (replace the zeros with the
# v1.0.0 tag's commit sha; keep the version comment). Settings are literals here instead of inputs.
name: lanegate lane B (vendored)

on:
  pull_request:

concurrency:
  group: lanegate-${{ github.event.pull_request.number || github.ref }}
  cancel-in-progress: true

"""
LITERALS = {
    "${{ inputs.base-ref }}": '""',
    "${{ inputs.config }}": '""',
    "${{ inputs.python-version }}": '"3.12"',
    "${{ inputs.working-directory }}": '"."',
    "${{ inputs.install }}": '"-e .[test]"',
    "${{ inputs.allow-rerun }}": "false",
    "${{ inputs.property-shards }}": "1",
    "${{ inputs.flake-shards }}": "1",
    **{
        f"${{{{ startsWith(inputs.{job}-runs-on, '[') && fromJSON(inputs.{job}-runs-on)"
        f" || inputs.{job}-runs-on }}}}": "ubuntu-latest"
        for job in ("property", "fixture", "flake", "score")
    },
    "${{ inputs.coverage-map-workflow }}": '""',
    "${{ secrets.coverage-map-token }}": '""',
    "${{ secrets.token || github.token }}": "${{ github.token }}",
}


def render() -> str:
    source = LANE_B.read_text(encoding="utf-8")
    body = source[source.index("permissions: {}\n\njobs:") :]
    body = body.replace("uses: lanegate/lanegate@v1", f"uses: {PLACEHOLDER_PIN}")
    for expression, literal in LITERALS.items():
        body = body.replace(expression, literal)
    return HEADER + body


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        VENDORED.write_text(render(), encoding="utf-8")
    else:
        sys.stdout.write(render())

"""The demo material as one JSON file shipped in the package, built from `examples/demo/`.

`examples/demo/` is the readable source; `bundle.json` is what an installed lanegate reads (package data
cannot carry `.github/` or arbitrary file types reliably). `python -m lanegate.demo.bundle --write`
rebuilds it; a test checks the two agree.
"""

from __future__ import annotations

import argparse
import json
import sys
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from lanegate.errors import UsageError

LAYERS = ("base", "agent", "honest")
SCENARIO_FILE = "scenario.toml"
BUNDLE_FILE = "bundle.json"
_SKIP_PARTS = frozenset({"__pycache__", ".hypothesis", ".pytest_cache", ".lanegate"})


@dataclass(frozen=True, slots=True)
class Bundle:
    """Each layer as {posix path: text}, and the parsed scenario."""

    layers: dict[str, dict[str, str]]
    scenario: dict[str, Any]
    scenario_text: str


def source_dir() -> Path:
    """`examples/demo/` of a source checkout (it does not exist in an installed wheel)."""
    return Path(__file__).resolve().parents[3] / "examples" / "demo"


def read_source(root: Path) -> Bundle:
    """Read the demo material from a folder laid out like `examples/demo/`."""
    layers: dict[str, dict[str, str]] = {}
    for layer in LAYERS:
        top = root / layer
        files: dict[str, str] = {}
        for path in sorted(top.rglob("*")):
            rel = path.relative_to(top)
            if path.is_dir() or _SKIP_PARTS.intersection(rel.parts) or path.suffix == ".pyc":
                continue
            files[rel.as_posix()] = path.read_text(encoding="utf-8")
        layers[layer] = files
    text = (root / SCENARIO_FILE).read_text(encoding="utf-8")
    return Bundle(layers=layers, scenario=tomllib.loads(text), scenario_text=text)


def dump(bundle: Bundle) -> str:
    """The bundle's stable JSON text."""
    payload = {"layers": bundle.layers, "scenario": bundle.scenario_text}
    return json.dumps(payload, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def load_shipped() -> Bundle:
    """The bundle shipped in the package."""
    try:
        text = resources.files("lanegate.demo").joinpath(BUNDLE_FILE).read_text(encoding="utf-8")
        payload = json.loads(text)
        layers = payload["layers"]
        scenario_text = payload["scenario"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"lanegate/demo/{BUNDLE_FILE}: demo material unreadable ({exc})") from None
    return Bundle(layers=layers, scenario=tomllib.loads(scenario_text), scenario_text=scenario_text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="rebuild or check lanegate/demo/bundle.json")
    parser.add_argument("--write", action="store_true", help="write the bundle (default: check)")
    args = parser.parse_args(argv)
    target = Path(__file__).with_name(BUNDLE_FILE)
    text = dump(read_source(source_dir()))
    if args.write:
        target.write_text(text, encoding="utf-8")
        return 0
    current = target.read_text(encoding="utf-8") if target.exists() else ""
    if current != text:
        print(f"{target} is stale: run python -m lanegate.demo.bundle --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

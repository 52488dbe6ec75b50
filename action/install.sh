#!/usr/bin/env bash
# Installs lanegate from the action's own files into a fresh venv under RUNNER_TEMP: the runtime
# dependencies from pyproject.toml through pip (a warm pip cache makes this quick), and lanegate itself
# as a .pth path entry to the action's src/ (no wheel build). The tests' own dependencies (input
# `install`) go into a second venv, filled by `lanegate install` inside the sandbox: the head's build
# code never runs next to lanegate. Prints `python=<lanegate's interpreter>` and `tests-python=<the
# tests venv's, or empty: lanegate's own>` to GITHUB_OUTPUT. LANEGATE_PYTHON, when set, names an
# interpreter that already imports lanegate (a pre-baked runner image, or lanegate's own act tests)
# and skips lanegate's venv.
set -euo pipefail

action_path="${LANEGATE_ACTION_PATH:?}"
lane="${LANEGATE_LANE:?}"
started=$EPOCHREALTIME
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

case "$lane" in
  plan | property | fixture | flake | lint | score | coverage-map | authorship | candidates) ;;
  *)
    echo "::error title=lanegate/input::input lane is '$lane'; expected plan, property, fixture, flake, lint, score, coverage-map, authorship or candidates"
    exit 2
    ;;
esac

# The lanes run the head's code in a bubblewrap sandbox (docs/threat-model.md). GitHub's ubuntu-24.04
# restricts unprivileged user namespaces through AppArmor; the runner has passwordless sudo.
if [[ "$lane" == property || "$lane" == fixture || "$lane" == flake || "$lane" == coverage-map ]]; then
  as_root=()
  [[ "$(id -u)" == 0 ]] || as_root=(sudo -n)
  if ! command -v bwrap >/dev/null 2>&1; then
    "${as_root[@]}" apt-get install -y -qq bubblewrap >/dev/null ||
      { echo "::error title=lanegate/sandbox::cannot install bubblewrap; the lanes fail closed without a sandbox"; exit 2; }
  fi
  restrict=/proc/sys/kernel/apparmor_restrict_unprivileged_userns
  if [[ -r "$restrict" && "$(cat "$restrict")" == 1 ]]; then
    "${as_root[@]}" sysctl -q -w kernel.apparmor_restrict_unprivileged_userns=0 ||
      { echo "::error title=lanegate/sandbox::user namespaces are restricted and sysctl failed; the lanes fail closed without a sandbox"; exit 2; }
  fi
fi

if [[ -n "${LANEGATE_PYTHON:-}" ]]; then
  python="$LANEGATE_PYTHON"
else
  venv="${RUNNER_TEMP:?}/lanegate-venv-$lane"
  rm -rf "$venv"
  python3 -m venv --without-pip "$venv"
  requirements="${RUNNER_TEMP}/lanegate-requirements-$lane.txt"
  # Each job installs only what its lane imports: PyGithub and actions-toolkit (and their ~15
  # transitive packages) serve only the score job's check run, comment and outputs; pytest is needed
  # where lanegate runs the tests (property, flake), and comes with the tests' own install when the
  # caller gives one (it is their test runner; one resolver pass instead of two). `lanegate <cmd>` imports only that command's
  # module, so a lane never imports what it did not install.
  python3 - "$action_path/pyproject.toml" "$lane" "$([[ -n "${LANEGATE_INSTALL:-}" ]] && echo yes || echo no)" >"$requirements" <<'PY'
import re, sys, tomllib
with open(sys.argv[1], "rb") as handle:
    dependencies = tomllib.load(handle)["project"]["dependencies"]
lane = sys.argv[2]
tests_install_given = sys.argv[3] == "yes"
score_only = {"pygithub", "actions-toolkit"}
for requirement in dependencies:
    name = re.split(r"[<>=!~ \[;]", requirement, maxsplit=1)[0].lower()
    if lane == "score" or name not in score_only:
        print(requirement)
if lane in ("property", "flake", "coverage-map") and not tests_install_given:
    print("pytest")
PY
  # --no-compile: byte-compiling every module of every dependency costs more than the install itself.
  # `time` reports the CPU seconds too: on a loaded runner the wall clock says little.
  TIMEFORMAT='lanegate: pip for lanegate: %R s wall, %U s user + %S s system CPU'
  time python3 -m pip --python "$venv/bin/python" install --disable-pip-version-check -q \
    --no-compile -r "$requirements"
  purelib=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
  printf '%s\n' "$action_path/src" >"$purelib/lanegate-action.pth"
  python="$venv/bin/python"
fi

if ! "$python" -c 'import lanegate' 2>/dev/null; then
  echo "::error title=lanegate/install::$python cannot import lanegate"
  exit 2
fi
own=$EPOCHREALTIME
echo "lanegate: lanegate itself installed in $(elapsed "$started" "$own") s"

tests_python=""
if [[ -n "${LANEGATE_INSTALL:-}" ]]; then
  case "$lane" in
    property | fixture | flake | coverage-map)
      # pip runs the head's build backend (setup.py, a computed __version__, an in-tree backend):
      # head code. It runs inside the sandbox, with the network, into a venv of the tests' own that
      # lanegate only ever executes inside the sandbox; lanegate's venv is never written by it.
      read -ra install_args <<<"$LANEGATE_INSTALL"
      install_args+=(pytest)
      tests_venv="${RUNNER_TEMP:?}/lanegate-tests-venv-$lane"
      rm -rf "$tests_venv"
      checks=()
      [[ "$lane" == fixture ]] || checks=(--check-import pytest)
      config_args=()
      [[ -z "${LANEGATE_CONFIG:-}" ]] || config_args=(--config "$LANEGATE_CONFIG")
      (cd "${LANEGATE_WORKDIR:-.}" &&
        "$python" -m lanegate install --venv "$tests_venv" --pip python3 "${config_args[@]}" \
          "${checks[@]}" -- "${install_args[@]}") ||
        { echo "::error title=lanegate/install::the tests' dependencies could not be installed in the sandbox (see above)"; exit 2; }
      tests_python="$tests_venv/bin/python"
      ;;
    *) echo "lanegate: input install is ignored by lane $lane (it runs no tests)" ;;
  esac
fi

if [[ -z "$tests_python" && ( "$lane" == property || "$lane" == flake || "$lane" == coverage-map ) ]] &&
  ! "$python" -c 'import pytest' 2>/dev/null; then
  echo "::error title=lanegate/install::$python cannot import pytest, which lane $lane runs the tests with"
  exit 2
fi

ended=$EPOCHREALTIME
echo "python=$python" >>"${GITHUB_OUTPUT:?}"
echo "tests-python=$tests_python" >>"$GITHUB_OUTPUT"
echo "lanegate: test dependencies installed in $(elapsed "$own" "$ended") s"
echo "lanegate: ready for lane $lane in $(elapsed "$started" "$ended") s ($python${tests_python:+; the tests run sandboxed with $tests_python})"

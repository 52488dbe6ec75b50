#!/usr/bin/env bash
# Runs one lanegate lane, the lint, or the scorer (+ publish) for the composite action, and writes the
# outputs `ledger-path` and `verdict`. The step's exit code is lanegate's: 0 only when it passed.
# Ledgers go to a fresh directory under RUNNER_TEMP with an unguessable name: outside the workspace, and
# written only after the tests' processes have exited (the lanes guarantee that part).
set -euo pipefail

py="${LANEGATE_PY:?install step gave no interpreter}"
lane="${LANEGATE_LANE:?}"
attempt="${GITHUB_RUN_ATTEMPT:-1}"
output="${GITHUB_OUTPUT:?lanegate runs as an Actions step: GITHUB_OUTPUT is required}"
config_args=()
if [[ -n "${LANEGATE_CONFIG:-}" ]]; then config_args=(--config "$LANEGATE_CONFIG"); fi

finish() { # verdict, ledger path, exit code
  echo "verdict=$1" >>"$output"
  echo "ledger-path=$2" >>"$output"
  exit "$3"
}

cd "${LANEGATE_WORKDIR:-.}"

if [[ "$attempt" != "1" && "${LANEGATE_ALLOW_RERUN:-false}" != "true" ]]; then
  echo "::error title=lanegate/run-attempt::run attempt $attempt: lane B never scores a re-run; push a new commit (or set allow-rerun: true to opt out explicitly)"
  if [[ "$lane" != "score" ]]; then finish fail "" 1; fi
fi

case "$lane" in
  plan)
    if [[ -z "${LANEGATE_BASE:-}" ]]; then
      echo "::error title=lanegate/input::no base-ref input and no pull_request event to take the base sha from"
      finish fail "" 2
    fi
    out=$(mktemp -d "${RUNNER_TEMP:?}/lanegate-plan-XXXXXXXX")
    set +e
    "$py" -m lanegate plan --base "$LANEGATE_BASE" --out "$out" "${config_args[@]}" \
      --property-shards "${LANEGATE_PROPERTY_SHARDS:-1}" --flake-shards "${LANEGATE_FLAKE_SHARDS:-1}"
    code=$?
    set -e
    if [[ "$code" != 0 || ! -f "$out/plan.json" ]]; then
      echo "::error title=lanegate/plan::lanegate plan wrote no plan (exit $code): every shard and the scorer fail closed"
      finish fail "" "$((code == 0 ? 3 : code))"
    fi
    finish pass "$out/plan.json" 0
    ;;
  property | fixture | flake)
    if [[ -z "${LANEGATE_BASE:-}" ]]; then
      echo "::error title=lanegate/input::no base-ref input and no pull_request event to take the base sha from"
      finish fail "" 2
    fi
    out=$(mktemp -d "${RUNNER_TEMP:?}/lanegate-$lane-XXXXXXXX")
    lane_args=()
    if [[ "$lane" == "flake" && -n "${GITHUB_EVENT_PATH:-}" && -f "$GITHUB_EVENT_PATH" ]]; then
      # leases must also be shown in the PR body (SPEC 6): hand the body to the lane as a file
      body_dir=$(mktemp -d "${RUNNER_TEMP:?}/lanegate-pr-XXXXXXXX")
      "$py" -m lanegate authorship --event "$GITHUB_EVENT_PATH" --pr-body-out "$body_dir/body.md" \
        "${config_args[@]}" >/dev/null
      lane_args=(--pr-body "$body_dir/body.md")
    fi
    if [[ "$lane" == property && -n "${LANEGATE_COVERAGE_MAP:-}" ]]; then
      # a map (or a directory of maps) of the merge base from a trusted default-branch run
      lane_args+=(--coverage-map "$LANEGATE_COVERAGE_MAP")
    fi
    ledger="$out/$lane.json"
    if [[ -n "${LANEGATE_SHARD:-}" ]]; then
      # lanegate refuses a malformed K/N or a plan that is not this diff's (exit 2, no ledger)
      lane_args+=(--shard "$LANEGATE_SHARD" --plan "${LANEGATE_PLAN:?a shard needs the plan input}")
      if [[ "$LANEGATE_SHARD" =~ ^([0-9]+)/([0-9]+)$ ]]; then
        ledger="$out/$lane-shard-${BASH_REMATCH[1]}-of-${BASH_REMATCH[2]}.json"
      fi
    fi
    set +e
    "$py" -m lanegate "$lane" --base "$LANEGATE_BASE" --out "$out" "${config_args[@]}" "${lane_args[@]}"
    code=$?
    set -e
    if [[ ! -f "$ledger" ]]; then
      echo "::error title=lanegate/$lane::lane $lane wrote no ledger (exit $code): the scorer will fail closed"
      finish fail "" "$((code == 0 ? 3 : code))"
    fi
    if [[ "$code" == 0 ]]; then finish pass "$ledger" 0; else finish fail "$ledger" "$code"; fi
    ;;
  coverage-map)
    # on the default branch: the coverage map of the checked-out commit, for the property lane of
    # pull requests based on it (docs/github.md, "Coverage cache")
    out=$(mktemp -d "${RUNNER_TEMP:?}/lanegate-coverage-map-XXXXXXXX")
    set +e
    "$py" -m lanegate coverage-map build --out "$out" "${config_args[@]}"
    code=$?
    set -e
    built=$(find "$out" -maxdepth 1 -name 'coverage-map-*.json' -print -quit)
    if [[ "$code" != 0 || -z "$built" ]]; then
      echo "::error title=lanegate/coverage-map::no coverage map was built (exit $code)"
      finish fail "" "$((code == 0 ? 3 : code))"
    fi
    finish pass "$built" 0
    ;;
  candidates)
    if [[ -z "${LANEGATE_BASE:-}" ]]; then
      echo "::error title=lanegate/input::no base-ref input: the candidates were judged against one base"
      finish fail "" 2
    fi
    runs="${LANEGATE_LEDGERS:?candidates needs the ledgers input: one folder per candidate, 1 to N}"
    # the refs input: a JSON list of 1 to 32 refs, none an option; else fail closed
    if ! refs_text=$("$py" -c '
import json, os, sys
refs = json.loads(os.environ.get("LANEGATE_CANDIDATES") or "null")
if not isinstance(refs, list) or not 1 <= len(refs) <= 32 or not all(
    isinstance(r, str) and r and not r.startswith("-") and "\n" not in r for r in refs
):
    sys.exit(1)
print("\n".join(refs))
'); then
      echo "::error title=lanegate/input::candidates must be a JSON list of 1 to 32 refs (none starting with -)"
      finish fail "" 2
    fi
    mapfile -t refs <<<"$refs_text"
    # a checkout has the other branches as origin/<name> only: name them as the refs input does
    for ref in "${refs[@]}"; do
      if ! git rev-parse --verify -q "$ref^{commit}" >/dev/null &&
        git rev-parse --verify -q "refs/remotes/origin/$ref^{commit}" >/dev/null; then
        git update-ref "refs/heads/$ref" "refs/remotes/origin/$ref" || true
      fi
    done
    out=$(mktemp -d "${RUNNER_TEMP:?}/lanegate-candidates-XXXXXXXX")
    set +e
    "$py" -m lanegate candidates --base "$LANEGATE_BASE" --from-runs "$runs" --out "$out" -- "${refs[@]}" >/dev/null
    code=$?
    set -e
    if [[ ! -f "$out/candidates.json" ]]; then
      echo "::error title=lanegate/candidates::lanegate candidates wrote no report (exit $code)"
      finish fail "" "$((code == 0 ? 3 : code))"
    fi
    cat "$out/candidates.md" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
    if [[ "$code" == 0 ]]; then finish pass "$out/candidates.json" 0; fi
    finish fail "$out/candidates.json" "$code"
    ;;
  authorship)
    # agent or human for this pull_request event, by the [authorship] rules of the policy in the
    # working directory (check out the base: a head may not list its own author as human); anything
    # but a clear "human" is agent, so a caller that routes on it fails closed
    kind=agent
    if [[ -n "${GITHUB_EVENT_PATH:-}" && -f "$GITHUB_EVENT_PATH" ]]; then
      set +e
      decided=$("$py" -m lanegate authorship --event "$GITHUB_EVENT_PATH" "${config_args[@]}")
      code=$?
      set -e
      if [[ "$code" == 0 && "$decided" == "human" ]]; then kind=human; fi
      if [[ "$code" != 0 ]]; then
        echo "::warning title=lanegate/authorship::lanegate authorship failed (exit $code): treated as agent"
      fi
    else
      echo "::warning title=lanegate/authorship::no pull_request event: treated as agent"
    fi
    echo "authorship=$kind" >>"$output"
    finish pass "" 0
    ;;
  lint)
    if [[ -z "${LANEGATE_BASE:-}" ]]; then
      echo "::error title=lanegate/input::no base-ref input and no pull_request event to take the base sha from"
      finish fail "" 2
    fi
    # the workflow that called lane-b.yml (github.workflow_ref is the caller's): Lane B's scope
    caller_args=()
    caller="${GITHUB_WORKFLOW_REF:-}"
    caller="${caller%%@*}"
    caller="${caller#"${GITHUB_REPOSITORY:-}"/}"
    if [[ "$caller" == .github/workflows/* && -f "$caller" ]]; then caller_args=(--caller "$caller"); fi
    out=$(mktemp -d "${RUNNER_TEMP:?}/lanegate-lint-XXXXXXXX")
    set +e
    "$py" -m lanegate lint --gate --base "$LANEGATE_BASE" "${caller_args[@]}" "${config_args[@]}" \
      --format json --output "$out/lint.json" .
    code=$?
    set -e
    if [[ ! -f "$out/lint.json" ]]; then
      echo "::error title=lanegate/lint::lanegate lint wrote no report (exit $code)"
      finish fail "" "$((code == 0 ? 3 : code))"
    fi
    if [[ "$code" == 0 ]]; then finish pass "$out/lint.json" 0; else finish fail "$out/lint.json" "$code"; fi
    ;;
  score)
    ledgers="${LANEGATE_LEDGERS:?score needs the ledgers input}"
    mkdir -p "$ledgers"
    lint_args=()
    if [[ -n "${LANEGATE_LINT_REPORT:-}" ]]; then lint_args=(--lint "$LANEGATE_LINT_REPORT"); fi
    base_args=()
    if [[ -n "${LANEGATE_BASE:-}" ]]; then base_args=(--repo . --base "$LANEGATE_BASE"); fi
    event_args=()
    if [[ -n "${GITHUB_EVENT_PATH:-}" && -f "$GITHUB_EVENT_PATH" ]]; then
      # authorship from the event (labels, author, bot type; unknown is agent) and the PR body
      body_dir=$(mktemp -d "${RUNNER_TEMP:?}/lanegate-pr-XXXXXXXX")
      kind=$("$py" -m lanegate authorship --event "$GITHUB_EVENT_PATH" \
        --pr-body-out "$body_dir/body.md" "${config_args[@]}") || kind=agent
      if [[ "$kind" != "human" ]]; then kind=agent; fi
      event_args=(--authorship "$kind")
      if [[ -f "$body_dir/body.md" ]]; then event_args+=(--pr-body "$body_dir/body.md"); fi
    fi
    rerun_args=()
    if [[ "${LANEGATE_ALLOW_RERUN:-false}" == "true" ]]; then rerun_args=(--allow-rerun); fi
    plan_args=()
    if [[ -n "${LANEGATE_PLAN:-}" ]]; then plan_args=(--plan "$LANEGATE_PLAN"); fi
    set +e
    "$py" -m lanegate score --ledgers "$ledgers" "${lint_args[@]}" --expect-jobs \
      "${base_args[@]}" --run-attempt "$attempt" "${rerun_args[@]}" "${plan_args[@]}" "${config_args[@]}" "${event_args[@]}"
    code=$?
    set -e
    report="$ledgers/score-report.json"
    if [[ ! -f "$report" ]]; then
      echo "::error title=lanegate/score::lanegate score wrote no report (exit $code): failing closed"
      printf '## lanegate lane B: FAIL\n\nThe scorer wrote no report (exit %s).\n' "$code" >>"${GITHUB_STEP_SUMMARY:-/dev/null}"
      finish fail "" "$((code == 0 ? 3 : code))"
    fi
    set +e
    "$py" -m lanegate publish --report "$report"
    published=$?
    set -e
    # publish exits 0 only on a pass report; the scorer's own code must agree, or nothing passes
    # (the scorer itself fails a re-run unless it was given the caller's --allow-rerun)
    if [[ "$code" == 0 && "$published" == 0 ]]; then
      finish pass "$report" 0
    fi
    finish fail "$report" 1
    ;;
esac

#!/usr/bin/env bash
# The README's test command. Provisions the machine (scripts/provision.sh: bubblewrap, the
# postgres user), then builds, typechecks, lints and checks every package tarball (publint,
# attw) once, on the Node that runs it; runs the whole test suite on every Node of
# scripts/lib/node-matrix.json (the runner's own for its major, the pinned others fetched once
# into a cache outside the work tree); then the end-to-end suites in e2e/. It fails when a
# step fails, when any test is skipped, and when the run leaves a new entry in /tmp or a
# process behind. The last line counts every test of every step, from vitest's JSON reports.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bootstrap.sh
. scripts/lib/toolchain-cache.sh

require_node
say "provisioning the machine: bash scripts/provision.sh (bubblewrap, the native toolchain, the postgres user)"
bash scripts/provision.sh
install_dependencies

say "fetching the pinned Nodes of scripts/lib/node-matrix.json, paperclipai, verdaccio, Codex, OpenCode, the provider pack's ACPX packages and upstream's runnerd into $(toolchain_cache_dir) (once)"
runner_node="$(command -v node)"
runner_major="$(node -p 'process.versions.node.split(".")[0]')"
test_nodes=()
for major in $(node_matrix majors); do
  if [ "$major" = "$runner_major" ]; then test_nodes+=("$runner_node"); else test_nodes+=("$(toolchain_node "$major")"); fi
done
node24="$(toolchain_node 24)"
toolchain_paperclip_server >/dev/null
toolchain_verdaccio >/dev/null
toolchain_codex >/dev/null
toolchain_codex "$PAPERCLIP_REMOTE_CODEX_VERSION" >/dev/null
toolchain_opencode >/dev/null
toolchain_pack_acpx_packages >/dev/null
toolchain_upstream_runnerd >/dev/null

run_dir="$(mktemp -d)"
trap 'rm -rf "$run_dir"' EXIT
# Every process of this run inherits the marker; the leftover check finds them by it.
PAPERCLIP_TEST_RUN="$(basename "$run_dir")-$$"
export PAPERCLIP_TEST_RUN
# The leftover check reads /proc with @paperclipai/internal's parser, which it loads built.
pnpm_cmd --filter @paperclipai/internal run build >/dev/null
node scripts/repo-checks/src/leftovers.mjs snapshot "$run_dir/before.json"
# Reports of an earlier run must not count in this one.
find . -name node_modules -prune -o -type d -name .vitest-report -prune -exec rm -rf {} +

step_names=()
step_reports=()
failed_steps=()
report=""

# step NAME COMMAND...: runs one step to the end and notes a failure. Its vitest runs write
# their JSON reports as .vitest-report/step-N.json in each package (vitest_args), which the
# closing tally reads.
step() {
  local name="$1"
  shift
  report="step-${#step_names[@]}"
  step_names+=("$name")
  step_reports+=("$report")
  say "$name"
  local started="$SECONDS"
  "$@" || failed_steps+=("$name")
  took "$name" "$started"
}

# took NAME STARTED: how long a step ran (SECONDS when it started), for the 45-minute budget.
took() { printf '    (%s: %d s; %d s into the run)\n' "$1" "$((SECONDS - $2))" "$SECONDS"; }

# The reporters of every vitest run: the console's, and the JSON report of the current step.
vitest_args() { printf '%s\n' --reporter=default --reporter=json "--outputFile.json=.vitest-report/$report.json"; }

# on_node NODE_BINARY COMMAND...: runs a command with that Node first on PATH (npx, pnpm,
# turbo, vitest and every child they start then run on it).
on_node() {
  local node_binary="$1"
  shift
  PATH="$(dirname "$node_binary"):$PATH" "$@"
}

# turbo_run CONCURRENCY TASK...: at most CONCURRENCY tasks at once.
turbo_run() {
  local concurrency="$1"
  shift
  pnpm_cmd exec turbo run --concurrency="$concurrency" --continue "$@"
}

# The test task's cache key includes the Node version, so each Node runs (or replays, with
# its report) its own; --only: the builds it depends on were the first step's. The runner's
# suite, the longest, starts at once in its own turbo run (its output kept in a file, printed
# after); the other packages run three at once beside it. In one turbo run of all of them,
# turbo started the runner's suite eighth, behind the small suites, and it then ran alone for
# the last ~3 minutes of each Node's pass, the machine half idle (vmstat of a clean-clone run).
LONGEST_SUITE=@paperclipai/paperclip-runner
# shellcheck disable=SC2046 # vitest_args prints one argument a line, none with spaces
tests_on() {
  local node_binary="$1" longest_log="$run_dir/longest-suite.log" longest_pid status=0 version
  version="$("$node_binary" --version)"
  PAPERCLIP_TEST_NODE="$version" on_node "$node_binary" turbo_run 1 test --only --output-logs=full \
    --filter="$LONGEST_SUITE" -- $(vitest_args) >"$longest_log" 2>&1 &
  longest_pid=$!
  PAPERCLIP_TEST_NODE="$version" on_node "$node_binary" turbo_run 3 test --only --output-logs=full \
    --filter="!$LONGEST_SUITE" -- $(vitest_args) || status=1
  wait "$longest_pid" || status=1
  cat "$longest_log"
  return "$status"
}

# e2e_suite NODE PACKAGE SCRIPT: one end-to-end suite of e2e/, run once on that Node.
# shellcheck disable=SC2046
e2e_suite() { on_node "$1" pnpm_cmd --filter "$2" run "$3" $(vitest_args); }

# The end-to-end suites mostly wait (on servers, Postgres, Codex, leases): one at a time left
# half of a 2-core machine idle, so they run in two lanes. beside NAME NODE PACKAGE SCRIPT
# queues a suite for the background lane; start_lane numbers its steps and starts it, its
# output kept in a file; join_lane waits for it, prints that output whole and notes failures.
lane_names=()
lane_nodes=()
lane_packages=()
lane_scripts=()
beside() {
  lane_names+=("$1")
  lane_nodes+=("$2")
  lane_packages+=("$3")
  lane_scripts+=("$4")
}
lane_log="$run_dir/lane.log"
lane_failures="$run_dir/lane-failures"
start_lane() {
  local lane_reports=() index lane_report started
  for index in "${!lane_names[@]}"; do
    lane_report="step-${#step_names[@]}"
    lane_reports+=("$lane_report")
    step_names+=("${lane_names[$index]}")
    step_reports+=("$lane_report")
  done
  say "in the background, beside the next steps: ${lane_names[*]}"
  : >"$lane_failures"
  (
    for index in "${!lane_names[@]}"; do
      report="${lane_reports[$index]}"
      say "${lane_names[$index]}"
      started="$SECONDS"
      e2e_suite "${lane_nodes[$index]}" "${lane_packages[$index]}" "${lane_scripts[$index]}" ||
        printf '%s\n' "${lane_names[$index]}" >>"$lane_failures"
      took "${lane_names[$index]}" "$started"
    done
  ) >"$lane_log" 2>&1 &
  lane_pid=$!
}
join_lane() {
  say "waiting for the background lane (${lane_names[*]})"
  wait "$lane_pid" || true
  cat "$lane_log"
  local name
  while IFS= read -r name; do failed_steps+=("$name"); done <"$lane_failures"
}

step "build, typecheck, lint, check:package (Node $(node --version))" \
  turbo_run 2 build typecheck lint check:package --output-logs=new-only
for test_node in "${test_nodes[@]}"; do
  step "tests on Node $("$test_node" --version)" tests_on "$test_node"
done
# The oracles run upstream's own code, which needs Node 24: once each, not once per Node. The
# side-by-side files against upstream's runner too: upstream's runner is a native binary, and
# the runner's own suite runs on every Node above.
beside "the real Paperclip server hosts our plugin, end to end (Node 24)" \
  "$node24" @paperclipai/paperclip-host-e2e test:host
# Releases on the runner's Node; installs from the registry on every Node of the matrix.
beside "a release to a loopback npm registry, installed from it (every Node, the real server)" \
  "$runner_node" @paperclipai/registry-release-e2e test:registry
start_lane
# The native bridge's C under ASan+UBSan: its own tests and the handoff's, once (not per Node).
step "native bridge and handoff tests under ASan+UBSan" \
  e2e_suite "$runner_node" @paperclipai/adapter-utils test:sanitized
step "upstream's local-mode controller drives our runner (Node 24)" \
  e2e_suite "$node24" @paperclipai/runner-upstream-oracle test:oracle
step "the server's durable control plane drives our runner (Node 24)" \
  e2e_suite "$node24" @paperclipai/runner-server-oracle test:oracle
step "the server's Codex transport drives upstream's runner and ours, real Codex CLI (Node 24)" \
  e2e_suite "$node24" @paperclipai/runner-codex-oracle test:e2e
step "the runner's side-by-side files against upstream's runner, through the server's control plane (Node 24)" \
  e2e_suite "$node24" @paperclipai/runner-upstream-differential test:differential
join_lane

say "checking that the run left nothing behind (/tmp, processes)"
node scripts/repo-checks/src/leftovers.mjs check "$run_dir/before.json" || failed_steps+=("the leftover check")

say "summary"
for name in "${failed_steps[@]}"; do printf 'failed: %s\n' "$name"; done
summary_args=()
for index in "${!step_names[@]}"; do summary_args+=("${step_names[$index]}" "${step_reports[$index]}"); done
status=0
node scripts/repo-checks/src/test-summary.mjs "${summary_args[@]}" || status=$?
[ "${#failed_steps[@]}" -eq 0 ] || status=1
exit "$status"

#!/usr/bin/env bash
# The README's test command. Builds, typechecks, lints and checks every package tarball
# (publint, attw) once, on the Node that runs it; then runs the whole test suite (unit,
# integration with real bwrap, the consumer smoke test of the packed tarballs) on that Node
# and again on the pinned Node 22 and Node 24 (fetched once into a cache outside the work
# tree). It fails when a step fails, when any test is skipped, and when the run leaves a new
# entry in /tmp or a process behind. The last line counts every test of every Node.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bootstrap.sh
. scripts/lib/toolchain-cache.sh

require_node
require_bubblewrap
require_native_toolchain
require_postgres_user
install_dependencies

say "fetching the pinned Node 22, Node 24, paperclipai, Codex and upstream's runnerd into $(toolchain_cache_dir) (once)"
runner_node="$(command -v node)"
node22="$(toolchain_node 22)"
node24="$(toolchain_node 24)"
toolchain_paperclip_server >/dev/null
toolchain_codex >/dev/null
toolchain_upstream_runnerd >/dev/null

run_dir="$(mktemp -d)"
trap 'rm -rf "$run_dir"' EXIT
# Every process of this run inherits the marker; the leftover check finds them by it.
PAPERCLIP_TEST_RUN="$(basename "$run_dir")-$$"
export PAPERCLIP_TEST_RUN
node scripts/repo-checks/src/leftovers.mjs snapshot "$run_dir/before.json"

step_names=()
step_logs=()
failed_steps=()

# step NAME COMMAND...: runs one step to the end, keeps its log for the counts, notes a failure.
step() {
  local name="$1" log
  shift
  log="$run_dir/step-${#step_names[@]}.log"
  step_names+=("$name")
  step_logs+=("$log")
  say "$name"
  "$@" 2>&1 | tee "$log" || failed_steps+=("$name")
}

# on_node NODE_BINARY COMMAND...: runs a command with that Node first on PATH (npx, pnpm,
# turbo, vitest and every child they start then run on it).
on_node() {
  local node_binary="$1"
  shift
  PATH="$(dirname "$node_binary"):$PATH" "$@"
}

turbo_run() { pnpm_cmd exec turbo run "$@" --concurrency=2 --continue; }

# The test task's cache key includes the Node version, so each Node runs (or replays) its own;
# --only: the builds it depends on were the first step's.
tests_on() {
  PAPERCLIP_TEST_NODE="$("$1" --version)" on_node "$1" turbo_run test --only --output-logs=full
}

step "build, typecheck, lint, check:package (Node $(node --version))" \
  turbo_run build typecheck lint check:package --output-logs=new-only
for test_node in "$runner_node" "$node22" "$node24"; do
  # A runner on the very version of a pinned Node runs it once.
  [ "$test_node" = "$runner_node" ] || [ "$("$test_node" --version)" != "$(node --version)" ] || continue
  step "tests on Node $("$test_node" --version)" tests_on "$test_node"
done
# The native bridge's C under ASan+UBSan: its own tests and the handoff's, once (not per Node).
step "native bridge and handoff tests under ASan+UBSan" \
  pnpm_cmd --filter @paperclipai/adapter-utils run test:sanitized
# The oracles run upstream's own code, which needs Node 24: once each, not once per Node.
step "upstream's local-mode controller drives our runner (Node 24)" \
  on_node "$node24" pnpm_cmd --filter @paperclipai/runner-upstream-oracle run test:oracle
step "the server's durable control plane drives our runner (Node 24)" \
  on_node "$node24" pnpm_cmd --filter @paperclipai/runner-server-oracle run test:oracle
step "the server's Codex transport drives upstream's runner and ours, real Codex CLI (Node 24)" \
  on_node "$node24" pnpm_cmd --filter @paperclipai/runner-codex-oracle run test:e2e
step "the real Paperclip server hosts our plugin, end to end (Node 24)" \
  on_node "$node24" pnpm_cmd --filter @paperclipai/paperclip-host-e2e run test:host

say "checking that the run left nothing behind (/tmp, processes)"
node scripts/repo-checks/src/leftovers.mjs check "$run_dir/before.json" || failed_steps+=("the leftover check")

say "summary"
for name in "${failed_steps[@]}"; do printf 'failed: %s\n' "$name"; done
summary_args=()
for index in "${!step_names[@]}"; do summary_args+=("${step_names[$index]}" "${step_logs[$index]}"); done
status=0
node scripts/repo-checks/src/test-summary.mjs "${summary_args[@]}" || status=$?
[ "${#failed_steps[@]}" -eq 0 ] || status=1
exit "$status"

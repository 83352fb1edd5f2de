#!/usr/bin/env bash
# The README's demo command: installs what it needs, builds, then runs the tour
# of all four packages on their embedded defaults (the CreateOS emulator, the
# scripted harness, loopback servers). Words after it pick sections by title
# (`bash scripts/demo.sh codex`).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bootstrap.sh

require_node
bash scripts/provision.sh bubblewrap native-toolchain
install_dependencies
say "building the packages"
pnpm_cmd exec turbo run build --output-logs=errors-only
say "starting the tour"
pnpm_cmd --silent --filter @paperclipai/demo demo "$@"

# Shared set-up of the README commands: Node 20+, the pinned pnpm, dependencies (the system
# packages are scripts/provision.sh's). Sourced by scripts/test.sh, scripts/demo.sh and
# scripts/provision.sh; every step says what it does.

PNPM_VERSION="10.34.8"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
fail() { printf 'error: %s\n' "$*" >&2; exit 1; }

require_node() {
  command -v node >/dev/null 2>&1 || fail "Node.js 20.19 or newer is required: https://nodejs.org/"
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
    || fail "Node.js 20.19 or newer is required (found $(node --version))."
}

pnpm_cmd() { npx -y "pnpm@${PNPM_VERSION}" "$@"; }

install_dependencies() {
  say "installing dependencies (pnpm ${PNPM_VERSION}, --frozen-lockfile)"
  pnpm_cmd install --frozen-lockfile --reporter=append-only | grep -vE '^(Progress|Packages):' || true
  test -d node_modules/.pnpm || fail "pnpm install failed"
}

# Shared set-up of the README commands: Node 20+, the pinned pnpm, bubblewrap, dependencies.
# Sourced by scripts/test.sh and scripts/demo.sh; every step says what it does.

PNPM_VERSION="10.34.8"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
fail() { printf 'error: %s\n' "$*" >&2; exit 1; }

require_node() {
  command -v node >/dev/null 2>&1 || fail "Node.js 20.19 or newer is required: https://nodejs.org/"
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' \
    || fail "Node.js 20.19 or newer is required (found $(node --version))."
}

# Bubblewrap is a system dependency of the sandbox: install it when we may, else say how.
require_bubblewrap() {
  command -v bwrap >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing bubblewrap (apt-get install -y bubblewrap)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null
    command -v bwrap >/dev/null 2>&1 || fail "bubblewrap did not install; run: apt-get install -y bubblewrap"
  else
    fail "bubblewrap (bwrap) is missing; install it with: sudo apt-get install -y bubblewrap"
  fi
}

# The native bridge's toolchain: the package build compiles it statically for linux-x64 and
# linux-arm64 (Debian's cross compiler), the test command starts the arm64 one under
# qemu-user and runs cppcheck over its sources. One apt-get for whatever is missing.
require_native_toolchain() {
  local missing=()
  command -v cc >/dev/null 2>&1 || missing+=(build-essential)
  command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
  command -v qemu-aarch64-static >/dev/null 2>&1 || command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user-static)
  command -v cppcheck >/dev/null 2>&1 || missing+=(cppcheck)
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "installing the native bridge toolchain (apt-get install -y ${missing[*]})"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || fail "the native toolchain did not install; run: apt-get install -y ${missing[*]}"
  else
    fail "the native bridge toolchain is missing; install it with: sudo apt-get install -y ${missing[*]}"
  fi
}

# As root, the real Paperclip server's embedded Postgres refuses to run as root and runs as
# the `postgres` user: create that system user when it is missing.
require_postgres_user() {
  [ "$(id -u)" = "0" ] || return 0
  id postgres >/dev/null 2>&1 && return 0
  say "creating the postgres system user (the embedded Postgres of the real server runs as it)"
  useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres \
    || fail "could not create the postgres user; run: useradd --system postgres"
}

pnpm_cmd() { npx -y "pnpm@${PNPM_VERSION}" "$@"; }

install_dependencies() {
  say "installing dependencies (pnpm ${PNPM_VERSION}, --frozen-lockfile)"
  pnpm_cmd install --frozen-lockfile --reporter=append-only | grep -vE '^(Progress|Packages):' || true
  test -d node_modules/.pnpm || fail "pnpm install failed"
}

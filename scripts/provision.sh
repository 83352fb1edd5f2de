#!/usr/bin/env bash
# What the machine needs beyond Node and npm, provisioned explicitly (the test command and
# the demo call this and say so). Each item is installed only when missing; without root,
# a missing item stops with one line saying how to provision it.
#
#   bash scripts/provision.sh                 everything the test command needs
#   bash scripts/provision.sh bubblewrap native-toolchain   what the demo needs
#
#   bubblewrap     apt-get install -y bubblewrap: the local-process sandbox runs programs in bwrap.
#   native-toolchain  build-essential, gcc-aarch64-linux-gnu, libc6-dev-arm64-cross, qemu-user-static,
#                  cppcheck: the package build compiles the native bridge statically for linux-x64
#                  and linux-arm64, the tests start the arm64 one under qemu-user and cppcheck
#                  checks its sources.
#   postgres-user  useradd --system postgres: as root, the real Paperclip server's embedded
#                  Postgres refuses to run as root and runs as that user (the end-to-end suites).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/bootstrap.sh

provision_bubblewrap() {
  command -v bwrap >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "provisioning bubblewrap (apt-get install -y bubblewrap)"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq bubblewrap >/dev/null
    command -v bwrap >/dev/null 2>&1 || fail "bubblewrap did not install; run: apt-get install -y bubblewrap"
  else
    fail "bubblewrap (bwrap) is missing; install it with: sudo apt-get install -y bubblewrap"
  fi
}

provision_native_toolchain() {
  local missing=()
  command -v cc >/dev/null 2>&1 || missing+=(build-essential)
  command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
  command -v qemu-aarch64-static >/dev/null 2>&1 || command -v qemu-aarch64 >/dev/null 2>&1 || missing+=(qemu-user-static)
  command -v cppcheck >/dev/null 2>&1 || missing+=(cppcheck)
  [ "${#missing[@]}" -eq 0 ] && return 0
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    say "provisioning the native bridge toolchain (apt-get install -y ${missing[*]})"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || fail "the native toolchain did not install; run: apt-get install -y ${missing[*]}"
  else
    fail "the native bridge toolchain is missing; install it with: sudo apt-get install -y ${missing[*]}"
  fi
}

provision_postgres_user() {
  [ "$(id -u)" = "0" ] || return 0
  id postgres >/dev/null 2>&1 && return 0
  say "provisioning the postgres system user (useradd --system postgres)"
  useradd --system --user-group --no-create-home --shell /usr/sbin/nologin postgres \
    || fail "could not create the postgres user; run: useradd --system postgres"
}

items=("$@")
[ "${#items[@]}" -gt 0 ] || items=(bubblewrap native-toolchain postgres-user)
for item in "${items[@]}"; do
  case "$item" in
    bubblewrap) provision_bubblewrap ;;
    native-toolchain) provision_native_toolchain ;;
    postgres-user) provision_postgres_user ;;
    *) fail "unknown item to provision: $item (known: bubblewrap, native-toolchain, postgres-user)" ;;
  esac
done

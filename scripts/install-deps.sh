#!/usr/bin/env bash
# Installs what massif-native needs to build and test, from Debian's
# packages only. Idempotent: does nothing (not even apt-get update) when
# everything is already there. Run as root on Debian 12 (bookworm).
set -euo pipefail

packages=(
  cmake make ninja-build python3 git ca-certificates gcc gdb
  clang-19 llvm-19-dev llvm-19-tools libclang-rt-19-dev
  clang-14 llvm-14-dev llvm-14-tools
  libstdc++-12-dev libc6-dev
  libdw-dev libelf-dev zlib1g-dev libunwind-dev libc6-dbg
  googletest libgtest-dev
  valgrind heaptrack zstd dpkg-dev perl
  libgd-dev libc-devtools
  chromium fonts-dejavu-core golang-go
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: these packages are missing and installing them needs root: ${missing[*]}" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null

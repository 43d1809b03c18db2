#!/usr/bin/env bash
# Prepares the benchmark machine: installs the tools the harness measures
# with and against (idempotently, from Debian's packages) and fetches the
# workloads' Debian source packages into the cache with `apt-get source`
# (scripts/apt-source.sh, which enables deb-src entries next to the
# configured deb ones if there are none). Nothing fetched here is
# committed: the cache is git-ignored.
#
# usage: bash bench/setup.sh CACHE_DIR
set -euo pipefail
cache=${1:?usage: setup.sh CACHE_DIR}
mkdir -p "$cache/src"

# Source packages the workloads come from.
sources=(lua5.4 sqlite3 libjsoncpp bzip2 tinyxml2)
# Tools: dpkg-dev extracts the packages (dpkg-source), tcl and make generate
# sqlite's amalgamation, and the profilers compared against must exist. Run
# times come from wait4's rusage, so /usr/bin/time is not needed.
tools=(dpkg-dev valgrind heaptrack libc-devtools clang-19 python3 xz-utils make tcl)

log() { echo "bench/setup: $*" >&2; }

updated=no
aptUpdate() {
  if [ "$updated" = no ]; then
    log "apt-get update"
    apt-get update -qq
    updated=yes
  fi
}

missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
    missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  [ "$(id -u)" -eq 0 ] || { log "missing ${missing[*]} and not root"; exit 1; }
  aptUpdate
  log "installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}" >/dev/null
fi

# The sources (scripts/apt-source.sh sets up dpkg-dev and deb-src).
bash "$(dirname "$0")/../scripts/apt-source.sh" "$cache" "${sources[@]}"

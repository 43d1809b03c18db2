#!/usr/bin/env bash
# Prepares the benchmark machine: installs the tools the harness measures
# with and against (idempotently, from Debian's packages), enables deb-src
# entries next to the configured deb ones if there are none, and fetches the
# workloads' Debian source packages into the cache with `apt-get source`.
# Nothing fetched here is committed: the cache is git-ignored.
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

# Which packages still need fetching?
need=()
for s in "${sources[@]}"; do
  [ -f "$cache/src/$s.dir" ] && [ -d "$cache/src/$(cat "$cache/src/$s.dir")" ] ||
    need+=("$s")
done
[ ${#need[@]} -eq 0 ] && exit 0

# deb-src: add entries mirroring the deb ones unless some exist already.
if ! grep -qsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list \
     /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; then
  [ "$(id -u)" -eq 0 ] || { log "no deb-src entries and not root"; exit 1; }
  log "enabling deb-src entries"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    case "$f" in *massif-bench-src*) continue ;; esac
    grep -q 'debian' "$f" || continue
    sed -E 's/^Types:.*/Types: deb-src/' "$f" \
      > "/etc/apt/sources.list.d/massif-bench-src-$(basename "$f")"
  done
  if [ -f /etc/apt/sources.list ] && grep -qE '^deb ' /etc/apt/sources.list; then
    sed -nE 's/^deb (.*)/deb-src \1/p' /etc/apt/sources.list \
      > /etc/apt/sources.list.d/massif-bench-src.list
  fi
  updated=no
fi
if ! apt-cache showsrc "${need[0]}" >/dev/null 2>&1; then
  aptUpdate
fi

for s in "${need[@]}"; do
  log "apt-get source $s"
  before=$(cd "$cache/src" && ls -d -- */ 2>/dev/null || true)
  (cd "$cache/src" && apt-get source -qq "$s" >/dev/null 2>&1) || {
    log "apt-get source $s failed"; exit 1; }
  # The unpacked tree is the new directory apt-get source left behind.
  after=$(cd "$cache/src" && ls -d -- */)
  dir=$(comm -13 <(echo "$before") <(echo "$after") | head -1 || true)
  dir=${dir%/}
  [ -n "$dir" ] || { log "no tree unpacked for $s"; exit 1; }
  echo "$dir" > "$cache/src/$s.dir"
done

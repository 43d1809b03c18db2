#!/usr/bin/env bash
# Fetches Debian source packages into a cache with `apt-get source`, once:
# each package is unpacked in CACHE_DIR/src and CACHE_DIR/src/PACKAGE.dir
# names its tree. What is missing for it is set up first, as root: dpkg-dev
# (which unpacks the packages) and deb-src entries mirroring the configured
# deb ones when there are none. Idempotent: a package already fetched costs
# nothing, not even apt-get update. Nothing fetched is ever committed.
#
# usage: bash scripts/apt-source.sh CACHE_DIR PACKAGE...
set -euo pipefail
cache=${1:?usage: apt-source.sh CACHE_DIR PACKAGE...}
shift
[ $# -gt 0 ] || { echo "usage: apt-source.sh CACHE_DIR PACKAGE..." >&2; exit 2; }
mkdir -p "$cache/src"

log() { echo "apt-source: $*" >&2; }

# Which packages still need fetching?
need=()
for s in "$@"; do
  [ -f "$cache/src/$s.dir" ] && [ -d "$cache/src/$(cat "$cache/src/$s.dir")" ] ||
    need+=("$s")
done
[ ${#need[@]} -eq 0 ] && exit 0

# One fetcher at a time on the machine: two (tests of one run with caches
# of their own) would both edit the sources and run apt-get update, and
# apt's own lock would fail the second.
exec 9> "${TMPDIR:-/tmp}/massif-native-apt-source.lock"
flock 9

updated=no
aptUpdate() {
  if [ "$updated" = no ]; then
    log "apt-get update"
    apt-get update -qq
    updated=yes
  fi
}

if ! dpkg-query -W -f='${Status}' dpkg-dev 2>/dev/null | grep -q 'ok installed'; then
  [ "$(id -u)" -eq 0 ] || { log "dpkg-dev is missing and not root"; exit 1; }
  aptUpdate
  log "installing dpkg-dev"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends dpkg-dev >/dev/null
fi

# deb-src: add entries mirroring the deb ones unless some exist already.
if ! grep -qsE '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list \
     /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; then
  [ "$(id -u)" -eq 0 ] || { log "no deb-src entries and not root"; exit 1; }
  log "enabling deb-src entries"
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    case "$f" in *massif-*-src*) continue ;; esac
    grep -q 'debian' "$f" || continue
    sed -E 's/^Types:.*/Types: deb-src/' "$f" \
      > "/etc/apt/sources.list.d/massif-native-src-$(basename "$f")"
  done
  if [ -f /etc/apt/sources.list ] && grep -qE '^deb ' /etc/apt/sources.list; then
    sed -nE 's/^deb (.*)/deb-src \1/p' /etc/apt/sources.list \
      > /etc/apt/sources.list.d/massif-native-src.list
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

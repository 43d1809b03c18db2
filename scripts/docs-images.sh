#!/usr/bin/env bash
# Regenerates the views' pictures in docs/images from a build (default
# build/): the HTML page's screenshots (headless chromium, through the
# page's browser test driver), those of its site statistics (a run of
# test/views/Inputs/heap-sites.c built with mscc) and go tool pprof's
# graph of the bundled example's peak (needs golang-go and graphviz).
# Usage: scripts/docs-images.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
work=$(mktemp -d -t msdocs.XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 "$root/test/views/browser/check_page.py" --chromium "$(command -v chromium)" \
  --ms-print "$build/bin/ms_print" --out "$work/page" --docs "$root/docs/images" \
  --shorten 'shapes::Grid<double>::Grid(unsigned long)' 'shapes::Grid<…>::Grid(…)' \
  "$root/test/ms_print/corpus/cxxnew-thr0.out::Grid" > /dev/null

cd "$work"
cp "$root/test/views/Inputs/heap-sites.c" .
"$build/bin/mscc" -O0 heap-sites.c -o heap-sites
MASSIF_OPTIONS="--time-unit=B --massif-out-file=heap-sites.out" ./heap-sites
python3 "$root/test/views/browser/check_page.py" --chromium "$(command -v chromium)" \
  --ms-print "$build/bin/ms_print" --out "$work/sites-page" --docs-sites "$root/docs/images" \
  "$work/heap-sites.out::main" > /dev/null

"$build/bin/mscc" -O0 -g "$root/examples/example.c" -o example
MASSIF_OPTIONS="--time-unit=B --massif-out-file=massif.out" ./example
"$build/bin/ms_print" --format=pprof -o heap.pb.gz massif.out
HOME=$work GOCACHE=$work/go-cache go tool pprof -png -output "$root/docs/images/pprof-example.png" heap.pb.gz
echo "docs-images: wrote docs/images/ms_print-html-*.png (the site statistics' too) and pprof-example.png"

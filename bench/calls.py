#!/usr/bin/env python3
"""The pass must leave the optimiser's decisions alone: for real -O2 code,
every function of the mscc build makes the same direct calls and the same
tail jumps as in the plain clang build, calls into the runtime aside
(scripts/compare-calls.py). Builds lua, sqlite3, jsoncpp's benchmark and
tinyxml2's test program both ways (the bench's builds, cached in
bench/.cache) and compares each pair. Run it through bench/calls.sh, which
prepares the machine first.

usage: python3 bench/calls.py [--cache DIR] [--mscc PATH]"""
import argparse
import os
import subprocess
import sys

from harness import builds

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
PROGRAMS = ["lua", "sqlite3", "jsonbench", "xmltest"]


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", default=os.path.join(BENCH, ".cache"))
    ap.add_argument("--mscc", default=os.path.join(
        os.environ.get("MASSIF_BUILD_DIR", os.path.join(ROOT, "build")), "bin", "mscc"))
    a = ap.parse_args(argv)
    log = lambda m: print("bench/calls: " + m, file=sys.stderr)
    ctx = builds.Context(a.cache, builds.QUICK, a.mscc, log)
    builds.prepareSources(ctx)
    todo = [(p, v) for p in PROGRAMS for v in ("native", "mscc")]
    built = builds.buildAll(ctx, todo)
    failed = False
    for p in PROGRAMS:
        (plain, why1), (mscc, why2) = built[(p, "native")], built[(p, "mscc")]
        if not plain or not mscc:
            print("%s: not built: %s" % (p, why1 or why2))
            failed = True
            continue
        out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "compare-calls.py"),
                              plain, mscc], capture_output=True, text=True)
        print("%s: %s" % (p, out.stdout.strip().replace("\n", "\n  ")))
        failed |= out.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

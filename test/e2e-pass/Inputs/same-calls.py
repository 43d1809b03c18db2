"""Builds each source with the plain compiler and with mscc at each of
--levels (default -O2) and compares the two builds' calls and tail jumps
(scripts/compare-calls.py). Prints "same SOURCE -ON: <summary>" or
"differ SOURCE -ON: <summary and functions>"; exits 1 if any differ."""
import argparse
import os
import subprocess
import sys

ap = argparse.ArgumentParser()
for tool in ("mscc", "mscxx", "clang", "clangxx", "compare"):
    ap.add_argument("--" + tool, required=True)
ap.add_argument("--levels", default="-O2")
ap.add_argument("sources", nargs="+")
a = ap.parse_args()
failed = False
for src in a.sources:
    cxx = src.endswith(".cpp")
    base = os.path.splitext(os.path.basename(src))[0]
    for level in a.levels.split(","):
        outs = {}
        for kind, cc in (("plain", a.clangxx if cxx else a.clang),
                         ("mscc", a.mscxx if cxx else a.mscc)):
            outs[kind] = "%s%s.%s" % (base, level, kind)
            subprocess.run([cc, level, "-g", "-w", src, "-o", outs[kind]], check=True)
        r = subprocess.run([sys.executable, a.compare, outs["plain"], outs["mscc"]],
                           capture_output=True, text=True)
        lines = r.stdout.strip().splitlines()
        verdict = "same" if r.returncode == 0 else "differ"
        print("%s %s %s: %s" % (verdict, os.path.basename(src), level, lines[-1]))
        for line in lines[:-1]:
            print("  " + line)
        failed |= r.returncode != 0
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
"""Compares the instruction clock of massif-native (--time-unit=i) with
Valgrind's on the same programs, built the same way.

    icount.py --mscc=... --mscxx=... --clang=... --clangxx=... \
              --valgrind=... --opt=-O2 WORKDIR SOURCE...

Each program ends its work with a marker, free(malloc(4242)), and makes
fewer than 100 heap events, so no snapshot is culled and both files hold
the snapshot right after the marker malloc: its time is the instruction
count up to that point. Prints one line per program with both counts and
their ratio (ours / Valgrind's). A program whose name starts with "libc-"
spends most of its time in libc, which only Valgrind counts: its ratio is
recorded, not bounded. Every other ratio must lie in [0.5, 2.0].
"""
import argparse
import os
import re
import shutil
import subprocess
import sys


def run(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"icount.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p


def marker_time(path):
    """The unit, and the time of the snapshot taken right after the marker
    malloc(4242) (heap grows by exactly 4242), or None."""
    text = open(path).read()
    unit = re.search(r"^time_unit: (\S+)$", text, re.M).group(1)
    times = [int(t) for t in re.findall(r"^time=(\d+)$", text, re.M)]
    heaps = [int(h) for h in re.findall(r"^mem_heap_B=(\d+)$", text, re.M)]
    found = [times[i] for i in range(1, len(heaps))
             if heaps[i] - heaps[i - 1] == 4242]
    return unit, found[-1] if found else None


def main():
    ap = argparse.ArgumentParser()
    for t in ("mscc", "mscxx", "clang", "clangxx", "valgrind"):
        ap.add_argument("--" + t, required=True)
    ap.add_argument("--opt", default="-O2")
    ap.add_argument("workdir")
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    ok = True
    for src in a.sources:
        name = os.path.basename(src)
        cxx = src.endswith(".cpp")
        work = os.path.join(os.path.abspath(a.workdir), name + a.opt)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        run([a.mscxx if cxx else a.mscc, a.opt, src, "-o", "native"], work)
        run([a.clangxx if cxx else a.clang, "-g", "-gdwarf-4", a.opt, src,
             "-o", "vg"], work)
        env = dict(os.environ,
                   MASSIF_OPTIONS="--time-unit=i --massif-out-file=native.out")
        run(["./native"], work, env)
        run([a.valgrind, "-q", "--tool=massif", "--time-unit=i",
             "--massif-out-file=vg.out", "./vg"], work)
        nu, nt = marker_time(os.path.join(work, "native.out"))
        vu, vt = marker_time(os.path.join(work, "vg.out"))
        if nt is None or vt is None or nu != "i" or vu != "i":
            print(f"BAD {name} {a.opt}: units {nu}/{vu}, marker times {nt}/{vt}")
            ok = False
            continue
        ratio = nt / vt
        bounded = not name.startswith("libc-")
        good = 0.5 <= ratio <= 2.0 or not bounded
        ok &= good
        verdict = ("ok" if good else "BAD") if bounded else "recorded"
        print(f"{verdict} {name} {a.opt}: ours={nt} valgrind={vt} "
              f"ratio={ratio:.2f}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

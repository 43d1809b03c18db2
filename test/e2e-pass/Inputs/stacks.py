#!/usr/bin/env python3
"""Compares mem_stacks_B at the peak snapshot of massif-native with
Valgrind's, both with --stacks=yes, on the same source built the same way
(both with frame pointers, as mscc builds).

    stacks.py --mscc=... --clang=... --valgrind=... --opt="-O2 -flto" \
              --slack=BYTES WORKDIR SOURCE[+SOURCE...]...

A program of several files names them joined by "+".

Prints one line per program. Probes see whole frames of instrumented code
at function entry and exit; Valgrind sees every push, including those of
uninstrumented code (libc, the dynamic linker). So ours must not exceed
Valgrind's, and may be lower by at most BYTES (what library code called at
the deepest point pushes).
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys

SNAP = re.compile(r"^mem_stacks_B=(\d+)\nheap_tree=(\w+)", re.M)


def run(cmd, cwd, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"stacks.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")


def peak_stacks(path):
    peaks = [int(b) for b, kind in SNAP.findall(open(path).read()) if kind == "peak"]
    return peaks[-1] if peaks else None


def main():
    ap = argparse.ArgumentParser()
    for t in ("mscc", "clang", "valgrind"):
        ap.add_argument("--" + t, required=True)
    ap.add_argument("--opt", default="-O2")
    ap.add_argument("--slack", type=int, required=True)
    ap.add_argument("--unit", default="B", help="--time-unit of both runs")
    ap.add_argument("workdir")
    ap.add_argument("sources", nargs="+")
    a = ap.parse_args()
    ok = True
    for src in a.sources:
        files = [os.path.abspath(f) for f in src.split("+")]
        name = "+".join(os.path.basename(f) for f in files)
        opts = shlex.split(a.opt)
        work = os.path.join(os.path.abspath(a.workdir),
                            name + a.opt.replace(" ", "") + a.unit)
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        run([a.mscc] + opts + files + ["-o", "native"], work)
        run([a.clang, "-g", "-gdwarf-4", "-fno-omit-frame-pointer",
             "-mno-omit-leaf-frame-pointer"] + opts + files + ["-o", "vg"], work)
        opts = ["--stacks=yes", "--time-unit=" + a.unit, "--massif-out-file="]
        env = dict(os.environ, MASSIF_OPTIONS=" ".join(opts) + "native.out")
        run(["./native"], work, env)
        run([a.valgrind, "-q", "--tool=massif"] + opts[:-1] +
            ["--massif-out-file=vg.out", "./vg"], work)
        ours = peak_stacks(os.path.join(work, "native.out"))
        theirs = peak_stacks(os.path.join(work, "vg.out"))
        good = (ours is not None and theirs is not None and
                theirs - a.slack <= ours <= theirs)
        ok &= good
        print(f"{'ok' if good else 'BAD'} {name} {a.opt}: ours={ours} "
              f"valgrind={theirs} difference={None if not good and (ours is None or theirs is None) else theirs - ours}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

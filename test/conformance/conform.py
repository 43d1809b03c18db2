#!/usr/bin/env python3
"""Runs one program natively under massif-native and under Valgrind's Massif
with the same options, and requires the two ms_print reports to be equal.

    conform.py [--cxx] [--cflags=...] [--ms-print-args=...] [--args=...]
               [--vg-only-args=...] SOURCE WORKDIR -- MASSIF OPTIONS...

The native build is `mscc` (or `mscxx`); the Valgrind build is the same
clang with -gdwarf-4 (Valgrind 3.19 cannot read all of DWARF 5), so only
the profiler differs. Both programs are called ./prog and both write
massif.out, so the preambles match too. Code addresses are masked, as are
the two work directories. Exit status: 0 when identical, 1 with a unified
diff otherwise; the programs' own exit statuses must match as well.
"""
import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys

ADDR = re.compile(r"0x[0-9A-F]+:")


def tool(name):
    path = os.environ.get("CONFORM_" + name.upper())
    if not path:
        sys.exit(f"conform.py: CONFORM_{name.upper()} is not set")
    return path


def run(cmd, cwd, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if check and p.returncode != 0:
        sys.exit(f"conform.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p


def report(dirpath, ms_print_args, workdir):
    p = run([tool("vg_ms_print")] + ms_print_args + ["massif.out"], dirpath)
    text = ADDR.sub("0x........:", p.stdout)
    return text.replace(os.path.join(workdir, "native"), "<dir>").replace(
        os.path.join(workdir, "vg"), "<dir>")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", action="store_true")
    ap.add_argument("--cflags", default="-O0")
    ap.add_argument("--args", default="", help="program arguments")
    ap.add_argument("--ms-print-args", default="")
    ap.add_argument("source")
    ap.add_argument("workdir")
    ap.add_argument("options", nargs="*")
    a = ap.parse_args()

    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    native, vg = os.path.join(work, "native"), os.path.join(work, "vg")
    os.makedirs(native)
    os.makedirs(vg)
    cflags = shlex.split(a.cflags)
    src = os.path.abspath(a.source)
    driver = tool("mscxx" if a.cxx else "mscc")
    compiler = tool("clangxx" if a.cxx else "clang")
    run([driver] + cflags + [src, "-o", "prog"], native)
    run([compiler, "-g", "-gdwarf-4"] + cflags + [src, "-o", "prog"], vg)

    opts = a.options + ["--massif-out-file=massif.out"]
    prog_args = shlex.split(a.args)
    env = dict(os.environ)
    env["MASSIF_OPTIONS"] = " ".join(o.replace("\\", "\\\\").replace(" ", "\\ ") for o in opts)
    n = run(["./prog"] + prog_args, native, env=env, check=False)
    env.pop("MASSIF_OPTIONS")
    v = run([tool("valgrind"), "-q", "--tool=massif"] + opts + ["./prog"] + prog_args,
            vg, env=env, check=False)

    ok = True
    if n.returncode != v.returncode:
        print(f"exit status differs: native {n.returncode}, valgrind {v.returncode}")
        print("native stderr:\n" + n.stderr)
        ok = False
    if n.stdout != v.stdout:
        print("program output differs")
        ok = False
    msp = shlex.split(a.ms_print_args)
    mine, ref = report(native, msp, work), report(vg, msp, work)
    if mine != ref:
        sys.stdout.writelines(difflib.unified_diff(
            ref.splitlines(True), mine.splitlines(True), "valgrind", "native"))
        ok = False
    else:
        # Keep the agreed report for FileCheck lines in the test itself.
        with open(os.path.join(work, "report.txt"), "w") as f:
            f.write(mine)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

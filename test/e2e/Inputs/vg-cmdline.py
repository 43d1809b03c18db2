#!/usr/bin/env python3
"""Runs one Valgrind command line for Massif both ways and compares them:

    valgrind --tool=massif OPTIONS ./PROG ARGS     (plain clang -gdwarf-4)
    msrun OPTIONS ./PROG ARGS                      (mscc, as a user would)

    vg-cmdline.py [--build NAME=SOURCE[:plain]]... [--args=ARGS]
                  [--verbose-lines] [--log=GLOB] [--quiet-stderr]
                  [--files-only]
                  WORKDIR -- OPTIONS...

The first --build is the program run; the others are programs it runs. On
Valgrind's side every one is a plain clang build; on msrun's side an mscc
build, or a plain one for NAME=SOURCE:plain (msrun then profiles it on
VEX, if at all). Each side runs in its own directory (WORKDIR/native,
WORKDIR/massif), so relative names are equal; the two paths are as long,
so the environment (PWD) puts the initial stack pointer at the same
place on both sides and --stacks=yes figures and instruction times match.

Compared, with differences printed and exit status 1:
  * exit status and standard output;
  * the profile files (massif.out*): as many on each side, paired by their
    cmd: line (pids differ); with --time-unit=B the ms_print reports, code
    addresses masked; with instructions or milliseconds, which differ
    between the engines, the massif.out texts with every time= masked;
  * --verbose-lines: Massif's -v lines ("--PID-- Massif: ...", the pid
    masked) of stderr, or of the --log=GLOB files when given; equal and not
    none;
  * --log=GLOB: as many log files on each side;
  * --quiet-stderr: msrun's side writes nothing at all to stderr.
--xtree=GLOB: the execution-tree reports (--xtree-memory): as many on each
side, and equal with the pid: line, the work directories, and in Massif's
format the times and code addresses masked.
With --files-only the profiles are compared by number and cmd: line only
(--stacks=yes: the native engine measures only instrumented frames, so its
stack figures and the snapshots they cause are its own).
"""
import argparse
import difflib
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "suitecache"))
import builds  # noqa: E402
import store  # noqa: E402

ADDR = re.compile(r"0x[0-9A-F]+:")
TIME = re.compile(r"^time=\d+$", re.M)
VERBOSE = re.compile(r"^--\d+-- (Massif: .*)$")


def env_tool(name):
    path = os.environ.get("VGCMD_" + name.upper())
    if not path:
        sys.exit(f"vg-cmdline.py: VGCMD_{name.upper()} is not set")
    return path


def run(cmd, cwd, check=True):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if check and p.returncode != 0:
        sys.exit(f"vg-cmdline.py: {' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stderr}")
    return p


def cmd_line(path):
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("cmd: "):
                return line
    return ""


def rendering(path, bytes_unit):
    if bytes_unit:
        text = run([env_tool("ms_print"), os.path.basename(path)],
                   os.path.dirname(path)).stdout
        text = text.replace("ms_print arguments: " + os.path.basename(path),
                            "ms_print arguments: <file>")
        return ADDR.sub("0x........:", text)
    with open(path, errors="replace") as f:
        return ADDR.sub("0x........:", TIME.sub("time=<t>", f.read()))


def verbose_lines(text):
    return [m.group(1) for m in map(VERBOSE.match, text.splitlines()) if m]


def diff(a, b, what):
    print(f"{what} differ:")
    sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
        a, b, "valgrind", "msrun", lineterm=""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", action="append", default=[])
    ap.add_argument("--args", default="")
    ap.add_argument("--verbose-lines", action="store_true")
    ap.add_argument("--log", default=None)
    ap.add_argument("--quiet-stderr", action="store_true")
    ap.add_argument("--files-only", action="store_true")
    ap.add_argument("--xtree")
    ap.add_argument("workdir")
    ap.add_argument("options", nargs="*")
    a = ap.parse_args()

    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    native, vg = os.path.join(work, "native"), os.path.join(work, "massif")
    os.makedirs(native)
    os.makedirs(vg)
    # Programs come from the suite's build cache (test/suitecache), which
    # every RUN line building the same source shares.
    cache = store.root(work)
    for spec in a.build:
        name, _, src = spec.partition("=")
        src, _, kind = src.partition(":")
        src = os.path.abspath(src)
        cxx = src.endswith(".cpp")
        plain = [env_tool("clangxx" if cxx else "clang"), "-g", "-gdwarf-4", "-O0"]
        builds.build_or_exit(cache, plain, src, os.path.join(vg, name))
        if kind == "plain":
            builds.build_or_exit(cache, plain, src, os.path.join(native, name))
        else:
            driver = env_tool("mscxx" if cxx else "mscc")
            builds.build_or_exit(cache, [driver, "-O0"], src,
                                 os.path.join(native, name), builds.mscc_files(driver))
    prog = "./" + a.build[0].partition("=")[0]
    args = shlex.split(a.args)
    v = run([env_tool("valgrind"), "--tool=massif"] + a.options + [prog] + args,
            vg, check=False)
    n = run([env_tool("msrun")] + a.options + [prog] + args, native,
            check=False)

    ok = True
    if n.returncode != v.returncode:
        print(f"exit status differs: valgrind {v.returncode}, msrun "
              f"{n.returncode}\nmsrun stderr:\n{n.stderr}")
        ok = False
    if n.stdout != v.stdout:
        diff(v.stdout.splitlines(), n.stdout.splitlines(), "standard outputs")
        ok = False
    if a.quiet_stderr and n.stderr:
        print("msrun wrote to stderr:\n" + n.stderr)
        ok = False

    bytes_unit = "--time-unit=B" in a.options
    nf = sorted(glob.glob(os.path.join(native, "massif.out*")))
    vf = sorted(glob.glob(os.path.join(vg, "massif.out*")))
    if len(nf) != len(vf):
        print(f"profile files: valgrind {len(vf)}, msrun {len(nf)}")
        ok = False
    by_cmd = {}
    for f in nf:
        by_cmd.setdefault(cmd_line(f), []).append(f)
    for rf in vf:
        mine = by_cmd.get(cmd_line(rf), [])
        if not mine:
            print(f"no msrun profile for {cmd_line(rf).strip()!r}")
            ok = False
            continue
        if a.files_only:
            mine.remove(mine[0])
            continue
        ref = rendering(rf, bytes_unit)
        got = [m for m in mine if rendering(m, bytes_unit) == ref]
        if not got:
            diff(ref.splitlines(), rendering(mine[0], bytes_unit).splitlines(),
                 f"profiles of {cmd_line(rf).strip()!r}")
            ok = False
            got = mine
        mine.remove(got[0])

    if a.xtree:
        vx = sorted(glob.glob(os.path.join(vg, a.xtree)))
        nx = sorted(glob.glob(os.path.join(native, a.xtree)))
        if len(vx) != len(nx) or not vx:
            print(f"xtree reports: valgrind {len(vx)}, msrun {len(nx)}")
            ok = False

        def masked(path, side):
            with open(path) as f:
                text = f.read().replace(side, "<dir>")
            text = re.sub(r"^pid: \d+$", "pid: <pid>", text, flags=re.M)
            text = ADDR.sub("0x...:", TIME.sub("time=<t>", text))
            return text.splitlines()
        for rf, mf in zip(vx, nx):
            ref, got = masked(rf, vg), masked(mf, native)
            if ref != got:
                diff(ref, got, f"xtree reports {os.path.basename(rf)}")
                ok = False

    vtexts, ntexts = [v.stderr], [n.stderr]
    if a.log:
        vl = sorted(glob.glob(os.path.join(vg, a.log)))
        nl = sorted(glob.glob(os.path.join(native, a.log)))
        if len(vl) != len(nl) or not vl:
            print(f"log files: valgrind {len(vl)}, msrun {len(nl)}")
            ok = False
        vtexts = [open(f, errors="replace").read() for f in vl]
        ntexts = [open(f, errors="replace").read() for f in nl]
    if a.verbose_lines:
        vlines = [l for t in vtexts for l in verbose_lines(t)]
        nlines = [l for t in ntexts for l in verbose_lines(t)]
        if vlines != nlines:
            diff(vlines, nlines, "Massif's verbose lines")
            ok = False
        if not vlines:
            print("no verbose line from Massif")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

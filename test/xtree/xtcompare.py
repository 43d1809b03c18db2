#!/usr/bin/env python3
"""Runs one program under massif-native and under Valgrind's Massif with the
same options and requires the two xtree memory reports to be equal.

    xtcompare.py [--cxx] [--engine=native|vex] [--xtree-file=NAME]
                 [--expect-files=N] [--stderr=REGEX] SOURCE WORKDIR -- MASSIF OPTIONS...

The native engine runs an mscc (mscxx) build with MASSIF_OPTIONS; the VEX
engine runs the plain build with `msrun --engine=vex`. Valgrind runs the
plain build: clang with -gdwarf-4, which Valgrind 3.19 reads whole. Both
programs are ./prog, and --xtree-memory-file is NAME (xtmemory.kcg by
default), unless the options give one. The builds and the Valgrind run
come from the suite's caches (test/suitecache; conform.py says how):
Valgrind's files are copied to WORKDIR/vgnd, the engine's are in
WORKDIR/mine.

Masked: the "pid:" line, the directories the programs ran in, code addresses and a
Massif-format report's time= values. Each report must then be equal, line
for line; callgrind_annotate must read a callgrind report (exit 0, nothing
on stderr, or what it says of Valgrind's) and ms_print a Massif-format one.
The exit statuses must match; with --stderr, so must the lines of both
stderrs that match REGEX (once the "==PID== " and "massif: " prefixes and
the work directories are gone), and there must be some.
Prints "equal: N" with the number of reports found equal.
"""
import argparse
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))), "suitecache"))
import builds  # noqa: E402
import runs  # noqa: E402
import store  # noqa: E402

ADDR = re.compile(r"0x[0-9A-F]+:")
TIME = re.compile(r"^time=\d+$", re.M)
PID = re.compile(r"^pid: \d+$", re.M)
PREFIX = re.compile(r"^(==\d+== |massif: |msrun: |valgrind: )")


def tool(name):
    path = os.environ.get("XT_" + name.upper())
    if not path:
        sys.exit(f"xtcompare.py: XT_{name.upper()} is not set")
    return path


def run(cmd, cwd, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if check and p.returncode != 0:
        sys.exit(f"xtcompare.py: {' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stderr}")
    return p


def masked(path, work_dir):
    text = open(path, errors="replace").read()
    text = text.replace(work_dir, "WORK")
    text = ADDR.sub("0x?:", text)
    text = TIME.sub("time=?", text)
    return PID.sub("pid: ?", text)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", action="store_true")
    ap.add_argument("--engine", default="native", choices=["native", "vex"])
    ap.add_argument("--cflags", default="-O0")
    ap.add_argument("--xtree-file", default="xtmemory.kcg")
    ap.add_argument("--expect-files", type=int, default=1)
    ap.add_argument("--stderr", default=None,
                    help="compare the stderr lines matching this regex")
    ap.add_argument("source")
    ap.add_argument("workdir")
    ap.add_argument("options", nargs="*")
    a = ap.parse_args()

    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    mine_dir, vg_dir = os.path.join(work, "mine"), os.path.join(work, "vgnd")
    os.makedirs(mine_dir)
    os.makedirs(vg_dir)
    cache = store.root(work)
    src = os.path.abspath(a.source)
    flags = a.cflags.split()
    plain = [tool("clangxx" if a.cxx else "clang"), "-g", "-gdwarf-4"] + flags
    vex = a.engine == "vex"
    builds.build_or_exit(cache, plain, src, os.path.join(vg_dir, "prog"))
    if vex:
        builds.build_or_exit(cache, plain, src, os.path.join(mine_dir, "prog"))
    else:
        driver = tool("mscxx" if a.cxx else "mscc")
        builds.build_or_exit(cache, [driver] + flags, src,
                             os.path.join(mine_dir, "prog"), builds.mscc_files(driver))

    opts = list(a.options)
    if not any(o.startswith("--xtree-memory-file=") for o in opts):
        opts.append("--xtree-memory-file=" + a.xtree_file)
    pattern = next(o.split("=", 1)[1] for o in opts
                   if o.startswith("--xtree-memory-file="))
    if not any(o.startswith("--massif-out-file=") for o in opts):
        opts.append("--massif-out-file=massif.out")
    ref = runs.reference(cache, tool("valgrind"), ["-q", "--tool=massif"] + opts,
                         os.path.join(vg_dir, "prog"))
    runs.copy_files(ref, vg_dir)
    if vex:
        mine_cwd = runs.engine_dir(cache)
        runs.link(os.path.join(mine_dir, "prog"), os.path.join(mine_cwd, "prog"))
        mine = run([tool("msrun"), "--engine=vex"] + opts + ["--", "./prog"],
                   mine_cwd, env=runs.program_env(), check=False)
        shutil.rmtree(mine_dir)
        shutil.move(mine_cwd, mine_dir)
        os.rmdir(os.path.dirname(mine_cwd))
    else:
        mine_cwd = mine_dir
        env = runs.program_env()
        env.update((k, v) for k, v in os.environ.items() if k.startswith("MASSIF_"))
        env["MASSIF_OPTIONS"] = " ".join(opts)
        mine = run(["./prog"], mine_dir, env=env, check=False)

    ok = True
    if mine.returncode != ref.returncode:
        print(f"exit status differs: mine {mine.returncode}, "
              f"valgrind {ref.returncode}")
        ok = False
    if a.stderr:
        def lines(text, d):
            return [PREFIX.sub("", line).replace(d, "WORK")
                    for line in text.splitlines()
                    if re.search(a.stderr, PREFIX.sub("", line))]
        ml, vl = lines(mine.stderr, mine_cwd), lines(ref.stderr, ref.cwd)
        if ml != vl or not vl:
            print(f"stderr differs:\nmine: {ml}\nvalgrind: {vl}")
            ok = False
    glob_pattern = re.sub(r"%(p|n|q\{[^}]*\})", "*", pattern)
    found = [sorted(glob.glob(os.path.join(d, glob_pattern)))
             for d in (mine_dir, vg_dir)]
    for side, files in zip(("mine", "valgrind"), found):
        if len(files) != a.expect_files:
            print(f"{side}: {len(files)} xtree files, expected "
                  f"{a.expect_files}:\n{mine.stderr if side == 'mine' else ref.stderr}")
            ok = False
    equal = 0
    for mf, vf in zip(*found):
        m, v = masked(mf, mine_cwd), masked(vf, ref.cwd)
        if m != v:
            ok = False
            sys.stdout.writelines(difflib.unified_diff(
                v.splitlines(True), m.splitlines(True), "valgrind", "mine"))
            continue
        equal += 1
        reader = "ms_print" if ".ms" in os.path.basename(mf) else \
            "callgrind_annotate"
        p = run([tool(reader), mf], mine_dir, check=False)
        # Valgrind's own report of no live block has "totals: (null)",
        # which callgrind_annotate warns about: ours must read as well.
        pv = run([tool(reader), vf], vg_dir, check=False)
        if p.returncode != 0 or p.stderr != pv.stderr:
            print(f"{reader} on {os.path.basename(mf)}: {p.returncode}\n"
                  f"{p.stderr}")
            ok = False
    print(f"equal: {equal}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

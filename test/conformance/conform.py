#!/usr/bin/env python3
"""Runs one program natively under massif-native and under Valgrind's Massif
with the same options, and requires the two ms_print reports to be equal.

    conform.py [--cxx] [--cflags=...] [--ms-print-args=...] [--args=...]
               [--out-file=PATTERN] [--files=N] [--env=VAR=VALUE]...
               [--stderr=REGEX] [--lib=SRC:NAME:COMPILER:FLAGS]...
               SOURCE WORKDIR -- MASSIF OPTIONS...

The native build is `mscc` (or `mscxx`); the Valgrind build is the same
clang with -gdwarf-4 (Valgrind 3.19 cannot read all of DWARF 5), so only
the profiler differs. Both programs are called ./prog and run in sibling
directories with the same --massif-out-file (massif.out unless --out-file
says otherwise), so the preambles match too. Code addresses are masked, as
are the two work directories.

--lib builds a shared library libNAME.so from SRC (relative to SOURCE's
directory) with COMPILER (gcc, clang or mscc) and FLAGS (space-separated),
which the program links with -lNAME and finds next to itself. A gcc or
clang library serves both runs; an mscc one only the native run, Valgrind's
(and the VEX engine's, which runs plain builds) getting the same source
built by clang with -g -gdwarf-4 and frame pointers.

Each side must write exactly --files profile files (default 1; 0 for a run
that must write none), found with the out-file pattern (%p, %n and %q{..}
match anything). Several files (a fork) are paired in the order they were
written, which the program fixes (e.g. the child exits before the parent);
files written within one tick of the file clock pair by equal reports.
--stderr compares the lines of both stderrs that match REGEX, once the
"==PID== ", "valgrind: " and "massif: " prefixes are gone (error texts). The programs'
exit statuses (a signal counts as -N) and standard outputs must match.
Core dumps are disabled for both runs.

With CONFORM_ENGINE=vex in the environment the "native" side is the VEX
engine instead: the same plain clang build as Valgrind's, run with
`msrun --engine=vex` (CONFORM_MSRUN). Its massif.out files must equal
Valgrind's line for line (the work directories aside), in bytes and in
instructions alike; with --time-unit=ms only the snapshot counts are
compared. With CONFORM_VEX_LOOSE=1 too (for threads, which Valgrind
interleaves as the host schedules them, so that instruction times vary
from run to run under Massif itself: exit-threads.c's last time moved by
0.66% between two Massif runs on a loaded machine), an instruction-time
profile is compared by its snapshot count and its last time, within 1%.

Both builds come from the suite's build cache (but for a program linked
with --lib libraries, built in WORKDIR), and the Valgrind run from
its run cache (test/suitecache): a program built or run the same way by
another test of the same lit run is not built or run again. Valgrind runs
in the cache's directory, its files are copied into WORKDIR/vg (massif on
VEX); the VEX engine runs in a directory whose path is as long (see
suitecache/runs.py), its files moved to WORKDIR/native. Both programs get
the caller's environment without the harnesses' variables (CONFORM_* and
the like, and MASSIF_*: the native side keeps the caller's MASSIF_* and
gets MASSIF_OPTIONS), then the --env settings.

Exit status: 0 when everything matches, 1 with the differences otherwise.
"""
import argparse
import difflib
import glob
import os
import re
import resource
import shlex
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
TIME = re.compile(r"^time=(\d+)$", re.M)
VEX = os.environ.get("CONFORM_ENGINE") == "vex"
VEX_LOOSE = os.environ.get("CONFORM_VEX_LOOSE") == "1"
PREFIX = re.compile(r"^(==\d+== |massif: |msrun: |valgrind: )")


def tool(name):
    path = os.environ.get("CONFORM_" + name.upper())
    if not path:
        sys.exit(f"conform.py: CONFORM_{name.upper()} is not set")
    return path


def no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(cmd, cwd, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace",
                       preexec_fn=no_core)
    if check and p.returncode != 0:
        sys.exit(f"conform.py: {' '.join(cmd)} failed ({p.returncode}):\n{p.stderr}")
    return p


def file_glob(pattern):
    """The out-file pattern as a glob: expansions match anything."""
    out, i = [], 0
    while i < len(pattern):
        if pattern.startswith("%%", i):
            out.append("%")
            i += 2
        elif pattern.startswith(("%p", "%n"), i):
            out.append("*")
            i += 2
        elif pattern.startswith("%q{", i) and "}" in pattern[i:]:
            out.append("*")
            i = pattern.index("}", i) + 1
        else:
            out.append(glob.escape(pattern[i]))
            i += 1
    return "".join(out)


def profiles(dirpath, pattern):
    """The profiles written under the pattern: a profile's site statistics
    (PROFILE.sites, see docs/FILE-FORMAT.md) match a pattern ending in an
    expansion but are not a profile of their own."""
    found = {f for f in glob.glob(os.path.join(dirpath, file_glob(pattern)))
             if os.path.isfile(f)}
    found = [f for f in found
             if not (f.endswith(".sites") and f[:-len(".sites")] in found)]
    return sorted(found, key=lambda f: (os.stat(f).st_mtime_ns, f))


def unmask(text, dirs):
    for d in dirs:
        text = text.replace(d, "<dir>")
    return text


def report(path, ms_print_args, dirs):
    p = run([tool("vg_ms_print")] + ms_print_args + [os.path.basename(path)],
            os.path.dirname(path))
    text = ADDR.sub("0x........:", p.stdout)
    # The file name holds the pid when the pattern has %p.
    text = text.replace("ms_print arguments: " + " ".join(
        ms_print_args + [os.path.basename(path)]), "ms_print arguments: <file>")
    return unmask(text, dirs)


def masked_file(path, dirs):
    """A massif.out file, with the directories the programs ran in masked."""
    with open(path, errors="replace") as f:
        return unmask(f.read(), dirs)


def compare_files(mine, ref, unit_ms, loose_i):
    """Differences between two masked massif.out texts, as lines; with
    --time-unit=ms, of the snapshot counts only; loosely in instructions, of
    the snapshot counts and the last times (1%)."""
    if not (unit_ms or loose_i):
        return list(difflib.unified_diff(ref.splitlines(True), mine.splitlines(True),
                                         "valgrind", "vex"))
    mt, rt = [int(t) for t in TIME.findall(mine)], [int(t) for t in TIME.findall(ref)]
    out = []
    if len(mt) != len(rt):
        out.append(f"snapshot count: valgrind {len(rt)}, vex {len(mt)}\n")
    if loose_i and mt and rt and abs(mt[-1] - rt[-1]) > 0.01 * max(rt[-1], 1):
        out.append(f"last time: valgrind {rt[-1]}, vex {mt[-1]}\n")
    return out


def stderr_lines(text, regex):
    lines = [PREFIX.sub("", l) for l in text.splitlines()]
    return [l for l in lines if re.search(regex, l)]


def pair_reports(nf, vf, msp, dirs):
    """Pairs the native files with Valgrind's, both in the order written,
    as (native, valgrind, native report, valgrind report). File times are
    only as fine as the kernel's clock tick, so two files written within
    one tick may come in either order: each Valgrind report takes an equal
    native one when there is one, else the first left."""
    left = [(f, report(f, msp, dirs)) for f in nf]
    pairs = []
    for rf in vf[:len(nf)]:
        ref = report(rf, msp, dirs)
        k = next((k for k, (_, t) in enumerate(left) if t == ref), 0)
        mf, mine = left.pop(k)
        pairs.append((mf, rf, mine, ref))
    return pairs


def build_lib(spec, srcdir, native, vg):
    """libNAME.so for both runs (see --lib); NAME."""
    src, name, compiler, flags = spec.split(":", 3)
    src = os.path.join(srcdir, src)
    flags = shlex.split(flags)
    out = "lib%s.so" % name
    shared = ["-shared", "-fPIC", src, "-o", out]
    if compiler == "mscc":
        plain = [tool("clang"), "-g", "-gdwarf-4", "-fno-omit-frame-pointer"] + flags + shared
        run(plain if VEX else [tool("mscc")] + flags + shared, native)
        run(plain, vg)
        return name
    cc = {"clang": tool("clang")}.get(compiler, compiler)
    run([cc] + flags + shared, native)
    shutil.copy(os.path.join(native, out), os.path.join(vg, out))
    return name


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", action="store_true")
    ap.add_argument("--cflags", default="-O0")
    ap.add_argument("--args", default="", help="program arguments")
    ap.add_argument("--ms-print-args", default="")
    ap.add_argument("--out-file", default="massif.out")
    ap.add_argument("--files", type=int, default=1)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--stderr", default=None)
    ap.add_argument("--lib", action="append", default=[],
                    help="SRC:NAME:COMPILER:FLAGS, a library linked in")
    ap.add_argument("source")
    ap.add_argument("workdir")
    ap.add_argument("options", nargs="*")
    a = ap.parse_args()

    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    vg_dir = "massif" if VEX else "vg"
    native, vg = os.path.join(work, "native"), os.path.join(work, vg_dir)
    os.makedirs(native)
    os.makedirs(vg)
    cache = store.root(work)
    cflags = shlex.split(a.cflags)
    src = os.path.abspath(a.source)
    compiler = tool("clangxx" if a.cxx else "clang")
    plain = [compiler, "-g", "-gdwarf-4"] + cflags
    driver = tool("mscxx" if a.cxx else "mscc")
    libs = [build_lib(spec, os.path.dirname(src), native, vg) for spec in a.lib]
    if libs:
        # Linked with the libraries beside it: built here, not cached.
        link = ["-L.", "-Wl,-rpath,$ORIGIN"] + ["-l" + n for n in libs]
        run(plain + [src, "-o", "prog"] + link, vg)
        run((plain if VEX else [driver] + cflags) + [src, "-o", "prog"] + link, native)
    else:
        builds.build_or_exit(cache, plain, src, os.path.join(vg, "prog"))
        if VEX:
            builds.build_or_exit(cache, plain, src, os.path.join(native, "prog"))
        else:
            builds.build_or_exit(cache, [driver] + cflags, src,
                                 os.path.join(native, "prog"), builds.mscc_files(driver))
    companions = ["lib%s.so" % n for n in libs]

    opts = a.options + ["--massif-out-file=" + a.out_file]
    prog_args = shlex.split(a.args)
    extra = dict(kv.partition("=")[::2] for kv in a.env)
    v = runs.reference(cache, tool("valgrind"), ["-q", "--tool=massif"] + opts,
                       os.path.join(vg, "prog"), prog_args, extra, companions)
    runs.copy_files(v, vg)
    if VEX:
        here = runs.engine_dir(cache)
        for name in ["prog"] + companions:
            runs.link(os.path.join(native, name), os.path.join(here, name))
        n = run([tool("msrun"), "--engine=vex"] + opts + ["--", "./prog"] + prog_args,
                here, env=runs.program_env(extra), check=False)
        shutil.rmtree(native)
        shutil.move(here, native)
        os.rmdir(os.path.dirname(here))
    else:
        here = native
        env = runs.program_env()
        env.update((k, val) for k, val in os.environ.items()
                   if k.startswith("MASSIF_") and k != "MASSIF_OPTIONS")
        env.update(extra)
        env["MASSIF_OPTIONS"] = " ".join(o.replace("\\", "\\\\").replace(" ", "\\ ") for o in opts)
        n = run(["./prog"] + prog_args, native, env=env, check=False)
    dirs = [here, v.cwd]

    ok = True
    if n.returncode != v.returncode:
        print(f"exit status differs: native {n.returncode}, valgrind {v.returncode}")
        print("native stderr:\n" + n.stderr)
        ok = False
    if n.stdout != v.stdout:
        print("program output differs")
        sys.stdout.writelines(difflib.unified_diff(
            v.stdout.splitlines(True), n.stdout.splitlines(True), "valgrind", "native"))
        ok = False
    if a.stderr is not None:
        mine, ref = stderr_lines(n.stderr, a.stderr), stderr_lines(v.stderr, a.stderr)
        if mine != ref:
            print("stderr lines differ:")
            sys.stdout.writelines(l + "\n" for l in difflib.unified_diff(
                ref, mine, "valgrind", "native", lineterm=""))
            ok = False
        if not ref:
            print(f"no stderr line matches {a.stderr!r}")
            ok = False

    nf, vf = profiles(native, a.out_file), profiles(vg, a.out_file)
    for side, files in (("native", nf), ("valgrind", vf)):
        if len(files) != a.files:
            print(f"{side} wrote {len(files)} profile file(s), expected {a.files}: "
                  + " ".join(os.path.basename(f) for f in files))
            ok = False
    if VEX:
        unit_ms = "--time-unit=ms" in opts
        loose_i = VEX_LOOSE and not any(o in ("--time-unit=B", "--time-unit=ms")
                                        for o in opts)
        for i, (mf, rf) in enumerate(zip(nf, vf)):
            diff = compare_files(masked_file(mf, dirs), masked_file(rf, dirs),
                                 unit_ms, loose_i)
            if diff:
                print(f"profile {i + 1}: {os.path.basename(rf)} (valgrind) vs "
                      f"{os.path.basename(mf)} (vex)")
                sys.stdout.writelines(diff)
                ok = False
        return 0 if ok else 1
    msp = shlex.split(a.ms_print_args)
    for i, (mf, rf, mine, ref) in enumerate(pair_reports(nf, vf, msp, dirs)):
        if mine != ref:
            print(f"profile {i + 1}: {os.path.basename(rf)} (valgrind) vs "
                  f"{os.path.basename(mf)} (native)")
            sys.stdout.writelines(difflib.unified_diff(
                ref.splitlines(True), mine.splitlines(True), "valgrind", "native"))
            ok = False
        else:
            # Keep the agreed report for FileCheck lines in the test itself.
            name = "report.txt" if i == 0 else f"report{i + 1}.txt"
            with open(os.path.join(work, name), "w") as f:
                f.write(mine)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

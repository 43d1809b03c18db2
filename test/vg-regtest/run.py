#!/usr/bin/env python3
"""Runs Valgrind 3.19's own Massif regression suite (massif/tests/*.vgtest)
on massif-native's engines, as Valgrind's vg_regtest runs it on Massif.

    run.py --cache DIR --work DIR --bin DIR [--engine=E]... [--jobs=N]
           [--cc=C] [--cxx=CXX] [--valgrind=V] [--ms-print=P] [TEST...]

The suite comes from Debian's valgrind source package, fetched once into
--cache with `apt-get source` (scripts/apt-source.sh, as the benchmarks
fetch their programs); nothing of it is kept in this repository. Each
engine is a way to run a test's command line:

    valgrind  valgrind --command-line-only=yes --memcheck:leak-check=no
              --tool=massif VGOPTS ./PROG ARGS      (vg_regtest's own line)
    native    msrun VGOPTS ./PROG ARGS              (PROG built with mscc)
    vex       msrun --engine=vex VGOPTS ./PROG ARGS (PROG a plain build)

`valgrind` checks the harness itself: Valgrind passes every test. The
programs are built from the suite's sources with the flags of its
Makefile.am (automake's AM_CFLAGS for amd64 Linux and clang, and each
program's own); plain builds add -gdwarf-4, which Valgrind 3.19 reads
completely. As vg_regtest, each test runs in the suite's directory (here
a private copy of it, made of links, so that tests run in parallel):
env: lines, prereq: (status 1 skips the test), then the command with
stdout and stderr captured; stdout must match a .stdout.exp* file (empty
if there is none), stderr passed through the test's stderr_filter must
match one of its .stderr.exp* files, and the post: command's output one
of its .post.exp* files; cleanup: runs last. The post: commands call the
suite's ms_print (../../massif/ms_print, made from ms_print.in as
Valgrind's configure makes it), or with --ms-print=P the program P.

One difference is Valgrind's, not Massif's, and the comparison allows for
it: without -q or -v Valgrind writes its banner and a closing line, whose
filtered remains are a blank first and a blank last line of stderr;
msrun's default is Valgrind's -q (docs/OPTIONS.md), so for an engine run
with neither option those two blank lines are not expected.

Prints one line per test and engine (PASS, FAIL with the differences,
SKIP when the prereq says so), then per engine
"vg-regtest ENGINE: P of N tests pass". Exit status 0 when every test
passes.
"""
import argparse
import concurrent.futures
import difflib
import fcntl
import glob
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ENGINES = ("valgrind", "native", "vex")

# Makefile.tool-tests.am's AM_CPPFLAGS and AM_CFLAGS as configure fills them
# in for amd64 Linux with clang (AM_FLAG_M3264_PRI is -m64).
CPPFLAGS = ["-I{src}", "-I{src}/include", "-I{src}/coregrind",
            "-I{src}/VEX/pub", "-DVGA_amd64=1", "-DVGO_linux=1",
            "-DVGP_amd64_linux=1", "-DVGPV_amd64_linux_vanilla=1"]
COMMON = ["-Winline", "-Wall", "-Wshadow", "-Wno-long-long", "-g",
          "-fno-stack-protector", "-m64"]
CLANG_C = ["-Wno-format-extra-args", "-Wno-literal-range",
           "-Wno-tautological-constant-out-of-range-compare",
           "-Wno-self-assign", "-Wno-string-plus-int", "-Wno-uninitialized",
           "-Wno-unused-value"]
CLANG_CXX = ["-Wno-unused-private-field"]
TIMEOUT_S = 600


def fetch(cache):
    """The unpacked valgrind source tree in the cache, fetched if need be
    (by one run at a time: the suite's tests share the cache)."""
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, "fetch.lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        subprocess.run(["bash", os.path.join(ROOT, "scripts", "apt-source.sh"),
                        cache, "valgrind"], check=True)
    with open(os.path.join(cache, "src", "valgrind.dir")) as f:
        return os.path.join(cache, "src", f.read().strip())


def makefile_vars(path):
    """Makefile.am's assignments (continuations joined, += appended)."""
    text = open(path).read().replace("\\\n", " ")
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        m = re.match(r"^(\w+)\s*(\+?=)\s*(.*)$", line)
        if m:
            name, op, value = m.groups()
            out[name] = (out.get(name, "") + " " + value) if op == "+=" else value
    return out


def programs(suite):
    """Each check program: (sources, is C++, the flags beyond the common)."""
    v = makefile_vars(os.path.join(suite, "Makefile.am"))
    out = {}
    for prog in v.get("check_PROGRAMS", "").split():
        canon = re.sub(r"[^A-Za-z0-9_]", "_", prog)
        sources = v.get(canon + "_SOURCES", prog + ".c").split()
        cxx = any(s.endswith((".cpp", ".cc")) for s in sources)
        key = canon + ("_CXXFLAGS" if cxx else "_CFLAGS")
        am = "$(AM_CXXFLAGS)" if cxx else "$(AM_CFLAGS)"
        extra = v.get(key, am).replace(am, " ").split()
        out[prog] = (sources, cxx, extra)
    return out


def parse_vgtest(path):
    """A .vgtest file's fields, as vg_regtest reads them."""
    t = {"vgopts": "", "args": "", "env": [], "stderr_filter": "filter_stderr"}
    for line in open(path):
        if re.match(r"^\s*(#|$)", line):
            continue
        m = re.match(r"^\s*([\w-]+):\s*(.*?)\s*$", line)
        if not m:
            raise SystemExit(f"run.py: bad line in {path}: {line}")
        key, value = m.groups()
        if key == "vgopts":
            t["vgopts"] += " " + value
        elif key == "env":
            t["env"].append(value)
        elif key in ("progB", "argsB", "stdinB", "envB"):
            raise SystemExit(f"run.py: {path}: {key} is not supported")
        else:
            t[key] = value
    return t


def build(engine, src, suite, progs, out_dir, tools, jobs):
    """Builds every program into out_dir; returns {prog: error text}."""
    os.makedirs(out_dir, exist_ok=True)

    def one(prog):
        sources, cxx, extra = progs[prog]
        if engine == "native":
            cc = [tools["mscxx"] if cxx else tools["mscc"]]
        else:
            cc = [tools["cxx"] if cxx else tools["cc"], "-gdwarf-4"]
        flags = [f.format(src=src) for f in CPPFLAGS] + COMMON + \
            (CLANG_CXX if cxx else CLANG_C) + extra
        # In the suite's folder, the sources named as its make names them
        # (the debug information's file names are theirs).
        cmd = cc + flags + sources + ["-o", os.path.join(out_dir, prog)]
        p = subprocess.run(cmd, cwd=suite, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        return prog, (None if p.returncode == 0 else " ".join(cmd) + "\n" + p.stdout)

    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        return {p: e for p, e in ex.map(one, sorted(progs)) if e}


def make_ms_print(src, path, program):
    """../../massif/ms_print: the suite's, made from ms_print.in as
    configure makes it, or a Perl stand-in that runs PROGRAM."""
    if program:
        quoted = "'" + program.replace("\\", "\\\\").replace("'", "\\'") + "'"
        text = ("#!/usr/bin/perl\n# Runs the ms_print under test.\n"
                f"exec {{{quoted}}} {quoted}, @ARGV or die;\n")
    else:
        version = re.search(r"^PACKAGE_VERSION='([^']*)'",
                            open(os.path.join(src, "configure")).read(), re.M)
        text = open(os.path.join(src, "massif", "ms_print.in")).read()
        text = text.replace("@PERL@", "/usr/bin/perl").replace(
            "@VERSION@", version.group(1) if version else "").replace(
            "@VG_TMPDIR@", "/tmp")
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


def test_root(src, suite, work, engine, name, bin_dir, ms_print):
    """A private copy of the suite's layout for one test: massif/tests of
    links to the suite's files and the built programs, tests/ (the shared
    filters) and massif/ms_print. Returns the test directory."""
    root = os.path.join(work, engine, "tests", name)
    shutil.rmtree(root, ignore_errors=True)
    tdir = os.path.join(root, "massif", "tests")
    os.makedirs(tdir)
    os.symlink(os.path.join(src, "tests"), os.path.join(root, "tests"))
    os.symlink(os.path.join(src, "include"), os.path.join(root, "include"))
    make_ms_print(src, os.path.join(root, "massif", "ms_print"), ms_print)
    for f in os.listdir(suite):
        os.symlink(os.path.join(suite, f), os.path.join(tdir, f))
    for f in os.listdir(bin_dir):
        # A copy, not a link: the program's own path is its own.
        shutil.copy2(os.path.join(bin_dir, f), os.path.join(tdir, f))
    return tdir


def sh(cmd, cwd, env, stdout=None, stdin=None):
    return subprocess.run(["/bin/sh", "-c", cmd], cwd=cwd, env=env,
                          stdout=stdout, stderr=subprocess.PIPE if stdout else None,
                          stdin=stdin, timeout=TIMEOUT_S)


def default_verbosity(vgopts):
    """Whether Valgrind runs with its default verbosity (banner written)."""
    return not any(w in ("-q", "--quiet", "-v", "--verbose")
                   for w in shlex.split(vgopts))


def without_banner(text):
    """An expected stderr without what Valgrind's banner and closing line
    leave after filtering: a blank first and a blank last line."""
    lines = text.splitlines(True)
    if lines and lines[0] == "\n":
        lines = lines[1:]
    if lines and lines[-1] == "\n":
        lines = lines[:-1]
    return "".join(lines)


def compare(tdir, name, stream, actual, banner):
    """'' when actual matches one of name.STREAM.exp*, else the diffs."""
    exps = sorted(f for f in glob.glob(os.path.join(tdir, f"{name}.{stream}.exp*"))
                  if not f.endswith(("~", "#")))
    if not exps:
        if stream == "stderr":
            return f"no {name}.stderr.exp* file\n"
        exps = [os.devnull]
    diffs = []
    for e in exps:
        expected = open(e, errors="replace").read()
        if banner:
            expected = without_banner(expected)
        if expected == actual:
            return ""
        diffs += difflib.unified_diff(expected.splitlines(True),
                                      actual.splitlines(True),
                                      os.path.basename(e), f"{stream} (actual)")
    return "".join(d if d.endswith("\n") else d + "\n" for d in diffs)


def run_test(engine, vgtest, tdir, tools):
    """Runs one test in tdir: (status, details)."""
    name = os.path.basename(vgtest)[:-len(".vgtest")]
    t = parse_vgtest(vgtest)
    env = {k: v for k, v in os.environ.items()
           if k not in ("MASSIF_OPTIONS", "VALGRIND_LIB", "VALGRIND_LIB_INNER")}
    env.update(VALGRIND_OPTS="", DEBUGINFOD_URLS="", PWD=tdir)
    if "prereq" in t:
        rc = sh(t["prereq"], tdir, env).returncode
        if rc == 1:
            return "SKIP", f"prereq failed: {t['prereq']}\n"
        if rc != 0:
            return "FAIL", f"prereq returned {rc}: {t['prereq']}\n"
    prog = t.get("prog-asis") or (t["prog"] if t.get("prog", "").startswith("/")
                                  else "./" + t["prog"] if t.get("prog") else "")
    vgopts = t["vgopts"].replace("${PWD}", tdir)
    if engine == "valgrind":
        runner = (f"{tools['valgrind']} --command-line-only=yes "
                  "--memcheck:leak-check=no --tool=massif")
    else:
        runner = tools["msrun"] + (" --engine=vex" if engine == "vex" else "")
    cmd = " ".join(t["env"] + [runner, vgopts, prog, t["args"]])
    with open(os.path.join(tdir, name + ".stdout.out"), "w") as out, \
         open(os.path.join(tdir, name + ".stderr.out"), "w") as err:
        subprocess.run(["/bin/sh", "-c", cmd], cwd=tdir, env=env, stdout=out,
                       stderr=err, stdin=subprocess.DEVNULL, timeout=TIMEOUT_S)
    report = []
    stdout = open(os.path.join(tdir, name + ".stdout.out"), errors="replace").read()
    if "stdout_filter" in t:
        stdout = filtered(t, "stdout", stdout, tdir, env, name)
    report.append(("stdout", compare(tdir, name, "stdout", stdout, False)))
    stderr = filtered(t, "stderr", open(os.path.join(tdir, name + ".stderr.out"),
                                        errors="replace").read(), tdir, env, name)
    banner = engine != "valgrind" and default_verbosity(vgopts)
    report.append(("stderr", compare(tdir, name, "stderr", stderr, banner)))
    if "post" in t:
        p = sh(t["post"], tdir, env, stdout=subprocess.PIPE)
        if p.returncode != 0:
            report.append(("post", f"post check failed ({p.returncode}): "
                           f"{t['post']}\n{p.stderr.decode(errors='replace')}"))
        else:
            report.append(("post", compare(tdir, name, "post",
                                           p.stdout.decode(errors="replace"), False)))
    if "cleanup" in t:
        sh(t["cleanup"], tdir, env)
    failed = [(s, d) for s, d in report if d]
    if not failed:
        return "PASS", ""
    return "FAIL", "".join(f"--- {s} differs:\n{d}" for s, d in failed) + \
        f"(command: {cmd}; in {tdir})\n"


def filtered(t, stream, text, tdir, env, name):
    filt = t[stream + "_filter"]
    filt = filt if filt.startswith("/") else "./" + filt
    args = t.get(stream + "_filter_args", name)
    p = subprocess.run(["/bin/sh", "-c", f"{filt} {args}"], cwd=tdir, env=env,
                       input=text.encode(), stdout=subprocess.PIPE,
                       timeout=TIMEOUT_S)
    return p.stdout.decode(errors="replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cache", required=True, help="where the source is kept")
    ap.add_argument("--work", required=True, help="builds and runs (cleared)")
    ap.add_argument("--bin", required=True, help="massif-native's bin/")
    ap.add_argument("--engine", action="append", choices=ENGINES)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cc", default="clang-19")
    ap.add_argument("--cxx", default="clang++-19")
    ap.add_argument("--valgrind", default=shutil.which("valgrind") or "valgrind")
    ap.add_argument("--ms-print", default=None,
                    help="the ms_print the post: commands run (default: the suite's)")
    ap.add_argument("tests", nargs="*", help="test names (default: all)")
    a = ap.parse_args()

    src = fetch(os.path.abspath(a.cache))
    suite = os.path.join(src, "massif", "tests")
    work = os.path.abspath(a.work)
    shutil.rmtree(work, ignore_errors=True)
    tools = {"mscc": os.path.join(a.bin, "mscc"), "mscxx": os.path.join(a.bin, "mscxx"),
             "msrun": os.path.join(a.bin, "msrun"), "cc": a.cc, "cxx": a.cxx,
             "valgrind": a.valgrind}
    tools = {k: (os.path.abspath(v) if os.sep in v else v) for k, v in tools.items()}
    ms_print = os.path.abspath(a.ms_print) if a.ms_print else None
    vgtests = sorted(glob.glob(os.path.join(suite, "*.vgtest")))
    if a.tests:
        vgtests = [v for v in vgtests if os.path.basename(v)[:-7] in a.tests]
    progs = programs(suite)
    ok = True
    for engine in a.engine or ["native", "vex"]:
        bin_dir = os.path.join(work, engine, "bin")
        errors = build(engine, src, suite, progs, bin_dir, tools, a.jobs)
        for prog, text in sorted(errors.items()):
            print(f"BUILD FAILED {engine} {prog}:\n{text}")

        def one(vgtest):
            name = os.path.basename(vgtest)[:-len(".vgtest")]
            tdir = test_root(src, suite, work, engine, name, bin_dir, ms_print)
            try:
                return name, run_test(engine, vgtest, tdir, tools)
            except subprocess.TimeoutExpired as e:
                return name, ("FAIL", f"timed out: {e.cmd}\n")

        with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
            results = list(ex.map(one, vgtests))
        passed = 0
        for name, (status, details) in results:
            print(f"{status} {engine} {name}")
            if details and status != "PASS":
                sys.stdout.write(details)
            passed += status == "PASS"
        print(f"vg-regtest {engine}: {passed} of {len(results)} tests pass")
        ok &= passed == len(results) and not errors
        sys.stdout.flush()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

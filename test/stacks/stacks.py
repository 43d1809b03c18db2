#!/usr/bin/env python3
"""Runs one program natively under massif-native and under Valgrind's Massif
with the same options and requires the two ms_print reports to be equal:
the comparison of test/conformance/conform.py, plus what stack tests need.

    stacks.py [--cxx] [--cflags=...] [--lib=SRC:NAME:COMPILER:FLAGS]...
              [--plugin=SRC:NAME:COMPILER:FLAGS]...
              [--archive=SRC:NAME:COMPILER:FLAGS]...
              [--ms-print-args=...] [--unknown=REGEX]... [--vg-args=...]
              SOURCE WORKDIR -- MASSIF OPTIONS...

--lib builds a shared library libNAME.so from SRC (relative to SOURCE's
directory) with COMPILER (gcc, clang, mscc: the same library serves both
runs unless it is mscc, which only the native run can use; Valgrind's run
then gets the same source built by clang with frame pointers) and FLAGS
(space-separated); the program links it with -lNAME and finds it next to
itself. --plugin builds the same way a library the program loads itself
(dlopen("./libNAME.so")), not linked. --archive builds libNAME.a with
COMPILER and FLAGS and links it into both programs: code without frame
pointers inside the instrumented executable. --unknown marks frames that massif-native names but Valgrind cannot:
code of a library unloaded by dlclose before the profile is written, which
Valgrind forgets. Lines of the native report whose description matches
REGEX are rewritten as Valgrind prints unknown code ("???") before the
comparison; the unmodified native report is kept as native.txt for
FileCheck, its last detailed snapshot as native-last.txt. --vg-args gives Valgrind core options for its run only (e.g.
--run-libc-freeres=no: Valgrind frees glibc's internal blocks at exit, which
a native process does not). Code addresses are masked, as are the two work directories.
Exit status: 0 when identical, 1 with a unified diff otherwise.
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
        sys.exit(f"stacks.py: CONFORM_{name.upper()} is not set")
    return path


def run(cmd, cwd, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if check and p.returncode != 0:
        sys.exit(f"stacks.py: {' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stdout}{p.stderr}")
    return p


def report(dirpath, ms_print_args, workdir):
    p = run([tool("vg_ms_print")] + ms_print_args + ["massif.out"], dirpath)
    text = ADDR.sub("0x........:", p.stdout)
    for sub in ("native", "vg"):
        text = text.replace(os.path.join(workdir, sub), "<dir>")
    return text


def build_lib(spec, srcdir, native, vg):
    src, name, compiler, flags = spec.split(":", 3)
    src = os.path.join(srcdir, src)
    flags = shlex.split(flags)
    out = "lib%s.so" % name
    if compiler == "mscc":
        run([tool("mscc")] + flags + ["-shared", "-fPIC", src, "-o", out], native)
        run([tool("clang"), "-g", "-gdwarf-4", "-fno-omit-frame-pointer"] + flags +
            ["-shared", "-fPIC", src, "-o", out], vg)
        return name
    cc = {"clang": tool("clang")}.get(compiler, compiler)
    run([cc] + flags + ["-shared", "-fPIC", src, "-o", out], native)
    shutil.copy(os.path.join(native, out), os.path.join(vg, out))
    return name


def build_archive(spec, srcdir, native, vg):
    """A static library from one source, the same file linked into both."""
    src, name, compiler, flags = spec.split(":", 3)
    cc = {"clang": tool("clang")}.get(compiler, compiler)
    obj, out = name + ".o", "lib%s.a" % name
    run([cc] + shlex.split(flags) + ["-c", os.path.join(srcdir, src), "-o", obj],
        native)
    run(["ar", "rcs", out, obj], native)
    shutil.copy(os.path.join(native, out), os.path.join(vg, out))
    return out


def last_detailed(text):
    """The last snapshot of a report that has a tree under it."""
    blocks = re.split(r"(?m)^-{80}\n +n +time", text)
    for block in reversed(blocks):
        if "(heap allocation functions)" in block:
            return block
    return ""


def unknown(text, patterns):
    out = []
    for line in text.splitlines(True):
        for pat in patterns:
            m = re.match(r"^(.*0x\.\.\.\.\.\.\.\.: )(.*)$", line)
            if m and re.search(pat, m.group(2)):
                line = m.group(1) + "???\n"
                break
        out.append(line)
    return "".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cxx", action="store_true")
    ap.add_argument("--cflags", default="-O0")
    ap.add_argument("--lib", action="append", default=[])
    ap.add_argument("--plugin", action="append", default=[])
    ap.add_argument("--archive", action="append", default=[],
                    help="SRC:NAME:COMPILER:FLAGS, linked in statically")
    ap.add_argument("--args", default="", help="program arguments")
    ap.add_argument("--ms-print-args", default="")
    ap.add_argument("--unknown", action="append", default=[])
    ap.add_argument("--vg-args", default="")
    ap.add_argument("source")
    ap.add_argument("workdir")
    ap.add_argument("options", nargs="*")
    a = ap.parse_args()

    work = os.path.abspath(a.workdir)
    shutil.rmtree(work, ignore_errors=True)
    native, vg = os.path.join(work, "native"), os.path.join(work, "vg")
    os.makedirs(native)
    os.makedirs(vg)
    src = os.path.abspath(a.source)
    libs = [build_lib(spec, os.path.dirname(src), native, vg) for spec in a.lib]
    for spec in a.plugin:
        build_lib(spec, os.path.dirname(src), native, vg)
    archives = [build_archive(spec, os.path.dirname(src), native, vg)
                for spec in a.archive]
    link = archives + ["-L.", "-Wl,-rpath,$ORIGIN"] + ["-l" + n for n in libs] + ["-ldl", "-lpthread"]
    cflags = shlex.split(a.cflags)
    driver = tool("mscxx" if a.cxx else "mscc")
    compiler = tool("clangxx" if a.cxx else "clang")
    run([driver] + cflags + [src, "-o", "prog"] + link, native)
    run([compiler, "-g", "-gdwarf-4"] + cflags + [src, "-o", "prog"] + link, vg)

    opts = a.options + ["--massif-out-file=massif.out"]
    prog_args = shlex.split(a.args)
    env = dict(os.environ)
    env["MASSIF_OPTIONS"] = " ".join(
        o.replace("\\", "\\\\").replace(" ", "\\ ") for o in opts)
    n = run(["./prog"] + prog_args, native, env=env, check=False)
    env.pop("MASSIF_OPTIONS")
    v = run([tool("valgrind"), "-q", "--tool=massif"] + shlex.split(a.vg_args) +
            opts + ["./prog"] + prog_args,
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
    with open(os.path.join(work, "native.txt"), "w") as f:
        f.write(mine)
    with open(os.path.join(work, "native-last.txt"), "w") as f:
        f.write(last_detailed(mine))
    mine = unknown(mine, a.unknown)
    if mine != ref:
        sys.stdout.writelines(difflib.unified_diff(
            ref.splitlines(True), mine.splitlines(True), "valgrind", "native"))
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

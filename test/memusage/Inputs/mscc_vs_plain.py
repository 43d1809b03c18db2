#!/usr/bin/env python3
"""mscc builds under ms_memusage against plain builds with the same flags.

usage: mscc_vs_plain.py MS_MEMUSAGE OUTDIR MSCC MSCXX CLANG CLANGXX SOURCE...

Each source is built three ways: with clang and the flags mscc adds (the
plain build), with mscc, and with mscc without instruction counters. Both
mscc builds run under ms_memusage, with and without -m, and must write the
plain build's standard error byte for byte and exit with its status.
"""
import os
import subprocess
import sys

ms_memusage, outdir, mscc, mscxx, clang, clangxx = sys.argv[1:7]
sources = sys.argv[7:]
MSCC_FLAGS = ["-g", "-gdwarf-4", "-fno-omit-frame-pointer",
              "-mno-omit-leaf-frame-pointer"]


def build(compiler, source, out, env=None):
    subprocess.run([compiler, "-O2", "-pthread", source, "-o", out] +
                   (MSCC_FLAGS if compiler in (clang, clangxx) else []),
                   check=True, env=env)


def run(options, program):
    p = subprocess.run([ms_memusage] + options + [program], cwd=outdir,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return p.returncode, p.stderr


equal = total = 0
for source in sources:
    name = os.path.splitext(os.path.basename(source))[0]
    cxx = source.endswith(".cpp")
    plain = os.path.join(outdir, name + ".plain")
    build(clangxx if cxx else clang, source, plain)
    variants = {"mscc": os.path.join(outdir, name + ".mscc"),
                "mscc, MSCC_COUNTERS=0": os.path.join(outdir, name + ".mscc0")}
    build(mscxx if cxx else mscc, source, variants["mscc"])
    build(mscxx if cxx else mscc, source, variants["mscc, MSCC_COUNTERS=0"],
          env=dict(os.environ, MSCC_COUNTERS="0"))
    for options in ([], ["-m"]):
        reference = run(options, plain)
        for label, program in variants.items():
            total += 1
            got = run(options, program)
            what = "%s (%s) %s" % (name, label, " ".join(options))
            if got == reference:
                equal += 1
                print("equal: " + what)
            else:
                print("DIFFERENT: %s: status %d, plain %d" % (what, got[0], reference[0]))
                sys.stdout.write(got[1].decode(errors="replace"))
print("%d of %d runs equal" % (equal, total))
sys.exit(0 if equal == total else 1)

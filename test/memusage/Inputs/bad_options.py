#!/usr/bin/env python3
"""ms_memusage's answers to bad command lines, against memusage's.

usage: bad_options.py MS_MEMUSAGE MEMUSAGE

Each command line runs under both tools. ms_memusage must write what
memusage writes, with its own name for memusage's, and exit with the same
status; no program may run.
"""
import subprocess
import sys

ms_memusage, memusage = sys.argv[1:3]
CASES = [
    [],
    ["--frob"],
    ["--p", "true"],
    ["--p=out", "true"],
    ["--t=3", "true"],
    ["--ti", "true"],
    ["--u", "true"],
    ["--u=1", "true"],
    ["--mmap=1", "true"],
    ["--data=", "--no-timer"],
    ["-d"],
    ["--progname"],
    ["--title"],
    ["-x"],
    ["-m", "--"],
]

equal = 0
for args in CASES:
    ref = subprocess.run([memusage] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    got = subprocess.run([ms_memusage] + args, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    want = ref.stderr.replace(b"memusage", b"ms_memusage")
    if (got.returncode, got.stdout, got.stderr) == (ref.returncode, ref.stdout, want):
        equal += 1
        print("equal: %s" % (" ".join(args) or "(no arguments)"))
    else:
        print("DIFFERENT: %s: status %d (memusage %d)\n  ours: %r\n  want: %r"
              % (" ".join(args), got.returncode, ref.returncode, got.stderr, want))
print("%d of %d command lines answered as memusage does" % (equal, len(CASES)))
sys.exit(0 if equal == len(CASES) else 1)

#!/usr/bin/env python3
"""same-profile.py MINE THEIRS: the two massif.out files are equal, code
addresses aside, and each has a heap tree (so the comparison saw the
program's allocations). Prints the differences and exits 1 otherwise."""
import difflib
import re
import sys

ADDR = re.compile(r"0x[0-9A-F]+:")


def masked(path):
    with open(path) as f:
        return [ADDR.sub("0x........:", l) for l in f]


mine, theirs = masked(sys.argv[1]), masked(sys.argv[2])
if mine != theirs:
    sys.stdout.writelines(difflib.unified_diff(theirs, mine, sys.argv[2], sys.argv[1]))
    sys.exit(1)
if not any(l.startswith("n") and "0x" in l for l in (x.lstrip() for x in mine)):
    sys.exit(f"{sys.argv[1]}: no heap tree")

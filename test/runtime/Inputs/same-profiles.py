"""Checks that runs named by the given prefixes wrote the same profiles:
as many files each (PREFIX.<pid>), paired in the order they were written,
equal line for line but for the desc: line, which names the file, and
the code addresses, which move with the libraries.

usage: same-profiles.py PREFIX PREFIX..."""
import glob
import os
import re
import sys

ADDR = re.compile(r"0x[0-9A-F]+:")

runs = {}
for prefix in sys.argv[1:]:
    files = sorted((f for f in glob.glob(prefix + ".*")
                    if f.rsplit(".", 1)[1].isdigit()), key=os.path.getmtime)
    runs[prefix] = [[ADDR.sub("0x...:", l) for l in open(f)
                     if not l.startswith("desc:")] for f in files]
first = sys.argv[1]
errors = []
for prefix, profiles in runs.items():
    if len(profiles) != len(runs[first]) or not profiles:
        errors.append("%s: %d profiles, %s: %d" % (
            prefix, len(profiles), first, len(runs[first])))
        continue
    for i, (a, b) in enumerate(zip(runs[first], profiles)):
        if a != b:
            errors.append("%s and %s: profile %d differs" % (first, prefix, i + 1))
if errors:
    sys.exit("\n".join(errors))
print("%d runs, %d profiles each, the same" % (len(runs), len(runs[first])))

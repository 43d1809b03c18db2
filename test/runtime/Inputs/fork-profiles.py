"""Checks the profiles a forking program left in a directory: one parent's
and exactly N children's, each child's last snapshot holding its marker
block (123,457 bytes), and every file read by ms_print without complaint.

usage: fork-profiles.py DIR N MS_PRINT"""
import glob
import os
import subprocess
import sys

directory, want, ms_print = sys.argv[1], int(sys.argv[2]), sys.argv[3]
parents = children = 0
errors = []
for path in sorted(glob.glob(os.path.join(directory, "massif.out.*"))):
    text = open(path).read()
    last = text[text.rfind("snapshot="):]
    if " 123457 " in last:
        children += 1
    else:
        parents += 1
    run = subprocess.run([ms_print, path], capture_output=True, text=True)
    if run.returncode != 0:
        errors.append("%s: ms_print failed: %s" % (path, run.stderr.strip()))
if parents != 1:
    errors.append("%d profiles without the child's marker, want 1" % parents)
if children != want:
    errors.append("%d children's profiles, want %d" % (children, want))
if errors:
    sys.exit("\n".join(errors))
print("%d children's profiles and the parent's" % children)

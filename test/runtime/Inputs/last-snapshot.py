"""Prints the last snapshot block of a massif.out file (from its
"snapshot=" line to the end), so a test can check the final state alone."""
import sys

lines = open(sys.argv[1]).read().splitlines()
starts = [i for i, l in enumerate(lines) if l.startswith("snapshot=")]
if not starts:
    sys.exit("no snapshot in " + sys.argv[1])
print("\n".join(lines[starts[-1]:]))

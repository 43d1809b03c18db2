"""Prints the last snapshot block of a massif.out file (from its
"snapshot=" line to the end), so a test can check the final state alone;
with --peak, the peak snapshot's block instead."""
import sys

args = sys.argv[1:]
peak = args[0] == "--peak"
lines = open(args[-1]).read().splitlines()
starts = [i for i, l in enumerate(lines) if l.startswith("snapshot=")]
if not starts:
    sys.exit("no snapshot in " + args[-1])
ends = starts[1:] + [len(lines)]
blocks = [lines[s:e] for s, e in zip(starts, ends)]
if peak:
    blocks = [b for b in blocks if "heap_tree=peak" in b]
    if not blocks:
        sys.exit("no peak snapshot in " + args[-1])
print("\n".join(blocks[-1]))

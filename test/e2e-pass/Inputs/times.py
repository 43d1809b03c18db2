#!/usr/bin/env python3
"""Checks on the times of a massif.out file.

    times.py same A B          A and B have the same snapshot times (and
                               more than two snapshots)
    times.py stacks F H LO HI  mem_stacks_B of the first snapshot with
                               mem_heap_B=H lies in [LO, HI]
    times.py descent F         mem_stacks_B never decreases from the start
                               to the peak snapshot (a program that only
                               descends before its peak)
    times.py gap F H1 H2 LO HI the time of the first snapshot with
                               mem_heap_B=H2 minus that of the first with
                               mem_heap_B=H1 lies in [LO, HI]; LO and HI may
                               be @file or @file+N: the integer that file
                               starts with, plus N
Prints what it compared; exits 1 when the check fails.
"""
import re
import sys


def snapshots(path, field="time"):
    text = open(path).read()
    values = [int(t) for t in re.findall(r"^%s=(\d+)$" % field, text, re.M)]
    heaps = [int(h) for h in re.findall(r"^mem_heap_B=(\d+)$", text, re.M)]
    return list(zip(values, heaps))


def number(arg):
    if arg.startswith("@"):
        path, _, extra = arg[1:].partition("+")
        return int(open(path).read().split()[0]) + int(extra or 0)
    return int(arg)


def main(argv):
    if argv[1] == "same":
        a, b = snapshots(argv[2]), snapshots(argv[3])
        ta, tb = [t for t, _ in a], [t for t, _ in b]
        print(f"{len(ta)} and {len(tb)} snapshots; last times {ta[-1]} {tb[-1]}")
        return 0 if ta == tb and len(ta) > 2 and ta == sorted(ta) else 1
    if argv[1] == "gap":
        s = snapshots(argv[2])
        h1, h2, lo, hi = int(argv[3]), int(argv[4]), number(argv[5]), number(argv[6])
        t1 = next(t for t, h in s if h == h1)
        t2 = next(t for t, h in s if h == h2)
        print(f"gap {t2 - t1} in [{lo}, {hi}]?")
        return 0 if lo <= t2 - t1 <= hi else 1
    if argv[1] == "descent":
        text = open(argv[2]).read()
        snaps = re.findall(r"^mem_stacks_B=(\d+)\nheap_tree=(\w+)", text, re.M)
        seen = []
        for b, kind in snaps:
            seen.append(int(b))
            if kind == "peak":
                break
        drops = [(x, y) for x, y in zip(seen, seen[1:]) if y < x]
        print(f"{len(seen)} snapshots to the peak; drops: {drops[:5]}")
        return 0 if seen and not drops else 1
    if argv[1] == "stacks":
        s = snapshots(argv[2], "mem_stacks_B")
        h, lo, hi = int(argv[3]), number(argv[4]), number(argv[5])
        b = next(v for v, heap in s if heap == h)
        print(f"stacks {b} in [{lo}, {hi}]?")
        return 0 if lo <= b <= hi else 1
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))

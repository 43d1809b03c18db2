#!/usr/bin/env python3
"""Exits 0 when two site statistics files say the same, addresses and the
command left out; otherwise prints the first difference.

usage: same_sites.py A B
"""
import re
import sys


def content(path):
    with open(path) as f:
        return [re.sub(r"0x[0-9A-F]+:", "0x:", line) for line in f
                if not line.startswith("cmd: ")]


def main():
    a, b = content(sys.argv[1]), content(sys.argv[2])
    if len(a) < 4:
        print("%s: no sites" % sys.argv[1])
        return 1
    for n, (x, y) in enumerate(zip(a, b), 1):
        if x != y:
            print("line %d differs:\n  %s  %s" % (n, x, y))
            return 1
    if len(a) != len(b):
        print("%s has %d lines, %s %d" % (sys.argv[1], len(a), sys.argv[2], len(b)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

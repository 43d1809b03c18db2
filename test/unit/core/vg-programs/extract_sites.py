#!/usr/bin/env python3
"""Reads the two map runs of regenerate.sh and prints sites.map: for every
call site of replay.c the frames of its stack as Massif printed them.

  map.massif.out        every site's stack down to main (threshold 0)
  map-below.massif.out  every frame down to main made an alloc-fn, which
                        leaves the first frame below main

Output lines (fields separated by single spaces, frames by " | ",
innermost first):

  a <site> <pc> <function> <file> <line> | <pc> <function> <file> <line> ...
  r <site> ...
  below <pc> <raw function> <file> <line>

Massif prints the frame below main as "(below main)"; the raw name the
symbolizer reports for it (glibc 2.34+) is __libc_start_call_main.
"""
import re
import sys

NODE = re.compile(r"^( *)n(\d+): (\d+) 0x([0-9A-F]+): (.*) \(([^()]*):(\d+)\)$")


def last_tree(path):
    lines = open(path).read().split("\n")
    start = max(i for i, l in enumerate(lines) if l.startswith("heap_tree="))
    return [l for l in lines[start + 2:] if l]


def paths(tree):
    """Yields every root-to-leaf path as a list of (pc, fn, file, line)."""
    stack = []
    for line in tree:
        m = NODE.match(line)
        if not m:
            raise SystemExit(f"unexpected tree line: {line!r}")
        depth = len(m.group(1)) - 1
        del stack[depth:]
        stack.append(("0x" + m.group(4), m.group(5), m.group(6), m.group(7)))
        if m.group(2) == "0":
            yield list(stack)


def main():
    sites = {}
    for frames in paths(last_tree(sys.argv[1])):
        leaf = re.fullmatch(r"([ar])site(\d)", frames[0][1])
        group = re.fullmatch(r"group(\d)", frames[1][1])
        if not leaf or not group:
            raise SystemExit(f"unexpected stack: {frames}")
        site = int(group.group(1)) * 6 + int(leaf.group(2))
        sites[(leaf.group(1), site)] = frames
    if len(sites) != 48:
        raise SystemExit(f"found {len(sites)} stacks, expected 48")
    for (kind, site), frames in sorted(sites.items()):
        text = " | ".join(" ".join(f) for f in frames)
        print(f"{kind} {site} {text}")

    below = {f[0] for p in paths(last_tree(sys.argv[2])) for f in p}
    below_frames = [f for p in paths(last_tree(sys.argv[2])) for f in p]
    if len(below) != 1 or below_frames[0][1] != "(below main)":
        raise SystemExit(f"unexpected below-main frames: {below_frames}")
    pc, _, file, line = below_frames[0]
    print(f"below {pc} __libc_start_call_main {file} {line}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Checks ms_print --format=collapsed against the snapshots' totals.

    collapsed_sums.py MS_PRINT FILE...

For each massif.out FILE, reads the snapshots from ms_print --format=json
(total = mem_heap_B + mem_heap_extra_B + mem_stacks_B) and checks that the
collapsed lines of --snapshot=peak, --snapshot=last (the last snapshot with
a tree) and each snapshot of --snapshot=all sum to that snapshot's total.
Every line must read "FRAME;...;FRAME COUNT" with no empty frame and a
positive count, no stack may appear twice, and with --snapshot=all every
stack starts with the frame "snapshot N" of a snapshot that has a tree.
A profile with no tree must be refused (exit status 1, a message).

Prints one line per file ("OK name: ..." or "FAIL name: why") and a
summary; exits 1 if anything failed.
"""
import json
import os
import re
import subprocess
import sys

LINE = re.compile(r"^(.+) ([0-9]+)$")


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode("utf-8", "replace"), \
        p.stderr.decode("utf-8", "replace")


def parse_lines(text):
    """[(frames, count)] of collapsed output; raises ValueError."""
    out = []
    seen = set()
    for line in text.split("\n")[:-1] if text else []:
        m = LINE.match(line)
        if not m:
            raise ValueError("malformed line %r" % line)
        stack, count = m.group(1), int(m.group(2))
        frames = stack.split(";")
        if any(f == "" for f in frames):
            raise ValueError("empty frame in %r" % line)
        if count <= 0:
            raise ValueError("count not positive in %r" % line)
        if stack in seen:
            raise ValueError("stack twice: %r" % stack)
        seen.add(stack)
        out.append((frames, count))
    if text and not text.endswith("\n"):
        raise ValueError("output does not end with a newline")
    return out


def check_file(ms_print, path):
    rc, out, err = run([ms_print, "--format=json", path])
    if rc != 0:
        return "json export failed: " + err.strip()
    prof = json.loads(out)
    snaps = prof["snapshots"]
    total = {s["snapshot"]: s["mem_heap_B"] + s["mem_heap_extra_B"] +
             s["mem_stacks_B"] for s in snaps}
    detailed = [s["snapshot"] for s in snaps if s["heap_tree"] != "empty"]

    def collapsed(which):
        rc, out, err = run([ms_print, "--format=collapsed",
                            "--snapshot=" + which, path])
        return rc, out, err

    if not detailed:
        for which in ("peak", "last", "all"):
            rc, out, err = collapsed(which)
            if rc != 1 or out or "tree" not in err:
                return "%s: a profile without trees not refused (%d, %r)" % (
                    which, rc, err)
        return "refused, no tree"

    checked = 0
    picks = {"peak": snaps[prof["peak"]]["snapshot"], "last": detailed[-1]}
    for which, number in picks.items():
        rc, out, err = collapsed(which)
        if number not in detailed:
            if rc != 1 or out or "has no tree" not in err:
                return "%s: tree-less snapshot %d not refused" % (which,
                                                                  number)
            continue
        if rc != 0:
            return "%s: exit %d: %s" % (which, rc, err.strip())
        try:
            lines = parse_lines(out)
        except ValueError as e:
            return "%s: %s" % (which, e)
        got = sum(c for _, c in lines)
        if got != total[number]:
            return "%s (snapshot %d): lines sum to %d, total is %d" % (
                which, number, got, total[number])
        if any(f[0].startswith("snapshot ") for f, _ in lines):
            return "%s: a snapshot frame without --snapshot=all" % which
        checked += 1

    rc, out, err = collapsed("all")
    if rc != 0:
        return "all: exit %d: %s" % (rc, err.strip())
    try:
        lines = parse_lines(out)
    except ValueError as e:
        return "all: %s" % e
    sums = {}
    for frames, count in lines:
        m = re.match(r"^snapshot ([0-9]+)$", frames[0])
        if not m or len(frames) < 2:
            return "all: stack without its snapshot frame: %r" % frames
        n = int(m.group(1))
        sums[n] = sums.get(n, 0) + count
    for n in detailed:
        if sums.get(n, 0) != total[n]:
            return "all: snapshot %d sums to %d, total is %d" % (
                n, sums.get(n, 0), total[n])
    extra = set(sums) - set(detailed)
    if extra:
        return "all: stacks of snapshots without a tree: %s" % sorted(extra)
    checked += len(detailed)
    return "%d snapshot sums checked" % checked


def main():
    ms_print, files = sys.argv[1], sys.argv[2:]
    failed = 0
    for path in files:
        result = check_file(ms_print, path)
        ok = result.endswith("checked") or result == "refused, no tree"
        failed += not ok
        print("%s %s: %s" % ("OK" if ok else "FAIL", os.path.basename(path),
                             result))
    print("%d files, %d failed" % (len(files), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

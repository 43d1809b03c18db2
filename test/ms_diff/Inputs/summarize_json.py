#!/usr/bin/env python3
"""Reads ms_diff's JSON object and prints its facts, one a line.

    summarize_json.py FILE

Fails (with a traceback) when the file is not JSON or lacks a field the
format promises, or a field has the wrong type; otherwise prints the
format and version, the files, each moment's snapshots (and where its
locations come from) and totals and rows, and the gate, for FileCheck.
"""
import json
import sys


def need(obj, key, types):
    value = obj[key]
    assert isinstance(value, types), "%s: %r is not %s" % (key, value, types)
    return value


def number(obj, key):
    return need(obj, key, int)


def percent(obj):
    value = obj["percent"]
    assert value is None or isinstance(value, (int, float)), value
    return "null" if value is None else "%.2f" % value


def change(obj):
    a, b, delta = number(obj, "a"), number(obj, "b"), number(obj, "delta")
    assert delta == b - a, obj
    return "a=%d b=%d delta=%+d percent=%s" % (a, b, delta, percent(obj))


with open(sys.argv[1], encoding="utf-8") as f:
    d = json.load(f)

print("format=%s version=%d by=%s" % (need(d, "format", str),
                                      number(d, "version"),
                                      need(d, "by", str)))
for side in ("a", "b"):
    f = need(d, "files", dict)[side]
    print("file %s: path=%s cmd=%s time_unit=%s desc=%s" % (
        side, need(f, "path", str), need(f, "cmd", str),
        need(f, "time_unit", str), need(f, "desc", str)))
for m in need(d, "moments", list):
    sides = []
    offsets = []
    for side in ("a", "b"):
        s = m[side]
        tree = s["tree_snapshot"]
        for key in ("tree_snapshot", "tree_offset", "tree_heap"):
            assert (s[key] is None) == (tree is None), (key, s)
            assert s[key] is None or isinstance(s[key], int), (key, s)
        sides.append("%s=%d%s tree=%s" % (
            side, number(s, "snapshot"),
            " (peak)" if need(s, "heap_tree_peak", bool) else "", tree))
        if tree is not None:
            assert s["snapshot"] >= tree and (s["tree_offset"] == 0) == (s["snapshot"] == tree), s
            offsets.append("%s: %d before, heap %d" % (side, s["tree_offset"], s["tree_heap"]))
    locations = need(m, "locations", str)
    assert locations in ("totals_snapshots", "same_offset", "different_moments", "no_tree"), locations
    assert (m["rows"] is None) == (locations in ("different_moments", "no_tree")), m
    print("moment %s: %s locations=%s (%s)" % (need(m, "moment", str), " ".join(sides),
                                              locations, "; ".join(offsets)))
    for key in ("heap", "extra_heap", "stacks", "total"):
        print("  %s: %s" % (key, change(need(m, "totals", dict)[key])))
    rows = m["rows"]
    if rows is None:
        print("  rows: null")
    for r in rows or []:
        frames = need(r, "frames", list)
        assert all(isinstance(x, str) for x in frames)
        print("  %s %s: %s frames=%s" % (
            need(r, "change", str), need(r, "location", str), change(r),
            " | ".join(frames)))
    print("  unchanged=%d" % number(m, "unchanged"))
gate = d["gate"]
if gate is None:
    print("gate: null")
else:
    print("gate: limit=%s kind=%s allowed=%d %s failed=%s" % (
        need(gate, "limit", str), need(gate, "kind", str),
        number(gate, "allowed_bytes"), change(gate),
        need(gate, "failed", bool)))
    print("verdict: %s" % need(gate, "verdict", str))

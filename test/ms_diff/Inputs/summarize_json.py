#!/usr/bin/env python3
"""Reads ms_diff's JSON object and prints its facts, one a line.

    summarize_json.py FILE

Fails (with a traceback) when the file is not JSON or lacks a field the
format promises, or a field has the wrong type; otherwise prints the
format and version, the files, each moment's snapshots (and where its
locations come from) and totals and rows, the gate, the site statistics
compared (their files, totals and rows by metric) and their gates, and
whether a gate failed, for FileCheck.
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


def print_rows(rows, indent):
    for r in rows:
        frames = need(r, "frames", list)
        assert all(isinstance(x, str) for x in frames)
        print("%s%s %s: %s frames=%s" % (
            indent, need(r, "change", str), need(r, "location", str), change(r),
            " | ".join(frames)))


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
    print_rows(rows or [], "  ")
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
stats = d["site_stats"]
if stats is None:
    print("site_stats: null")
else:
    files = []
    for side in ("a", "b"):
        f = need(stats, side, dict)
        assert f["path"] is None or isinstance(f["path"], str), f
        files.append("%s=%s%s" % (side, f["path"], "" if need(f, "found", bool) else " (none)"))
    compared = need(stats, "compared", bool)
    print("site_stats: %s compared=%s" % (" ".join(files), compared))
    assert (stats["totals"] is None) == (not compared) == (stats["by_metric"] is None), stats
    if compared:
        for key in ("calls", "bytes", "temporary", "temporary_bytes", "leaked_blocks",
                    "leaked_bytes"):
            print("  %s: %s" % (key, change(need(stats, "totals", dict)[key])))
        for key in ("calls", "bytes", "temporary", "leaked_bytes"):
            metric = need(stats, "by_metric", dict)[key]
            print("  by %s:" % key)
            print_rows(need(metric, "rows", list), "    ")
            print("    unchanged=%d" % number(metric, "unchanged"))
for g in need(d, "site_gates", list):
    limit = g["limit"]
    assert (limit is None) == (g["gate"] == "leaks"), g
    assert g["kind"] in ("percent", "count", "bytes", "none"), g
    print("site gate %s: option=%s limit=%s kind=%s allowed=%d %s failed=%s" % (
        need(g, "gate", str), need(g, "option", str), limit, g["kind"],
        number(g, "allowed"), change(g), need(g, "failed", bool)))
    print("verdict: %s" % need(g, "verdict", str))
failed = need(d, "failed", bool)
assert failed == (bool(gate and gate["failed"]) or
                  any(g["failed"] for g in d["site_gates"])), d
print("failed=%s" % failed)

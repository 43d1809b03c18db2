#!/usr/bin/env python3
"""Keeps test/.lit_test_times.txt: how long each lit test took, which lit
reads from the source tree when the build has no times of its own (a fresh
clone), so that the first run starts the longest tests first and the two
workers end together instead of one running a slow sweep alone at the end.

    test/update_test_times.py [BUILD_DIR]

Copies the times the last lit run recorded in BUILD_DIR/test (default
build), as positive numbers (lit records a failed test's as negative),
longest first. Only the order matters, so it needs updating when tests are
added or their cost changes a lot, not after every run.
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "build")
times = {}
with open(os.path.join(build, "test", ".lit_test_times.txt")) as f:
    for line in f:
        t, name = line.split(maxsplit=1)
        times[name.strip()] = abs(float(t))
known = [n for n in times if os.path.exists(os.path.join(here, n))]
with open(os.path.join(here, ".lit_test_times.txt"), "w") as out:
    for name in sorted(known, key=lambda n: (-times[n], n)):
        out.write("%.1f %s\n" % (times[name], name))
print("%d tests, %.0f s in all" % (len(known), sum(times[n] for n in known)))

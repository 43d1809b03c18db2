#!/usr/bin/env python3
"""How long ms_print's HTML page takes to open with 10,000 snapshots.

    bench/views/html_load.py [--ms-print BIN] [--chromium BIN]
                             [--snapshots N] [--runs R] [--work DIR]

Generates a profile of N snapshots (default 10,000, every tenth detailed;
test/views/browser/gen_many.py, fixed seed), writes its page with
ms_print --html, and loads it R times (default 5) from a file:// URL in
headless Chromium (test/views/browser/cdp.py). A load's time is from the
navigation's start to the page's "ready" flag (window.massifReadyAt, set
once the graph, the peak's tree and the flame graph are drawn). Prints the
page's size, the median, minimum and maximum load time, and the median
times of its parts (the HTML up to the page's script, JSON.parse, the
drawing). Not part of the test suite (no timing is asserted anywhere).
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BROWSER_DIR = os.path.join(ROOT, "test", "views", "browser")
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, BROWSER_DIR)
import cdp  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ms-print", default=os.path.join(ROOT, "build", "bin", "ms_print"))
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--snapshots", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="ms-html-bench-")
    os.makedirs(work, exist_ok=True)
    profile = os.path.join(work, "many.out")
    page = os.path.join(work, "many.html")
    subprocess.run([sys.executable, os.path.join(BROWSER_DIR, "gen_many.py"), profile,
                    "--snapshots", str(args.snapshots)], check=True)
    subprocess.run([args.ms_print, "--html", profile, "-o", page], check=True)
    ready, parts = [], []
    with cdp.Browser(args.chromium, timeout=120) as browser:
        tab = browser.new_page(1200, 800)
        for _ in range(args.runs + 1):  # the first load warms the cache
            tab.navigate("file://" + os.path.abspath(page), timeout=120)
            tab.wait_for("window.massifReadyAt !== undefined", timeout=120)
            tab.settle(0.05)
            if tab.exceptions or tab.console_errors:
                sys.exit("html_load: the page failed: %s" % (tab.exceptions + tab.console_errors))
            ready.append(tab.evaluate("window.massifReadyAt"))
            parts.append(tab.evaluate("[window.massifStartAt, window.massifParsedAt]"))
    ready, parts = ready[1:], parts[1:]
    print("profile: %d snapshots, %.1f MB massif.out" % (
        args.snapshots, os.path.getsize(profile) / 1e6))
    print("page size: %d bytes (%.1f MB)" % (os.path.getsize(page), os.path.getsize(page) / 1e6))
    print("load to ready: median %.0f ms (min %.0f, max %.0f) over %d runs" % (
        statistics.median(ready), min(ready), max(ready), len(ready)))
    start = statistics.median(p[0] for p in parts)
    parse = statistics.median(p[1] - p[0] for p in parts)
    print("  the HTML read and parsed up to the script: median %.0f ms" % start)
    print("  JSON.parse of the profile: median %.0f ms" % parse)
    print("  the rest (graph, peak's tree, flame graph): median %.0f ms" % (
        statistics.median(r - p[1] for r, p in zip(ready, parts))))
    if not args.work:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs every %conform line of the given programs on the VEX engine.

    conform_all.py CONFORM_PY WORKDIR PROGRAM...

Each `RUN: %conform ARGS` line of each conformance program is run with
conform.py and CONFORM_ENGINE=vex: the program is built with plain clang
(no mscc), run once with `msrun --engine=vex` and once with
`valgrind --tool=massif`, and the massif.out files must be equal (see
conform.py). A line with --time-unit=B runs a second time without it, in
instructions (Massif's default unit); for a program built with -pthread
that second run is compared loosely (CONFORM_VEX_LOOSE, see conform.py),
since Valgrind interleaves threads as the host schedules them. Prints one line per failing run with its differences, then
"vex conformance: EQUAL of TOTAL runs equal (PROGRAMS programs)". Exit
status 0 when every run is equal.
"""
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys

RUN = re.compile(r"RUN:\s*%conform\s+(.*)$")


def runs(paths):
    for path in sorted(paths):
        base = os.path.basename(path)
        with open(path) as f:
            for n, line in enumerate(f, 1):
                m = RUN.search(line)
                if m:
                    yield base, n, path, m.group(1)
                    if " --time-unit=B" in m.group(1):
                        unit_i = m.group(1).replace(" --time-unit=B", "")
                        yield base, f"{n}i", path, unit_i


def one(conform, work, base, n, path, args):
    tmp = os.path.join(work, f"{base}.{n}")
    words = [w.replace("%s", path).replace("%t", tmp).replace("%%", "%")
             for w in shlex.split(args)]
    env = dict(os.environ, CONFORM_ENGINE="vex")
    if str(n).endswith("i") and "-pthread" in args:
        env["CONFORM_VEX_LOOSE"] = "1"
    p = subprocess.run([sys.executable, conform] + words, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       errors="replace")
    return base, n, args, p.returncode, p.stdout


def main():
    conform, work = sys.argv[1], os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    todo = list(runs(sys.argv[3:]))
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as ex:
        for base, n, args, rc, out in ex.map(lambda r: one(conform, work, *r), todo):
            if rc != 0:
                failed += 1
                print(f"DIFFERS {base}:{n}: {args}\n{out}")
    programs = len({r[0] for r in todo})
    print(f"vex conformance: {len(todo) - failed} of {len(todo)} runs equal "
          f"({programs} programs)")
    return 1 if failed or not todo else 0


if __name__ == "__main__":
    sys.exit(main())

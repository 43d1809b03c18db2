#!/usr/bin/env python3
"""Runs xtcompare.py for every program of programs.txt with the options
given here added, and prints how many reports were equal.

    xtall.py WORKDIR [--engine=vex] -- OPTIONS...

The programs run in parallel, one per processor. Exit status 0 when every
report is equal."""
import concurrent.futures
import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CONFORMANCE = os.path.join(os.path.dirname(HERE), "conformance")


def main():
    args = sys.argv[1:]
    split = args.index("--") if "--" in args else len(args)
    head, extra = args[:split], args[split + 1:]
    work, flags = head[0], head[1:]
    cmds = []
    for line in open(os.path.join(HERE, "programs.txt")):
        if not line.strip() or line.startswith("#"):
            continue
        words = shlex.split(line)
        source, rest = words[0], words[1:]
        sep = rest.index("--")
        build, opts = rest[:sep], rest[sep + 1:]
        name = os.path.splitext(os.path.basename(source))[0]
        cmds.append((name, [sys.executable, os.path.join(HERE, "xtcompare.py")] + flags +
                     build + [os.path.join(CONFORMANCE, source),
                              os.path.join(work, name), "--"] + opts + extra))

    def one(job):
        name, cmd = job
        p = subprocess.run(cmd, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        last = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        return name, p.returncode == 0 and last == "equal: 1", p.stdout

    equal, failed = 0, []
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as pool:
        for name, ok, out in pool.map(one, cmds):
            if ok:
                equal += 1
            else:
                failed.append(name)
                sys.stdout.write(f"--- {name}\n{out}")
    print(f"equal: {equal} of {len(cmds)}")
    if failed:
        print("not equal: " + " ".join(failed))
    return 0 if equal == len(cmds) else 1


if __name__ == "__main__":
    sys.exit(main())

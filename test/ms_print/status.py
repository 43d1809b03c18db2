#!/usr/bin/env python3
"""Runs a command and reports how it ended, for FileCheck.

    status.py CMD ARGS...

Copies the command's stdout, then its stderr, to stdout, and ends with a
line "exit status: N". Always exits 0, so a RUN line can check the exact
status of a command that fails on purpose (lit's "not" only knows
"non-zero").
"""
import subprocess
import sys

p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
out = sys.stdout.buffer
out.write(p.stdout)
out.write(p.stderr)
out.write(b"exit status: %d\n" % p.returncode)

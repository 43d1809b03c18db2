#!/usr/bin/env python3
"""Runs programs under glibc's memusage and under ms_memusage, compares.

usage: compare.py MS_MEMUSAGE MEMUSAGE MEMUSAGESTAT OUTDIR PROGRAM...

For every program and option set, both tools run the same binary. Equal
means: standard error equal byte for byte (the summary, its colour codes,
and whatever the program wrote there), the same exit status, and with -d
the same records in the data files (heap and stack; the time stamps
aside). Runs with a data file also check that memusagestat draws ours.
Prints one line per run and "N of M runs equal"; exits 1 unless all are.
"""
import os
import struct
import subprocess
import sys

ms_memusage, memusage, memusagestat, outdir = sys.argv[1:5]
programs = sys.argv[5:]

# Runs with a data file go without the SIGPROF timer: its samples fall
# where the scheduler puts them, in memusage's own runs as well.
OPTION_SETS = [
    [],
    ["-m"],
    ["--no-timer", "-d", "{data}"],
    ["-m", "--no-timer", "--data={data}"],
    ["-u", "--no-timer", "-d", "{data}"],
    ["-b", "7", "--no-timer", "-d", "{data}"],
    ["-n", "{name}"],
    ["--progname=not-this-one"],
]


def records(path):
    """The (heap, stack) of every record of a data file."""
    with open(path, "rb") as f:
        data = f.read()
    if len(data) % 24:
        return None
    return [struct.unpack_from("<QQ", data, i) for i in range(0, len(data), 24)]


def run(tool, options, program, data):
    name = os.path.basename(program)
    args = [a.format(data=data, name=name) for a in options]
    if os.path.exists(data):
        os.unlink(data)
    p = subprocess.run([tool] + args + [program], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, cwd=outdir)
    return p.returncode, p.stderr


def main():
    os.makedirs(outdir, exist_ok=True)
    equal = total = 0
    for program in programs:
        for options in OPTION_SETS:
            total += 1
            ref_data = os.path.join(outdir, "memusage.dat")
            our_data = os.path.join(outdir, "ms_memusage.dat")
            ref = run(memusage, options, program, ref_data)
            ours = run(ms_memusage, options, program, our_data)
            problems = []
            if ref[0] != ours[0]:
                problems.append("exit status %d, memusage's %d" % (ours[0], ref[0]))
            if ref[1] != ours[1]:
                problems.append("standard error differs")
                with open(os.path.join(outdir, "last-memusage.err"), "wb") as f:
                    f.write(ref[1])
                with open(os.path.join(outdir, "last-ms_memusage.err"), "wb") as f:
                    f.write(ours[1])
            if any("{data}" in o for o in options):
                a, b = records(ref_data), records(our_data)
                if b is None or a != b:
                    problems.append("data file records differ (%s and %s records)"
                                    % (len(a or []), len(b or [])))
                png = os.path.join(outdir, "ours.png")
                drawn = subprocess.run([memusagestat, our_data, png],
                                       stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL)
                if drawn.returncode != 0 or os.path.getsize(png) == 0:
                    problems.append("memusagestat cannot draw our data file")
            label = "%s %s" % (os.path.basename(program), " ".join(options) or "(no options)")
            if problems:
                print("DIFFERENT: %s: %s" % (label, "; ".join(problems)))
            else:
                equal += 1
                print("equal: %s" % label)
    print("%d of %d runs equal" % (equal, total))
    return 0 if equal == total else 1


sys.exit(main())

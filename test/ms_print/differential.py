#!/usr/bin/env python3
"""Runs two ms_prints on the same inputs and compares everything they do.

    differential.py --ours BIN --ref BIN [--jobs N] [--show N] [--sets I,J]
                    [--heavy-sample N] [--shard I/N] [--arguments] PATH...

Every massif.out file under the given paths (files or directories) is
printed by both programs with each of the option sets below; stdout,
stderr and the exit status must be identical. Prints one line,

    ms_print differential: <runs> compared, <identical> identical

after the details of the first mismatches, and exits 1 if any differ.
Each run gets an empty TMPDIR: Valgrind's ms_print leaves its temporary
file there when it dies; ours must leave nothing, which is checked too.
With --arguments, a fixed list of command lines around the first file
(option errors, missing and unreadable inputs) is compared instead. The
usage text is ours by design (it describes this project and its views), so
the script's usage text in the reference output is replaced by ours before
comparing; --help and --version, which ours answers itself, are tested in
options.test instead. With --shard I/N only the I-th of N parts of the
comparisons is made (every Nth, from the I-th): N lit tests share the
sweep and run beside the rest of the suite.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

# Valgrind's ms_print needs most of a second for a 1000x1000 graph, so
# --heavy-sample can thin that one set out on the generated files.
HEAVY = ["--x=1000", "--y=1000"]
OPTION_SETS = [
    [],
    ["--threshold=0"],
    ["--threshold=0.99"],
    ["--threshold=5"],
    ["--threshold=10"],
    ["--threshold=30"],
    ["--x=4", "--y=4"],
    ["--x=1000", "--y=1000"],
    ["--x=5", "--y=1000"],
]


def argument_cases(sample, scratch):
    """Command lines around one good file: every option error and the
    ways of naming (or failing to name) the input."""
    missing = os.path.join(scratch, "no-such-file.out")
    directory = os.path.join(scratch, "a-directory")
    os.makedirs(directory, exist_ok=True)
    empty = os.path.join(scratch, "empty.out")
    open(empty, "wb").close()
    f = sample
    return [
        [], ["-help"], ["--version\n", f], ["--versions", f],
        ["--x=3", f], ["--x=1001", f], ["--x=4", f], ["--x=0004", f],
        ["--y=3", f], ["--y=1000", f], ["--x=abc", f], ["--x=", f],
        ["--x=-5", f], ["--x=72\n", f], ["--x=72\n\n", f], ["--x", "72", f],
        ["--threshold=", f], ["--threshold=abc", f], ["--threshold=101", f],
        ["--threshold=100", f], ["--threshold=100.0001", f],
        ["--threshold=1.2.3", f], ["--threshold=.", f],
        ["--threshold=..5", f], ["--threshold=5%", f],
        ["--threshold=5%%", f], ["--threshold=%", f],
        ["--threshold=1e1", f], ["--threshold=05.50", f],
        ["--threshold=5\n", f], ["--threshold=200.5.5", f],
        ["--bogus", f], ["-x", f], ["-", f], [f, "--bogus"], [f, "-"],
        [missing], [f, missing], [missing, f], [directory], [empty], [""],
        [" " + f + "  "], ["--x=0072", "--y=0004", f, f],
        ["--threshold=0", "--threshold=50", f],
        # Numbers that overflow strtod leave errno at ERANGE (34).
        ["--x=" + "9" * 400, f], ["--threshold=0." + "0" * 400 + "1", f],
    ]


def run(binary, args, tmpdir):
    env = dict(os.environ, TMPDIR=tmpdir)
    try:
        p = subprocess.run([binary] + args, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=300,
                           stdin=subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""
    except OSError as e:
        return "not run (%s)" % e, b"", b""


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a.splitlines(), b.splitlines())):
        if x != y:
            return "line %d:\n  ref:  %r\n  ours: %r" % (i + 1, x[:300],
                                                       y[:300])
    return "lengths %d vs %d" % (len(a), len(b))


def usage_texts(ours, ref):
    """(the script's usage text, ours): what `-h` prints."""
    with tempfile.TemporaryDirectory() as tmp:
        return run(ref, ["-h"], tmp)[2], run(ours, ["-h"], tmp)[1]


USAGE = (b"", b"")


def compare(job):
    ours, ref, args, scratch = job
    work = tempfile.mkdtemp(dir=scratch)
    ref_tmp, our_tmp = os.path.join(work, "ref"), os.path.join(work, "ours")
    os.mkdir(ref_tmp)
    os.mkdir(our_tmp)
    expected = run(ref, args, ref_tmp)
    if USAGE[0]:
        expected = (expected[0], expected[1].replace(*USAGE),
                    expected[2].replace(*USAGE))
    actual = run(ours, args, our_tmp)
    problems = []
    for what, e, a in (("exit status", expected[0], actual[0]),
                       ("stdout", expected[1], actual[1]),
                       ("stderr", expected[2], actual[2])):
        if e != a:
            detail = (first_difference(e, a) if isinstance(e, bytes)
                      else "ref %s, ours %s" % (e, a))
            problems.append("%s differs: %s" % (what, detail))
    if os.listdir(our_tmp):
        problems.append("ours left files in TMPDIR: %s" % os.listdir(our_tmp))
    shutil.rmtree(work, ignore_errors=True)
    return " ".join(repr(a) if not a or " " in a or "\n" in a else a
                    for a in args), problems


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in sorted(names)
                          if n.endswith(".out")]
        else:
            files.append(p)
    return sorted(files)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", required=True)
    ap.add_argument("--ref", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--show", type=int, default=10)
    ap.add_argument("--sets", default="",
                    help="comma-separated indices into the option sets "
                         "(default: all)")
    ap.add_argument("--heavy-sample", type=int, default=1, metavar="N",
                    help="run %s on every file of the first path but only "
                         "on every Nth file of the others" % " ".join(HEAVY))
    ap.add_argument("--shard", default="1/1", metavar="I/N",
                    help="make only the I-th of N parts of the comparisons")
    ap.add_argument("--arguments", action="store_true",
                    help="run the command-line cases around the first file "
                         "instead of the option sets")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    shard, _, count = args.shard.partition("/")
    if not (shard.isdigit() and count.isdigit() and 1 <= int(shard) <= int(count)):
        ap.error("--shard is I/N, 1 <= I <= N")
    shard, count = int(shard), int(count)
    sets = ([OPTION_SETS[int(i)] for i in args.sets.split(",")]
            if args.sets else OPTION_SETS)
    scratch = tempfile.mkdtemp(prefix="msprint-diff-")
    files = collect(args.paths)
    if args.arguments:
        global USAGE
        USAGE = usage_texts(args.ours, args.ref)
        cases = argument_cases(files[0], scratch)
        label = "ms_print arguments differential"
    else:
        first = set(collect(args.paths[:1]))
        cases = []
        for k, f in enumerate(files):
            for opts in sets:
                if (opts != HEAVY or f in first or
                        k % max(1, args.heavy_sample) == 0):
                    cases.append(opts + [f])
        label = "ms_print differential"
        # The heavy set first, so that every shard gets its share of the
        # slow comparisons (in file order they fell on two shards of six).
        cases.sort(key=lambda c: c[:-1] != HEAVY)
    jobs = [(args.ours, args.ref, c, scratch) for c in cases[shard - 1::count]]
    identical, shown = 0, 0
    try:
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for what, problems in pool.map(compare, jobs):
                if not problems:
                    identical += 1
                elif shown < args.show:
                    shown += 1
                    print("MISMATCH ms_print %s" % what)
                    for p in problems:
                        print("  " + p)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("%s: %d compared, %d identical" % (label, len(jobs), identical))
    return 0 if jobs and identical == len(jobs) else 1


if __name__ == "__main__":
    sys.exit(main())

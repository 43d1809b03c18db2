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

Valgrind's ms_print needs most of a second for each 1000x1000 graph, and
the same inputs give the same outputs every run, so that set's reference
results are recorded (--record FILE, test/ms_print/heavy-record.txt;
regenerate-record.sh rewrites it): a digest of the exit status, stdout and
stderr for each input's contents, the input's path masked. A recorded case
compares ours with the record; the first recorded case of each shard is
also run live and must agree with it. The record names the ms_print and
perl it was made with; with any other, it is ignored and every case runs
live (--heavy-sample thins those out again).
"""
import argparse
import concurrent.futures
import hashlib
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


def file_digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:20]


def result_digest(result, path):
    """What a record keeps of one run: its status, stdout and stderr, with
    the input's path (which the header and the errors name) masked."""
    status, out, err = result
    h = hashlib.sha256(str(status).encode())
    for text in (out, err):
        h.update(b"\0" + text.replace(path.encode(), b"<FILE>"))
    return h.hexdigest()[:24]


def reference_identity(ref):
    """The ms_print script's digest and the perl that runs it."""
    perl = subprocess.run(["perl", "-e", "print $^V"], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True).stdout
    return "ms_print %s perl %s" % (file_digest(ref), perl or "none")


def read_record(path, ref):
    """{(input digest, option set index): result digest}, or {} (with a
    note) when FILE was made with another ms_print or perl."""
    with open(path) as f:
        lines = f.read().splitlines()
    made_with = lines[0][2:] if lines and lines[0].startswith("# ") else ""
    if made_with != reference_identity(ref):
        print("differential.py: %s was made with %s, not %s: running the "
              "reference live" % (path, made_with or "nothing known",
                                  reference_identity(ref)), file=sys.stderr)
        return {}
    record = {}
    for line in lines[1:]:
        if line and not line.startswith("#"):
            data, index, digest = line.split()
            record[data, int(index)] = digest
    return record


def write_record(path, ref, files, sets, scratch, jobs):
    def one(case):
        f, index = case
        work = tempfile.mkdtemp(dir=scratch)
        digest = result_digest(run(ref, OPTION_SETS[index] + [f], work), f)
        return "%s %d %s" % (file_digest(f), index, digest)
    cases = [(f, i) for f in files for i in sets]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        lines = sorted(set(pool.map(one, cases)))
    with open(path, "w") as out:
        out.write("# %s\n" % reference_identity(ref))
        out.write("# made by test/ms_print/regenerate-record.sh: "
                  "input digest, option set, result digest\n")
        out.writelines(line + "\n" for line in lines)
    print("differential.py: %d reference runs recorded in %s"
          % (len(lines), path))


def compare(job):
    ours, ref, args, scratch, recorded, verify = job
    work = tempfile.mkdtemp(dir=scratch)
    ref_tmp, our_tmp = os.path.join(work, "ref"), os.path.join(work, "ours")
    os.mkdir(ref_tmp)
    os.mkdir(our_tmp)
    actual = run(ours, args, our_tmp)
    problems = []
    if recorded and result_digest(actual, args[-1]) == recorded:
        if verify:
            live = result_digest(run(ref, args, ref_tmp), args[-1])
            if live != recorded:
                problems.append("the record says %s, the live ms_print %s: "
                                "run regenerate-record.sh" % (recorded, live))
        if os.listdir(our_tmp):
            problems.append("ours left files in TMPDIR: %s"
                            % os.listdir(our_tmp))
        shutil.rmtree(work, ignore_errors=True)
        return describe(args), problems
    # No record, or ours differs from it: the reference runs, to show how.
    expected = run(ref, args, ref_tmp)
    if USAGE[0]:
        expected = (expected[0], expected[1].replace(*USAGE),
                    expected[2].replace(*USAGE))
    if recorded and result_digest(expected, args[-1]) != recorded:
        problems.append("the live ms_print disagrees with the record: "
                        "run regenerate-record.sh")
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
    return describe(args), problems


def describe(args):
    return " ".join(repr(a) if not a or " " in a or "\n" in a else a
                    for a in args)


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
    ap.add_argument("--record", metavar="FILE",
                    help="the recorded reference results of %s"
                         % " ".join(HEAVY))
    ap.add_argument("--write-record", action="store_true",
                    help="run the reference with %s on every file and "
                         "write --record FILE" % " ".join(HEAVY))
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
    heavy = OPTION_SETS.index(HEAVY)
    if args.write_record:
        if not args.record:
            ap.error("--write-record needs --record FILE")
        try:
            write_record(args.record, args.ref, files, [heavy], scratch,
                         args.jobs)
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
        return 0
    record = read_record(args.record, args.ref) if args.record else {}
    recorded = {}
    if args.arguments:
        global USAGE
        USAGE = usage_texts(args.ours, args.ref)
        cases = argument_cases(files[0], scratch)
        label = "ms_print arguments differential"
    else:
        first = set(collect(args.paths[:1]))
        cases = []
        for k, f in enumerate(files):
            data = file_digest(f) if record else None
            for opts in sets:
                known = record.get((data, OPTION_SETS.index(opts)))
                if known:
                    recorded[len(cases)] = known
                if (opts != HEAVY or known or f in first or
                        k % max(1, args.heavy_sample) == 0):
                    cases.append(opts + [f])
        label = "ms_print differential"
        # The heavy set first, so that every shard gets its share of the
        # slow comparisons (in file order they fell on two shards of six).
        order = sorted(range(len(cases)), key=lambda i: cases[i][:-1] != HEAVY)
        recorded = {n: recorded[i] for n, i in enumerate(order) if i in recorded}
        cases = [cases[i] for i in order]
    mine = range(shard - 1, len(cases), count)
    verify = next((i for i in mine if i in recorded), None)
    jobs = [(args.ours, args.ref, cases[i], scratch, recorded.get(i),
             i == verify) for i in mine]
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

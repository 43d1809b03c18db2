#!/usr/bin/env python3
"""Times our ms_print against Valgrind's on one large generated profile.

    bench/ms_print/bench.py [--ours BIN] [--ref BIN] [--size-mb N]
                            [--seed S] [--work DIR] [--options ...]

Generates a well-formed massif.out of about N MB (default 100) with a
fixed seed (test/ms_print/gen_massif.py --big-mb), runs Valgrind's
ms_print once and ours three times (best time kept) in the same run,
checks that the outputs are identical, and prints wall and CPU times,
peak resident memory and the speed ratio. Not part of the test suite.
"""
import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def timed(cmd, out_path):
    """Runs cmd with stdout to out_path; returns (wall, cpu, max_rss_mb)."""
    with open(out_path, "wb") as out:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("bench: %s failed" % " ".join(cmd))
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ours", default=os.path.join(ROOT, "build", "bin",
                                                   "ms_print"))
    ap.add_argument("--ref", default="/usr/bin/ms_print")
    ap.add_argument("--size-mb", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--work", default=None,
                    help="directory for the profile and outputs "
                         "(kept, and the profile reused, if given)")
    ap.add_argument("--options", nargs="*", default=[],
                    help="ms_print options for both runs")
    args = ap.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="msprint-bench-")
    os.makedirs(work, exist_ok=True)
    profile = os.path.join(work, "big-%dmb-%d.out" % (args.size_mb,
                                                       args.seed))
    if not os.path.exists(profile):
        subprocess.run([sys.executable,
                        os.path.join(ROOT, "test", "ms_print",
                                     "gen_massif.py"),
                        profile, "--big-mb", str(args.size_mb),
                        "--seed", str(args.seed)], check=True)
    size = os.path.getsize(profile) / (1 << 20)

    ours_out = os.path.join(work, "ours.txt")
    ref_out = os.path.join(work, "ref.txt")
    ours = min((timed([args.ours] + args.options + [profile], ours_out)
                for _ in range(3)), key=lambda r: r[0])
    ref = timed([args.ref] + args.options + [profile], ref_out)
    same = digest(ours_out) == digest(ref_out)

    print("profile: %.1f MB, options: %s" % (size, " ".join(args.options)
                                              or "(none)"))
    print("ours:     wall %7.2f s  cpu %7.2f s  max RSS %7.1f MB" % ours)
    print("ms_print: wall %7.2f s  cpu %7.2f s  max RSS %7.1f MB" % ref)
    print("outputs identical: %s" % ("yes" if same else "NO"))
    print("speed ratio (ms_print wall / ours wall): %.1fx" % (ref[0] /
                                                              ours[0]))
    if not args.work:
        for p in (profile, ours_out, ref_out):
            os.remove(p)
        os.rmdir(work)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

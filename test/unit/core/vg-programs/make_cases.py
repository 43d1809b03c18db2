#!/usr/bin/env python3
"""Writes the operation scripts that replay.c performs under Valgrind, and
the list of cases (script + Massif options) that regenerate.sh records.

Usage: make_cases.py <dir>   writes <dir>/<case>.script and <dir>/cases.txt
       (one line per case: name, then the Massif options, blank-separated).

The scripts are pseudo-random but fixed by their seeds, so regenerating
gives the same cases. They mix every operation the model handles: mallocs
of many sizes (zero, tiny, odd, a few beyond Valgrind's 4 MiB superblock),
frees, reallocs that shrink, stay within the slop, grow, start from NULL
and end at size 0, from 24 call sites.
"""
import os
import random
import sys

NUM_SITES = 24
NUM_LEAVES = 6


def size(rng, big_ok):
    r = rng.random()
    if r < 0.08:
        return 0
    if r < 0.35:
        return rng.randint(1, 64)
    if r < 0.75:
        return rng.randint(65, 2000)
    if r < 0.97 or not big_ok:
        return rng.randint(2001, 40000)
    return rng.randint(4 * 1024 * 1024 - 200, 5 * 1024 * 1024)


def random_script(seed, n_ops, n_slots=48, sites=None, big_ok=True):
    rng = random.Random(seed)
    sites = sites or list(range(NUM_SITES))
    live = {}
    ops = []
    for _ in range(n_ops):
        r = rng.random()
        free_slots = [s for s in range(n_slots) if s not in live]
        if live and (r < 0.30 or not free_slots):
            slot = rng.choice(sorted(live))
            ops.append(f"f {slot}")
            del live[slot]
        elif live and r < 0.55:
            slot = rng.choice(sorted(live))
            old = live[slot]
            k = rng.random()
            if k < 0.3:
                new = rng.randint(0, old) if old else 0
            elif k < 0.45:
                new = old + rng.randint(0, 15)
            elif k < 0.5:
                new = 0
            else:
                new = size(rng, big_ok)
            ops.append(f"r {slot} {new} {rng.choice(sites)}")
            if new == 0:
                del live[slot]
            else:
                live[slot] = new
        elif free_slots:
            slot = rng.choice(free_slots)
            if rng.random() < 0.05:
                # realloc(NULL, n) is a malloc charged to the realloc site
                n = size(rng, big_ok) or 1
                ops.append(f"r {slot} {n} {rng.choice(sites)}")
            else:
                n = size(rng, big_ok)
                ops.append(f"a {slot} {n} {rng.choice(sites)}")
            live[slot] = n
    return ops


def map_script():
    """Every allocation and realloc site once, so one run shows all stacks."""
    ops = []
    for site in range(NUM_SITES):
        ops.append(f"a {site} 16 {site}")
        ops.append(f"r {site} 4096 {site}")
    return ops


def slop_script():
    """Fresh blocks only (nothing is freed, so nothing is recycled)."""
    sizes = list(range(0, 70)) + [95, 96, 97, 100, 1000, 1023, 1024, 4095,
                                  4096, 4097, 65536, 100000]
    sizes += [4194224, 4194240, 4194241, 4194256, 4194257, 4194272,
              4194304, 4194305, 4200000, 8388608, 10485760]
    return [f"a {i} {n} {i % NUM_SITES}" for i, n in enumerate(sizes)]


# name: (options, script)
def cases():
    leaves = lambda *ls: [s for s in range(NUM_SITES) if s % NUM_LEAVES in ls]
    everything_to_main = ["--alloc-fn=asite%d" % i for i in range(NUM_LEAVES)]
    everything_to_main += ["--alloc-fn=rsite%d" % i for i in range(NUM_LEAVES)]
    everything_to_main += ["--alloc-fn=group%d" % i for i in range(4)]
    everything_to_main += ["--alloc-fn=dispatch", "--alloc-fn=main"]
    return {
        "basic": ([], random_script(1, 160)),
        "cull10": (["--max-snapshots=10"], random_script(2, 320)),
        "cull11": (["--max-snapshots=11", "--peak-inaccuracy=0"],
                   random_script(3, 320)),
        "peak0": (["--peak-inaccuracy=0", "--max-snapshots=30"],
                  random_script(4, 220)),
        "peak10": (["--peak-inaccuracy=10", "--detailed-freq=5"],
                   random_script(5, 220)),
        "freq1": (["--detailed-freq=1", "--max-snapshots=12"],
                  random_script(6, 120)),
        "freq3-admin16": (["--detailed-freq=3", "--max-snapshots=17",
                           "--heap-admin=16"], random_script(7, 200)),
        "admin0": (["--heap-admin=0", "--max-snapshots=10",
                    "--detailed-freq=3"], random_script(8, 200)),
        "depth1": (["--depth=1", "--threshold=0", "--detailed-freq=2",
                    "--max-snapshots=15"], random_script(9, 150)),
        "depth2": (["--depth=2", "--threshold=5", "--max-snapshots=20",
                    "--detailed-freq=2"], random_script(10, 150)),
        "thr0": (["--threshold=0", "--max-snapshots=12", "--detailed-freq=4"],
                 random_script(11, 150)),
        "thr10": (["--threshold=10", "--detailed-freq=2"],
                  random_script(12, 200)),
        "thr0625": (["--threshold=0.625", "--detailed-freq=2",
                     "--max-snapshots=24"], random_script(13, 200, big_ok=False)),
        "ignore-asite1": (["--ignore-fn=asite1", "--detailed-freq=2",
                           "--max-snapshots=20", "--threshold=0"],
                          random_script(14, 200, sites=leaves(1, 2, 3))),
        "ignore-rsite2": (["--ignore-fn=rsite2", "--ignore-fn=group1",
                           "--detailed-freq=2", "--max-snapshots=20",
                           "--threshold=0"],
                          random_script(15, 200, sites=leaves(1, 2, 3))),
        "allocfn-leaf": (["--alloc-fn=asite0", "--alloc-fn=rsite4",
                          "--alloc-fn=group2", "--threshold=0",
                          "--detailed-freq=3", "--max-snapshots=16"],
                         random_script(16, 160)),
        "allocfn-to-main": (everything_to_main[:] + ["--detailed-freq=2",
                                                      "--max-snapshots=12"],
                            random_script(17, 100)),
        "slop": (["--detailed-freq=1000", "--max-snapshots=1000"],
                 slop_script()),
    }


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "map.script"), "w") as f:
        f.write("\n".join(map_script()) + "\n")
    with open(os.path.join(out, "cases.txt"), "w") as listing:
        for name, (opts, ops) in cases().items():
            with open(os.path.join(out, name + ".script"), "w") as f:
                f.write("\n".join(ops) + "\n")
            listing.write(" ".join([name] + opts) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the call scripts that arena.c performs under Valgrind, and the list
of arena cases (script + Massif options) that regenerate.sh records.

Usage: make_arena_cases.py <dir>   writes <dir>/arena-<case>.script and
       <dir>/arena-cases.txt (one line per case: name, then the options).

Each case aims at a rule of Valgrind's client arena where the usable size
depends on the history (see docs/DESIGN-core.md, "The client arena"). The
random ones are fixed by their seeds, so regenerating gives the same cases.
"""
import os
import random
import sys

MiB = 1024 * 1024


def reuse_script():
    """Freed blocks handed out whole or split, merging, zero-size blocks."""
    ops = []
    # malloc(96) in a freed 112-byte block: the 16 bytes left cannot make a
    # block, so the whole block is handed out (slop 16).
    ops += ["a 0 112", "a 1 16", "f 0", "a 0 96"]
    # 32 bytes left make a block: split.
    ops += ["a 2 128", "a 3 16", "f 2", "a 2 96", "a 4 0"]
    # Payload differences of 0, 16, 32 and 48 bytes, each in a fresh hole.
    slot = 10
    for have in (16, 32, 48, 64, 80, 96, 240, 1008, 1024, 4000):
        for less in (0, 1, 15, 16, 17, 31, 32, 33, 48):
            if less > have:
                continue
            ops += [f"a {slot} {have}", f"a {slot + 1} 8", f"f {slot}",
                    f"a {slot} {have - less}"]
            slot += 2
    # Neighbours merge: free the middle of three last, and the ends first.
    ops += ["a 300 100", "a 301 200", "a 302 300", "a 303 16",
            "f 300", "f 302", "f 301", "a 300 600", "a 301 584", "f 300",
            "a 300 0", "f 300", "a 300 0"]
    # Zero-size blocks take 32-byte blocks of their own.
    ops += [f"a {400 + i} 0" for i in range(8)]
    ops += [f"f {400 + i}" for i in range(0, 8, 2)]
    ops += [f"a {400 + i} 1" for i in range(0, 8, 2)]
    return ops


def lists_script():
    """More than 99 too-small blocks on one list: the search moves on and
    the list's head steps forward; many equal blocks exercise the head's
    retreat to lower addresses."""
    ops = []
    for i in range(200):
        ops += [f"a {i} 1024", f"a {1000 + i} 16"]
    for i in range(200):
        ops.append(f"f {i}")
    for k in range(12):
        ops.append(f"a {2000 + k} 1050")
    for i in range(150):
        ops.append(f"a {i} 1024")
    # Interleaved frees and reuses of one size class in a long list.
    rng = random.Random(21)
    live = list(range(150))
    for _ in range(600):
        if rng.random() < 0.5 and live:
            s = live.pop(rng.randrange(len(live)))
            ops.append(f"f {s}")
        else:
            s = rng.choice([s for s in range(200) if s not in live])
            ops.append(f"a {s} {rng.choice([1000, 1008, 1024, 1040])}")
            live.append(s)
    return ops


def big_script():
    """Dedicated superblocks, whole 4 MiB superblocks, deferred reclaim and
    first-fit placement of superblocks into the holes others left."""
    return [
        "a 0 10485760", "f 0", "a 0 5242880", "a 1 4194240", "a 2 4194224",
        "a 3 4194241", "f 1", "f 2", "a 4 100", "a 5 8000000", "f 5",
        "a 5 3000000", "a 6 3000000", "a 7 2000000", "a 8 4194304",
        "f 0", "a 9 6000000", "f 3", "f 6", "a 10 1000", "a 11 1000",
        "f 7", "a 12 2500000", "a 13 1000000", "f 4", "f 10", "f 11",
        "a 14 100", "a 15 100", "m 16 65536 100", "m 17 1048576 5000",
        "f 12", "f 13", "a 18 4000000", "a 19 20000000", "f 19",
        "a 19 3500000", "a 20 3500000", "a 21 3500000", "f 20",
        "a 22 200", "f 9", "f 8", "a 23 300", "f 18", "f 21",
        "a 24 4194224", "a 25 64", "f 24", "a 26 64",
    ]


def random_script(seed, n_ops, n_slots, ops_weights, sizes, aligns=None):
    rng = random.Random(seed)
    live = set()
    out = []
    kinds, weights = zip(*ops_weights)
    for _ in range(n_ops):
        kind = rng.choices(kinds, weights)[0]
        if kind in "fr" and not live:
            kind = "a"
        if kind == "f":
            slot = rng.choice(sorted(live))
            out.append(f"f {slot}")
            live.discard(slot)
            continue
        if kind == "r":
            slot = rng.choice(sorted(live))
            k = rng.random()
            n = 0 if k < 0.05 else sizes(rng)
            out.append(f"r {slot} {n}")
            if n == 0:
                live.discard(slot)
            continue
        free = [s for s in range(n_slots) if s not in live]
        if not free:
            slot = rng.choice(sorted(live))
            out.append(f"f {slot}")
            live.discard(slot)
            continue
        slot = rng.choice(free)
        n = sizes(rng)
        if kind == "a":
            out.append(f"a {slot} {n}")
        elif kind == "c":
            m = rng.randint(1, 8)
            out.append(f"c {slot} {m} {max(n // m, 0)}")
        elif kind == "v":
            out.append(f"v {slot} {n}")
        else:
            out.append(f"{kind} {slot} {rng.choice(aligns)} {n}")
        live.add(slot)
    return out


def small_sizes(rng):
    r = rng.random()
    if r < 0.05:
        return 0
    if r < 0.6:
        return rng.randint(1, 128)
    if r < 0.9:
        return rng.randint(129, 1500)
    if r < 0.995:
        return rng.randint(1501, 60000)
    return rng.randint(3 * MiB, 6 * MiB)


def mid_sizes(rng):
    r = rng.random()
    if r < 0.5:
        return rng.randint(1, 300)
    if r < 0.97:
        return rng.randint(301, 20000)
    return rng.randint(1 * MiB, 5 * MiB)


def growth_script():
    """realloc growing blocks step by step (Massif: a new block, then the
    old one freed), between calloc'd neighbours."""
    ops = []
    rng = random.Random(31)
    sizes = [1, 1, 1, 1]
    for step in range(160):
        slot = step % 4
        sizes[slot] = int(sizes[slot] * 1.3) + rng.randint(1, 40)
        ops.append(f"r {slot} {sizes[slot]}")
        if step % 3 == 0:
            ops.append(f"c {10 + step} {rng.randint(1, 6)} {rng.randint(1, 90)}")
        if step % 5 == 0 and step >= 10:
            ops.append(f"f {10 + step - 9}")
        if step % 7 == 0:
            ops.append(f"r {slot} {max(1, sizes[slot] // 2)}")
    return ops


ALIGNS = [8, 16, 32, 48, 64, 128, 256, 512, 1024, 4096, 8192, 65536]


def cases():
    return {
        "reuse": ([], reuse_script()),
        "lists": ([], lists_script()),
        "big": ([], big_script()),
        "churn": ([], random_script(
            41, 12000, 3000, [("a", 45), ("f", 45), ("r", 10)], small_sizes)),
        "memalign": ([], random_script(
            42, 4000, 300, [("a", 25), ("f", 40), ("m", 15), ("p", 8),
                            ("l", 4), ("v", 3), ("r", 5)],
            mid_sizes, [a for a in ALIGNS if a != 48])),
        "memalign48": ([], ["m 0 48 100", "m 1 24 10", "a 2 10", "m 3 48 5",
                            "f 1", "m 1 40 7"]),
        "alignment64": (["--alignment=64"], random_script(
            43, 5000, 400, [("a", 35), ("c", 5), ("f", 40), ("r", 10),
                            ("m", 10)], mid_sizes, [16, 32, 64, 256])),
        "alignment4096": (["--alignment=4096"], random_script(
            44, 1500, 200, [("a", 45), ("f", 45), ("r", 10)], small_sizes)),
        "growth": ([], growth_script()),
    }


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "arena-cases.txt"), "w") as listing:
        for name, (opts, ops) in cases().items():
            with open(os.path.join(out, f"arena-{name}.script"), "w") as f:
                f.write("\n".join(ops) + "\n")
            listing.write(" ".join([f"arena-{name}"] + opts) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Random massif.out files, well-formed and damaged, for ms_print tests.

    gen_massif.py OUTDIR [--count N] [--seed S] [--big-mb M]

Writes OUTDIR/gen-NNNN.out; the same seed always gives the same files.
About half are well-formed profiles: every time unit, sizes up to 2^40,
deep (past Perl's 100-level recursion warning) and wide trees, peaks
anywhere, empty trees, long names, '#' and '%' inside names, files
without desc: lines, all-zero profiles; half of those then get odd
values in their numeric fields (Perl's numification: "12abc", "1e17",
"1.0", "nan", fractional and out-of-order times). The rest are damaged:
missing, repeated or swapped lines, truncation, bad tree lines, wrong
child counts, nodes larger than the total, odd numbers ("12abc", "1e3",
" 5", "inf"), negative or non-monotonic times, CRLF endings, a bad
time_unit. Damage that would make Valgrind's ms_print allocate a graph
of millions of columns (a time far beyond the last one) is not produced.

With --big-mb M a single well-formed file of about M megabytes is
written instead (OUTDIR is then the file name), for the benchmark.
Only the standard library is used.
"""
import argparse
import math
import os
import random
import re

HEAP_ROOT = b"(heap allocation functions) malloc/new/new[], --alloc-fns, etc."
PAGE_ROOT = b"(page allocation syscalls) mmap/mremap/brk, --alloc-fns, etc."
ODD_NUMBERS = [b"12abc", b"", b" 5", b"5 ", b"-3", b"1e3", b"1.5", b"0x10",
               b"inf", b"nan", b"+7", b"1_000", b"9" * 25, b"-0",
               b"0 but true", b".", b"1e400", b"\x01\x7f\xe9\\x", b"7\r",
               b"1.0", b"-2.5e2", b"NaN123", b"  ", b"0x", b"3.",
               b"18446744073709551615", b"18446744073709551616", b"1e17",
               b"1e19", b"9007199254740993", b"9223372036854775808",
               b"-9223372036854775809", b"0.5", b"1e-320", b"4.35",
               b"1.0e0", b"12 34", b"\t12", b"00012", b"1.5e300",
               b"1234567890123456.0", b"Infinity", b"1.#INF", b"nan(12)"]


def rand_size(rng, top=40):
    """A size log-uniform in [1, 2^top], sometimes 0 or tiny."""
    r = rng.random()
    if r < 0.08:
        return 0
    if r < 0.2:
        return rng.randint(1, 120)
    return int(2 ** rng.uniform(0, top))


def ip_desc(rng):
    """The description part of a tree line, in Massif's style or odder."""
    addr = rng.randint(0x1000, 0x4FFFFFF)
    r = rng.random()
    if r < 0.55:
        return b"0x%X: fn_%d (file%d.c:%d)" % (addr, rng.randint(0, 999),
                                             rng.randint(0, 9),
                                             rng.randint(1, 9999))
    if r < 0.65:
        return b"0x%X: ??? (in /usr/lib/x86_64-linux-gnu/libc.so.6)" % addr
    if r < 0.7:
        return b"0x%X: (below main) (libc_start_call_main.h:58)" % addr
    if r < 0.72:
        parts = b"::".join(b"ns%d" % rng.randint(0, 99)
                           for _ in range(rng.randint(20, 600)))
        return b"0x%X: %s<int> (t.cpp:4)" % (addr, parts)
    if r < 0.8:
        return b"0x%X: op#%d (we#ird.c:%d)" % (addr, rng.randint(0, 9),
                                              rng.randint(1, 99))
    if r < 0.85:
        return b"0x%X: fmt%%d%%s%%%% (pct.c:1)" % addr
    if r < 0.9:
        return b"0x%X: caf\xc3\xa9\t\x01 (u.c:3)" % addr
    if r < 0.95:
        k = rng.randint(2, 9)
        return b"in %d places, all below massif's threshold (1.00%%)" % k
    return b"in 1 place, below massif's threshold (1.00%)"


def plain_desc(rng):
    """A description as Massif usually writes it."""
    return b"0x%X: fn_%d (file%d.c:%d)" % (rng.randint(0x1000, 0x4FFFFFF),
                                          rng.randint(0, 999),
                                          rng.randint(0, 9),
                                          rng.randint(1, 9999))


def gen_tree(rng, total, max_depth, max_width, budget, desc=ip_desc):
    """A tree as (bytes, desc, children); children sum to their parent."""
    count = [0]

    def node(size, depth):
        count[0] += 1
        children = []
        if depth < max_depth and count[0] < budget and rng.random() < 0.8:
            width = rng.randint(1, max_width)
            left = size
            for i in range(width):
                part = left if i == width - 1 else rng.randint(0, left)
                left -= part
                children.append(part)
            if rng.random() < 0.1 and children:  # Massif drops nothing, but
                children[-1] = children[-1] // 2  # ms_print must not care.
            children.sort(reverse=rng.random() < 0.9)
        return (size, desc(rng), [node(c, depth + 1) for c in children])

    return node(total, 0)


def gen_chain(rng, total, length):
    """A single chain of n1: nodes, for Perl's deep-recursion warning."""
    tree = (total, ip_desc(rng), [])
    for _ in range(length):
        tree = (total, ip_desc(rng), [tree])
    return tree


def tree_lines(tree, root_desc, out):
    """Serialises a tree the way Massif indents it (one space a level)."""
    stack = [(tree, 0, True)]
    while stack:
        (size, desc, kids), depth, is_root = stack.pop()
        text = root_desc if is_root else desc
        out.append(b" " * depth + b"n%d: %d %s" % (len(kids), size, text))
        for kid in reversed(kids):
            stack.append((kid, depth + 1, False))


def gen_valid(rng):
    """A well-formed profile, as a list of lines (bytes, no newlines)."""
    unit = rng.choice([b"i", b"ms", b"B"])
    pages = rng.random() < 0.15
    lines = []
    for _ in range(rng.choice([0, 1, 1, 1, 2, 3])):
        args = [b"--time-unit=" + unit, b"--depth=%d" % rng.randint(1, 200)]
        if rng.random() < 0.2:
            args.append(b"--massif-out-file=a#b.out")
        if rng.random() < 0.1:
            args = [b"(none)"]
        lines.append(b"desc: " + b" ".join(args))
    lines.append(rng.choice([b"cmd: ./prog", b"cmd: ./prog a  b",
                             b"cmd:    ./spaced   ", b"cmd:",
                             b"cmd: ./x%s%d #comment"]))
    lines.append(b"time_unit: " + unit)

    n = rng.choice([1, 2, 3, 5, 10, 20, 30, 60, rng.randint(1, 100)])
    zero = rng.random() < 0.07
    freq = rng.choice([1, 2, 3, 5, 10, 1000])
    step = {b"i": 10 ** 9, b"ms": 5000, b"B": 2 ** 32}[unit]
    times, t = [], rng.choice([0, 0, 0, rng.randint(1, step)])
    for _ in range(n):
        times.append(0 if zero else t)
        t += rng.choice([0, rng.randint(0, step), rng.randint(0, 100)])
    detailed = [i % freq == freq - 1 for i in range(n)]
    peaks = [i for i in range(n) if detailed[i]]
    peak = rng.choice(peaks) if peaks and rng.random() < 0.85 else None
    deep = rng.random() < 0.12
    for i in range(n):
        heap = 0 if zero else rand_size(rng)
        extra = 0 if zero else rng.choice([0, rand_size(rng, 20)])
        stacks = 0 if zero else rng.choice([0, 0, 0, rand_size(rng, 24)])
        kind = b"peak" if i == peak else (b"detailed" if detailed[i]
                                          else b"empty")
        if rng.random() < 0.05:
            lines.append(b"")
        lines += [b"#-----------", b"snapshot=%d" % i, b"#-----------",
                  b"time=%d" % times[i], b"mem_heap_B=%d" % heap,
                  b"mem_heap_extra_B=%d" % extra,
                  b"mem_stacks_B=%d" % stacks, b"heap_tree=" + kind]
        if kind != b"empty":
            if deep and rng.random() < 0.5:
                tree = gen_chain(rng, heap, rng.choice([97, 98, 99, 100,
                                                        120, 250]))
            elif rng.random() < 0.1:
                tree = (heap, b"", [])
            else:
                tree = gen_tree(rng, heap, rng.randint(1, 9),
                                rng.choice([1, 2, 3, 6, 20]),
                                rng.choice([8, 25, 60, 250]))
            tree_lines(tree, PAGE_ROOT if pages else HEAP_ROOT, lines)
    return lines


def perl_number(text):
    """Roughly how Perl numifies text (enough to spot huge ratios)."""
    m = re.match(rb"\s*([+-]?)(inf|nan)", text, re.I)
    if m:
        return float("nan") if m.group(2).lower() == b"nan" else (
            -math.inf if m.group(1) == b"-" else math.inf)
    m = re.match(rb"\s*([+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?)", text)
    if not m or re.match(rb"\s*[+-]?0[xXbB]", text):
        return 0.0
    try:
        return float(m.group(1))
    except OverflowError:
        return math.inf


def graph_is_safe(lines):
    """False if Valgrind's ms_print would build a gigantic graph."""
    times = [perl_number(l[5:]) for l in lines if l.startswith(b"time=")]
    if not times:
        return True
    end = times[-1]
    if math.isnan(end) or end < 0:
        return True  # It dies before drawing.
    end = end or 1.0
    for t in times:
        if math.isnan(t):
            continue
        ratio = t / end
        if math.isinf(ratio) or ratio > 50:
            return False
    return True


def damage(rng, lines):
    """Applies one random kind of damage to a profile."""
    n = len(lines)
    pick = lambda: rng.randrange(n) if n else 0
    kind = rng.randrange(16)
    tree_idx = [i for i, l in enumerate(lines) if re.match(rb"\s*n\d+:", l)]
    field_idx = [i for i, l in enumerate(lines)
                 if re.match(rb"(time|mem_\w+|snapshot)=", l)]
    if kind == 0 and n:
        del lines[pick()]
    elif kind == 1 and n:
        i = pick()
        lines.insert(i, lines[i])
    elif kind == 2 and n > 1:
        i = rng.randrange(n - 1)
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    elif kind == 3 and n:
        lines[pick()] = rng.choice([b"garbage", b"", b" ", b"n1 5 x",
                                    b"snapshot=", b"#x", b"time = 5",
                                    b"heap_tree=", b"n0:", b"\xff\xfe"])
    elif kind == 4 and tree_idx:
        i = rng.choice(tree_idx)
        lines[i] = rng.choice([re.sub(rb"n\d+:", b"n:", lines[i]),
                               re.sub(rb"n\d+:", b"nx:", lines[i]),
                               re.sub(rb": \d+", b": ", lines[i]),
                               re.sub(rb": (\d+)", rb": a\1", lines[i])])
    elif kind == 5 and tree_idx:
        i = rng.choice(tree_idx)
        delta = rng.choice([1, -1, 5, 10 ** 20])
        lines[i] = re.sub(rb"n(\d+):", lambda m: b"n%d:" % max(
            0, int(m.group(1)) + delta), lines[i], count=1)
    elif kind == 6:
        idx = [i for i, l in enumerate(lines) if l.startswith(b"heap_tree=")]
        if idx:
            lines[rng.choice(idx)] = b"heap_tree=" + rng.choice(
                [b"foo", b"Detailed", b"peakish", b"empty ", b"detailed\r",
                 b"peak ", b"", b"xdetailedx"])
    elif kind == 7 and field_idx:
        i = rng.choice(field_idx)
        key = lines[i].split(b"=", 1)[0]
        lines[i] = key + b"=" + rng.choice(ODD_NUMBERS)
    elif kind == 8 and tree_idx:
        i = rng.choice(tree_idx)
        lines[i] = re.sub(rb": (\d+)", lambda m: b": %d" % (
            int(m.group(1)) * 3 + 1), lines[i], count=1)
    elif kind == 9:
        for key in (b"cmd:", b"time_unit:"):
            if rng.random() < 0.5:
                lines[:] = [l for l in lines if not l.startswith(key)]
    elif kind == 10:
        for i, l in enumerate(lines):
            if l.startswith(b"time_unit:"):
                lines[i] = b"time_unit: " + rng.choice([b"x", b"ms ", b"",
                                                        b"I", b"B\r"])
    elif kind == 11:
        idx = [i for i, l in enumerate(lines) if l.startswith(b"time=")]
        if idx:
            end = max(1, int(perl_number(lines[idx[-1]][5:]) or 1))
            for _ in range(rng.randint(1, 3)):
                t = rng.randint(-3 * end, 4 * end)
                lines[rng.choice(idx)] = b"time=%d" % t
    elif kind == 12:
        lines[:] = [l + b"\r" for l in lines]
    elif kind == 13:
        lines[:] = lines[:rng.randint(0, min(n, 8))]
    elif kind == 14:
        idx = [i for i, l in enumerate(lines) if l.startswith(b"time=")]
        if idx:
            lines[rng.choice([idx[-1]] + idx)] = b"time=" + rng.choice(
                [b"inf", b"nan", b"-1", b"0", b"1e3x"])
    else:
        # Blank and comment lines anywhere are fine for ms_print.
        for _ in range(rng.randint(1, 5)):
            lines.insert(rng.randint(0, n), rng.choice([b"", b"  ", b"# c",
                                                       b"\t#x"]))
    return lines


def oddify(rng, lines):
    """Keeps the structure but gives many fields odd numeric values, and
    times that are fractional, negative or out of order."""
    keys = (b"time", b"mem_heap_B", b"mem_heap_extra_B", b"mem_stacks_B",
            b"snapshot")
    for i, line in enumerate(lines):
        key, eq, _ = line.partition(b"=")
        if not eq or key not in keys:
            continue
        r = rng.random()
        if r < 0.25:
            lines[i] = key + b"=" + rng.choice(ODD_NUMBERS)
        elif r < 0.3 and key == b"time":
            lines[i] = b"time=" + rng.choice(
                [b"%d" % rng.randint(-100, 100), b"%g" % rng.uniform(-5, 5),
                 b"%.3f" % rng.uniform(0, 1e6)])
    return lines


def render(rng, lines, damaged):
    text = b"\n".join(lines)
    if not damaged or rng.random() < 0.85:
        text += b"\n"
    if damaged and rng.random() < 0.15 and text:
        text = text[:rng.randrange(len(text))]
    return text


def write_big(path, megabytes, seed):
    """One large well-formed profile of about the given size."""
    rng = random.Random(seed)
    target = megabytes * 1024 * 1024
    with open(path, "wb") as f:
        f.write(b"desc: --time-unit=B\ncmd: ./big\ntime_unit: B\n")
        size, i, t = 0, 0, 0
        while size < target:
            heap = rand_size(rng, 36)
            kind = b"detailed" if i % 10 == 9 else b"empty"
            lines = [b"#-----------", b"snapshot=%d" % i, b"#-----------",
                     b"time=%d" % t, b"mem_heap_B=%d" % heap,
                     b"mem_heap_extra_B=%d" % rand_size(rng, 16),
                     b"mem_stacks_B=0", b"heap_tree=" + kind]
            if kind != b"empty":
                tree_lines(gen_tree(rng, heap, 8, 6, 600, plain_desc),
                           HEAP_ROOT, lines)
            chunk = b"\n".join(lines) + b"\n"
            f.write(chunk)
            size += len(chunk)
            i += 1
            t += rng.randint(1, 1 << 20)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--big-mb", type=int, default=0)
    args = ap.parse_args()
    if args.big_mb:
        write_big(args.out, args.big_mb, args.seed)
        return
    os.makedirs(args.out, exist_ok=True)
    for k in range(args.count):
        rng = random.Random(args.seed * 100003 + k)
        damaged = k % 2 == 1
        while True:
            lines = gen_valid(rng)
            if damaged:
                for _ in range(rng.choice([1, 1, 1, 2, 3])):
                    lines = damage(rng, lines)
            elif k % 4 == 2:
                lines = oddify(rng, lines)
            if graph_is_safe(lines):
                break
        with open(os.path.join(args.out, "gen-%04d.out" % k), "wb") as f:
            f.write(render(rng, lines, damaged))


if __name__ == "__main__":
    main()

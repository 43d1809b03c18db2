#!/usr/bin/env python3
"""A well-formed massif.out file with many snapshots, for the HTML page.

    gen_many.py OUT [--snapshots N] [--every K] [--seed S]

One made-up C++ program: a fixed call tree (templates, inlined chains,
"in N places" leaves) whose leaves' bytes change from snapshot to snapshot,
so every detailed snapshot shares the same frames, as a real program's do.
Every K-th snapshot is detailed, the largest one is the peak. The same seed
always gives the same file. Standard library only.
"""
import argparse
import math
import os
import random
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "ms_print"))
from gen_massif import HEAP_ROOT, tree_lines  # noqa: E402

FUNCTIONS = [
    ("std::vector<{T}, std::allocator<{T}> >::_M_realloc_insert<{T} const&>"
     "(__gnu_cxx::__normal_iterator<{T}*, std::vector<{T}, "
     "std::allocator<{T}> > >, {T} const&)", "vector.tcc"),
    ("std::_Hashtable<std::string, std::pair<std::string const, {T}>, "
     "std::allocator<std::pair<std::string const, {T}> > >::_M_rehash"
     "(unsigned long, unsigned long const&)", "hashtable.h"),
    ("std::__cxx11::basic_string<char, std::char_traits<char>, "
     "std::allocator<char> >::_M_create(unsigned long&, unsigned long)",
     "basic_string.tcc"),
    ("app::Cache<{T}>::insert(app::Key const&, {T}&&)", "cache.h"),
    ("app::Parser::parseRecord(std::basic_string_view<char, "
     "std::char_traits<char> >)", "parser.cpp"),
    ("app::Matrix<{T}>::Matrix(unsigned long, unsigned long)", "matrix.h"),
    ("app::Graph::addEdge(int, int)", "graph.cpp"),
    ("app::(anonymous namespace)::loadChunk(int)", "loader.cpp"),
    ("app::Worker::run()", "worker.cpp"),
    ("app::Pipeline::stage<{T}>(int)", "pipeline.h"),
    ("operator new(unsigned long)", None),
    ("main", "main.cpp"),
]
TYPES = ["double", "app::Node", "std::pair<int, float>", "app::Row<8>"]


def site(rng):
    """A frame text in Massif's style, without the address."""
    name, file = rng.choice(FUNCTIONS)
    name = name.replace("{T}", rng.choice(TYPES))
    if file is None:
        return "%s (in /usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30)" % name
    return "%s (%s:%d)" % (name, file, rng.randint(10, 900))


def base_tree(rng):
    """(text, weight, children): a fixed tree; leaves carry weights."""
    address = [0x401000]

    def addr():
        address[0] += rng.randint(0x10, 0x200)
        return "0x%X" % address[0]

    def node(depth):
        a = addr()
        if depth >= 2 and rng.random() < 0.12:
            return ("in %d places, all below massif's threshold (1.00%%)"
                    % rng.randint(2, 40), rng.random() * 0.3, [])
        text = "%s: %s" % (a, site(rng))
        if depth >= 7 or (depth >= 3 and rng.random() < 0.3):
            return (text, rng.random() * 3 + 0.1, [])
        if rng.random() < 0.25:
            # An inlined call: its caller has the same address.
            inner = node(depth + 1)
            caller_text = "%s: %s" % (a, site(rng))
            return (text, 0, [(caller_text, 0, [inner])])
        width = rng.choice([1, 1, 2, 2, 3, 4])
        return (text, 0, [node(depth + 1) for _ in range(width)])

    return ("root", 0, [node(1) for _ in range(6)])


def leaves(tree, out):
    text, weight, kids = tree
    if not kids:
        out.append(tree)
    for k in kids:
        leaves(k, out)


def sized(tree, sizes):
    """(bytes, text, children) with the leaves' sizes; drops empty ones."""
    text, _, kids = tree
    if not kids:
        return (sizes[id(tree)], text.encode(), [])
    parts = [sized(k, sizes) for k in kids]
    parts = [p for p in parts if p[0] > 0]
    parts.sort(key=lambda p: -p[0])
    return (sum(p[0] for p in parts), text.encode(), parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--snapshots", type=int, default=10000)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    tree = base_tree(rng)
    leaf_list = []
    leaves(tree, leaf_list)
    phases = [rng.random() * 6.28 for _ in leaf_list]
    n = args.snapshots
    times, heaps = [], []
    t = 0
    for i in range(n):
        x = i / max(1, n - 1)
        level = 40e6 * (0.3 + 0.7 * x) * (0.75 + 0.25 * math.sin(x * 37))
        heaps.append(int(level * (0.95 + 0.1 * rng.random())))
        times.append(t)
        t += rng.randint(1000, 400000)
    peak = max(range(n), key=lambda i: heaps[i])
    with open(args.out, "wb") as f:
        f.write(b"desc: --detailed-freq=%d\ncmd: ./made-up-app --input big.dat"
                b"\ntime_unit: i\n" % args.every)
        for i in range(n):
            kind = (b"peak" if i == peak else
                    b"detailed" if i % args.every == args.every - 1 else
                    b"empty")
            lines = [b"#-----------", b"snapshot=%d" % i, b"#-----------",
                     b"time=%d" % times[i], b"mem_heap_B=%d" % heaps[i],
                     b"mem_heap_extra_B=%d" % (heaps[i] // 97),
                     b"mem_stacks_B=0", b"heap_tree=" + kind]
            if kind != b"empty":
                x = i / max(1, n - 1)
                weights = [max(0.0, w[1] * (1 + math.sin(x * 11 + p)))
                           for w, p in zip(leaf_list, phases)]
                whole = sum(weights) or 1.0
                sizes, left = {}, heaps[i]
                for leaf, w in zip(leaf_list, weights):
                    part = min(left, int(heaps[i] * w / whole))
                    sizes[id(leaf)] = part
                    left -= part
                sizes[id(leaf_list[0])] += left
                bytes_, _, kids = sized(tree, sizes)
                tree_lines((bytes_, b"", kids), HEAP_ROOT, lines)
            f.write(b"\n".join(lines) + b"\n")


if __name__ == "__main__":
    main()

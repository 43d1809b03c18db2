#!/usr/bin/env python3
"""Compares a site statistics file with heaptrack's figures for the same
program: for every allocation stack both tools name the same way, the
allocation calls, the temporary allocations, the leaked bytes and the
bytes allocated in all must be equal.

usage: compare_heaptrack.py SITES HEAPTRACK_FILE

heaptrack's figures come from heaptrack_print itself, as flame-graph stack
files (--flamegraph-cost-type allocations, temporary, leaked): one line
per backtrace, its frames outermost first, each "function (file)", a
function without debug information by its address. The bytes allocated
per backtrace, which heaptrack_print does not print, are summed from the
data file's own records ('a' size and trace, '+' per allocation),
following its traces ('t') and instruction pointers ('i', with inlined
frames) up to main, as heaptrack_print does.

Both sides are keyed alike: the frames of a stack, outermost first, each
address's inline chain innermost first (heaptrack's order), as
"function (file name)", the lines left out (heaptrack's stacks have
none). The two name functions by different rules (heaptrack by DWARF,
C++ names whole and templates shortened; Massif by the symbol table,
Valgrind's alias preference, inlined code by its DWARF short name), so a
name is keyed by its last component: a symbol version (@@GLIBC_2.2.5),
glibc's internal prefix (__GI_), leading underscores, template arguments,
parameters and the scope are left out (std::vector<>::push_back(int&&)
and push_back are one). Stacks with the same key (two call sites in one
function) are summed on both sides. A stack holding a frame without a
name on either side (an address) matches nothing. Prints every matched stack with its figures,
then "N stacks matched, M differ", and the stacks only one side has.
Exit status 0 when every matched stack is equal and at least one matched.
"""
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

FRAME = re.compile(r"^\s*0x[0-9A-F]+: (.*)$")
COUNTS = re.compile(r"(\w+)=(\d+)")
METRICS = ("calls", "temporary", "leaked_bytes", "bytes")


def strip_balanced(name, open_, close):
    out, depth = [], 0
    for c in name:
        if c == open_:
            depth += 1
        elif c == close and depth:
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def base_name(name):
    """A function's name as both tools can agree on it."""
    name = re.sub(r"@.*$", "", name)
    name = strip_balanced(strip_balanced(name, "<", ">"), "(", ")")
    name = name.split("::")[-1].strip()
    if name.startswith("__GI_"):
        name = name[len("__GI_"):]
    return name.lstrip("_")


def frame_key(name, path):
    """'fn (file.c)', or 'fn ()' for a function without a source file;
    None for a frame without a name."""
    if not name or name == "???" or name.startswith("0x"):
        return None
    return "%s (%s)" % (base_name(name), os.path.basename(path or ""))


def our_frame(text):
    """'fn (file.c:10)' -> 'fn (file.c)', 'fn (in lib.so)' -> 'fn ()'."""
    m = re.match(r"^(.*) \(([^()]*):\d+\)$", text)
    if m:
        return frame_key(m.group(1), m.group(2))
    m = re.match(r"^(.*) \(in [^()]*\)$", text)
    return frame_key(m.group(1) if m else text, None)


def read_ours(path):
    sites = defaultdict(lambda: defaultdict(int))
    sites_list = []
    site = None
    with open(path) as f:
        for line in f:
            if line.startswith("site: "):
                counts = dict((k, int(v)) for k, v in COUNTS.findall(line))
                site = [counts, []]
                sites_list.append(site)
            elif site and FRAME.match(line):
                addr, _, text = line.strip().partition(": ")
                if site[1] and site[1][-1][0] == addr:
                    site[1][-1][1].append(text)  # the same inline chain
                else:
                    site[1].append((addr, [text]))
    for counts, chains in sites_list:
        names = [our_frame(t) for _, chain in reversed(chains) for t in chain]
        key = None if None in names else ";".join(names)
        for m in METRICS:
            sites[key][m] += counts[m]
    return sites


def heaptrack_print(data, cost):
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        subprocess.run(["heaptrack_print", "-f", data, "--flamegraph-cost-type",
                        cost, "-F", out.name], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lines = open(out.name).read().splitlines()
    result = defaultdict(int)
    for line in lines:
        stack, _, n = line.rpartition(" ")
        frames = [f for f in stack.rstrip(";").split(";") if f]
        keys = []
        for f in frames:
            # "fn (file)"; a function's own parameter list follows its
            # name without a space, and a file name holds no space.
            m = re.match(r"^(.*) \(([^()\s,]*)\)$", f)
            keys.append(frame_key(m.group(1), m.group(2)) if m
                        else frame_key(f, None))
        result[None if None in keys else ";".join(keys)] += int(n)
    return result


def bytes_per_stack(data):
    """Bytes allocated per stack key, from heaptrack's data file."""
    raw = subprocess.run(["zstd", "-dcq", data], check=True,
                         stdout=subprocess.PIPE).stdout.decode(errors="replace")
    strings = [None]
    ips = [None]
    traces = [None]
    infos = []
    per_trace = defaultdict(int)
    for line in raw.splitlines():
        if not line or line[0] == "#":
            continue
        tag, rest = line[0], line[2:]
        if tag == "s":
            length, _, text = rest.partition(" ")
            strings.append(text[:int(length, 16)])
        elif tag == "i":
            # ip, module, then per frame function, file and line; a
            # function without debug information has no file or line.
            words = [int(w, 16) for w in rest.split()]
            frames = [(words[k], words[k + 1] if k + 1 < len(words) else 0)
                      for k in range(2, len(words), 3)]
            ips.append(frames)
        elif tag == "t":
            ip, parent = (int(w, 16) for w in rest.split())
            traces.append((ip, parent))
        elif tag == "a":
            size, trace = (int(w, 16) for w in rest.split())
            infos.append((size, trace))
        elif tag == "+":
            size, trace = infos[int(rest, 16)]
            per_trace[trace] += size
    # Function names are mangled in the data file; heaptrack_print shows
    # them demangled.
    demangled = subprocess.run(["c++filt"], input="\n".join(
        s or "" for s in strings), stdout=subprocess.PIPE, text=True,
        check=True).stdout.split("\n")
    strings = [d if s is not None else None for s, d in zip(strings, demangled)]
    result = defaultdict(int)
    for trace, total in per_trace.items():
        chains = []  # innermost address first, each chain innermost first
        t = trace
        while t:
            ip, parent = traces[t]
            frames = ips[ip] or [(0, 0)]
            t = parent
            # heaptrack_print leaves operator new out of a trace's top.
            if not chains and strings[frames[0][0]] and \
                    strings[frames[0][0]].startswith("operator new"):
                continue
            chain = [frame_key(strings[fn], strings[fl]) for fn, fl in frames]
            chains.append(chain)
            if any(k and k.startswith("main (") for k in chain):
                break
        names = [k for chain in reversed(chains) for k in chain]
        result[None if None in names else ";".join(names)] += total
    return result


def main():
    ours_path, data = sys.argv[1], sys.argv[2]
    ours = read_ours(ours_path)
    theirs = defaultdict(lambda: defaultdict(int))
    for metric, cost in (("calls", "allocations"), ("temporary", "temporary"),
                         ("leaked_bytes", "leaked")):
        for key, n in heaptrack_print(data, cost).items():
            theirs[key][metric] += n
    for key, n in bytes_per_stack(data).items():
        theirs[key]["bytes"] += n
    matched = differ = 0
    for key in sorted(k for k in ours if k is not None):
        if key not in theirs:
            continue
        matched += 1
        a = [ours[key][m] for m in METRICS]
        b = [theirs[key][m] for m in METRICS]
        same = a == b
        differ += not same
        print("%s %s: %s" % ("equal" if same else "DIFFERS", key,
                              " ".join("%s=%d%s" % (m, x, "" if x == y else "/%d" % y)
                                       for m, x, y in zip(METRICS, a, b))))
    print("%d stacks matched, %d differ" % (matched, differ))
    for key in sorted(k for k in ours if k is not None and k not in theirs):
        print("only ours: %s (calls=%d)" % (key, ours[key]["calls"]))
    for key in sorted(k for k in theirs if k is not None and k not in ours):
        print("only heaptrack: %s (calls=%d)" % (key, theirs[key]["calls"]))
    return 0 if matched and not differ else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compares a site statistics file with heaptrack's figures for the same
program: for every allocation stack both tools see, the allocation calls,
the temporary allocations, the leaked bytes and the bytes allocated in all
must be equal.

usage: compare_heaptrack.py SITES HEAPTRACK_FILE

heaptrack's figures come from heaptrack_print itself, as flame-graph stack
files (--flamegraph-cost-type allocations, temporary, leaked): one line
per backtrace, its frames outermost first, each "function (file)", a
function without debug information by its address. The bytes allocated
per backtrace, which heaptrack_print does not print, are summed from the
data file's own records ('a' size and trace, '+' per allocation),
following its traces ('t') and instruction pointers ('i', with inlined
frames) as heaptrack_print follows them: operator new's own addresses
left out, the walk stopped at an address whose own function (the
innermost of its inline chain) is main, __libc_start_main or
__static_initialization_and_destruction_0. The calls per stack of that
walk are checked against heaptrack_print's ("keying" lines, counted as
differing), so the two heaptrack sources are known to key alike.

Our stacks are the site's addresses, innermost first, each with its
inline chain (lines with the same address; a run of one address repeated
is split into calls by the chain's period, as recursion from one call
site repeats the whole chain).

Keys. Both sides are keyed alike: the frames of a stack, outermost
first, each address's inline chain innermost first (heaptrack's order),
as "function (file name)", the lines left out (heaptrack's stacks have
none). The two name functions by different rules (heaptrack by DWARF,
C++ names whole, templates shortened, return types of templates shown;
Massif by the symbol table, Valgrind's alias preference, inlined code by
its DWARF short name), so a name is keyed by its last component: a
symbol version (@@GLIBC_2.2.5), glibc's internal prefix (__GI_), leading
underscores, template arguments, parameters, qualifiers after them
(const), a return type and the scope are left out
(bool XMLTest<>(char const*, int) and std::vector<>::push_back(int&&) const
key as XMLTest and push_back). Stacks with the same key (two call sites in
one function) are summed on both sides. The rules that follow are each
counted in the output:

- aliases: names that one address bears in a loaded library's symbol
  tables (its .dynsym and .symtab, and those of its separate debug file
  found by build id) are one function, keyed by the first of their keys
  in sort order. Massif names an out-of-line glibc frame by its exported
  symbol (_IO_file_xsputn@@GLIBC_2.2.5, fwrite), heaptrack by its DWARF
  name (_IO_new_file_xsputn, _IO_fwrite); both are at one address.
  A key that two groups claim is left as it is.
- below main: heaptrack_print stops a stack at main only when main is
  the address's own function, not when the address also holds code
  inlined into main; such stacks go on through glibc's startup (_start,
  __libc_start_main_impl, __libc_start_call_main). Those outer frames
  are dropped, from both heaptrack sources alike, as Massif drops them.
- heaptrack's limit: heaptrack records at most 64 addresses of a stack
  and skips its own two, so a walk of 62 addresses that met no stop
  function is cut at its outer end. Such a stack is compared with the sum
  of our stacks (not matched whole) whose innermost addresses, as many as
  heaptrack kept, key alike: ours cut the way heaptrack cuts.
- --depth: our stacks are cut at the profile's --depth (read from the
  desc: line of the massif.out file beside the statistics; Massif's
  default 30 when absent). A site with that many addresses may be cut and
  matches nothing: run with --depth=200 so that none is.
- unnamed: a stack holding a frame without a function name on either
  side (an address, ???) matches nothing.

Prints every matched stack with its figures (x/y where ours x differs from
heaptrack's y), then "N stacks matched, M differ", then how many stacks
only one side has, by reason, and each of them. Exit status 0 when every
matched stack is equal and at least one matched.
"""
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

FRAME = re.compile(r"^\s*(0x[0-9A-F]+): (.*)$")
COUNTS = re.compile(r"(\w+)=(\d+)")
METRICS = ("calls", "temporary", "leaked_bytes", "bytes")
# heaptrack (src/track/trace.h, libheaptrack.cpp): Trace::MAX_SIZE, less
# the two frames of its own that trace.fill(2) skips.
HEAPTRACK_MAX_ADDRESSES = 64 - 2
# heaptrack's AccumulatedTraceData::read: the walk's stop functions and
# the operator new addresses left out of a trace's top.
STOP_FUNCTIONS = ("main", "__libc_start_main",
                  "__static_initialization_and_destruction_0")
OPERATOR_NEW = ("operator new(unsigned long)", "operator new[](unsigned long)",
                "operator new(unsigned int)", "operator new[](unsigned int)")
QUALIFIERS = {"const", "volatile", "&", "&&", "noexcept"}
UNNAMED = "?"  # the key of a frame without a name

notes = defaultdict(int)  # how often each keying rule applied
aliases = {}  # key of a function name -> key of its alias group
aliased = set()  # the names keyed by an alias


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
    words = name.split()
    while len(words) > 1 and words[-1] in QUALIFIERS:
        words.pop()
    if "operator" in words:  # operator new, operator bool
        words = words[words.index("operator"):]
    else:
        words = words[-1:]  # a template's return type
    name = " ".join(words)
    if name.startswith("__GI_"):
        name = name[len("__GI_"):]
    return name.lstrip("_")


def function_key(name):
    key = base_name(name)
    if key in aliases and aliases[key] != key:
        aliased.add(key)
        return aliases[key]
    return key


def frame_key(name, path):
    """'fn (file.c)', or 'fn ()' for a function without a source file;
    UNNAMED for a frame without a name."""
    if not name or name == "???" or name.startswith("0x"):
        return UNNAMED
    return "%s (%s)" % (function_key(name), os.path.basename(path or ""))


def our_frame(text):
    """'fn (file.c:10)' -> 'fn (file.c)', 'fn (in lib.so)' -> 'fn ()'."""
    m = re.match(r"^(.*) \(([^()]*):\d+\)$", text)
    if m:
        return frame_key(m.group(1), m.group(2))
    m = re.match(r"^(.*) \(in [^()]*\)$", text)
    return frame_key(m.group(1) if m else text, None)


def split_run(lines):
    """The lines of one address repeated: the shortest period that repeats
    to the whole run is the inline chain of one call."""
    n = len(lines)
    for p in range(1, n + 1):
        if n % p == 0 and all(lines[i] == lines[i % p] for i in range(n)):
            return [lines[k:k + p] for k in range(0, n, p)]
    return [lines]


def profile_depth(sites_path):
    """--depth of the profile beside the statistics, Massif's 30 if none."""
    d, b = os.path.split(sites_path)
    if "massif.sites" in b:
        i = b.rindex("massif.sites")
        b = b[:i] + "massif.out" + b[i + len("massif.sites"):]
    elif b.endswith(".sites"):
        b = b[:-len(".sites")]
    try:
        with open(os.path.join(d, b)) as f:
            desc = f.readline()
    except OSError:
        return 30
    m = re.findall(r"--depth=(\d+)", desc)
    return int(m[-1]) if m else 30


def read_ours(path):
    """Our sites: (counts, [chain of frame keys per address, innermost
    address first])."""
    sites = []
    with open(path) as f:
        for line in f:
            if line.startswith("site: "):
                counts = dict((k, int(v)) for k, v in COUNTS.findall(line))
                sites.append((counts, []))
            elif sites and FRAME.match(line):
                addr, text = FRAME.match(line).groups()
                runs = sites[-1][1]
                if runs and runs[-1][0] == addr:
                    runs[-1][1].append(text)
                else:
                    runs.append((addr, [text]))
    result = []
    for counts, runs in sites:
        chains = [[our_frame(t) for t in chain]
                  for _, lines in runs for chain in split_run(lines)]
        result.append((counts, chains))
    return result


def chains_key(chains):
    """Innermost-first chains -> the key, outermost address first."""
    return ";".join(k for chain in reversed(chains) for k in chain)


def read_data(data):
    raw = subprocess.run(["zstd", "-dcq", data], check=True,
                         stdout=subprocess.PIPE).stdout.decode(errors="replace")
    strings = [None]
    ips = [None]
    traces = [None]
    infos = []
    modules = set()
    per_trace = defaultdict(lambda: [0, 0])  # calls, bytes
    for line in raw.splitlines():
        if not line or line[0] == "#":
            continue
        tag, rest = line[0], line[2:]
        if tag == "s":
            length, _, text = rest.partition(" ")
            strings.append(text[:int(length, 16)])
        elif tag == "i":
            # ip, module, then per frame function, file and line, the
            # innermost of the inline chain first; a function without
            # debug information has no file or line.
            words = [int(w, 16) for w in rest.split()]
            modules.add(words[1])
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
            per_trace[trace][0] += 1
            per_trace[trace][1] += size
    return strings, ips, traces, per_trace, [strings[m] for m in modules]


def demangle(names):
    out = subprocess.run(["c++filt"], input="\n".join(names),
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return out.split("\n")[:len(names)]


def debug_file(path):
    out = subprocess.run(["readelf", "-n", path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    m = re.search(r"Build ID: ([0-9a-f]{2})([0-9a-f]+)", out)
    if m:
        f = "/usr/lib/debug/.build-id/%s/%s.debug" % m.groups()
        if os.path.exists(f):
            return f
    return None


def load_aliases(modules):
    """Alias groups of the loaded modules' symbol tables."""
    claims = defaultdict(set)
    for module in modules:
        if not module or not os.path.isfile(module):
            continue
        group = defaultdict(set)
        files = [(module, "-D"), (module, None), (debug_file(module), None)]
        for path, flag in files:
            if not path:
                continue
            cmd = ["nm", "--defined-only", "-C"] + ([flag] if flag else []) + [path]
            out = subprocess.run(cmd, stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, text=True).stdout
            for line in out.splitlines():
                parts = line.split(" ", 2)
                if len(parts) == 3 and parts[1] in "TtWwi":
                    group[parts[0]].add(base_name(parts[2]))
        for keys in group.values():
            if len(keys) > 1:
                for k in keys:
                    claims[k].add(min(keys))
    for k, reps in claims.items():
        if len(reps) == 1:
            aliases[k] = next(iter(reps))
        else:
            notes["names two alias groups claim, left alone"] += 1


def walk_heaptrack(strings, ips, traces, per_trace):
    """Per trace with allocations: (key, cut, addresses kept, calls,
    bytes), walked as heaptrack_print walks it, and the below-main
    prefixes (flame-graph frames) that were dropped."""
    resolved = [None] * len(traces)  # operator new left out, as heaptrack does
    for t in range(1, len(traces)):
        ip, parent = traces[t]
        top = ips[ip][0][0] if ips[ip] else 0
        if strings[top] in OPERATOR_NEW:
            resolved[t] = resolved[parent] if parent else None
        else:
            resolved[t] = (ip, parent)
    names = demangle([s or "" for s in strings])
    keys = [[frame_key(names[fn], strings[fl]) for fn, fl in (ips[i] or [(0, 0)])]
            for i in range(len(ips))]
    keys[0] = None
    result = []
    prefixes = set()
    for trace, (calls, nbytes) in per_trace.items():
        length, t = 0, trace
        while t:
            length += 1
            t = traces[t][1]
        chains, stopped, main_at = [], False, None
        node = resolved[trace]
        while node and node[0]:
            ip, parent = node
            chains.append(keys[ip])
            if any(fn and strings[fn] == "main" for fn, _ in ips[ip]):
                if main_at is None:
                    main_at = len(chains)
            if ips[ip] and strings[ips[ip][0][0]] in STOP_FUNCTIONS:
                stopped = True
                break
            node = resolved[parent] if parent else None
        if main_at is not None and main_at < len(chains):
            prefixes.add(chains_key(chains[main_at:]))
            notes["heaptrack walks whose frames below main were dropped"] += 1
            chains = chains[:main_at]
        cut = not stopped and length >= HEAPTRACK_MAX_ADDRESSES
        result.append((chains_key(chains), cut, len(chains), calls, nbytes))
    return result, prefixes


def heaptrack_print(data, cost, prefixes):
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        subprocess.run(["heaptrack_print", "-f", data, "--flamegraph-cost-type",
                        cost, "-F", out.name], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        lines = open(out.name).read().splitlines()
    result = defaultdict(int)
    for line in lines:
        stack, _, n = line.rpartition(" ")
        keys = []
        for f in (f for f in stack.rstrip(";").split(";") if f):
            # "fn (file)"; a function's own parameter list follows its
            # name without a space, and a file name holds no space.
            m = re.match(r"^(.*) \(([^()\s,]*)\)$", f)
            keys.append(frame_key(m.group(1), m.group(2)) if m
                        else frame_key(f, None))
        key = ";".join(keys)
        for p in prefixes:
            if key.startswith(p + ";"):
                key = key[len(p) + 1:]
                break
        result[key] += int(n)
    return result


def fmt(a, b):
    return " ".join("%s=%d%s" % (m, x, "" if x == y else "/%d" % y)
                    for m, x, y in zip(METRICS, a, b))


def main():
    ours_path, data = sys.argv[1], sys.argv[2]
    depth = profile_depth(ours_path)
    strings, ips, traces, per_trace, modules = read_data(data)
    load_aliases(modules)
    walked, prefixes = walk_heaptrack(strings, ips, traces, per_trace)

    theirs = defaultdict(lambda: defaultdict(int))
    cut_at = {}  # heaptrack's cut stacks: key -> addresses kept
    walk_calls = defaultdict(int)
    for key, cut, n, calls, nbytes in walked:
        theirs[key]["bytes"] += nbytes
        walk_calls[key] += calls
        if cut:
            cut_at[key] = n
    for metric, cost in (("calls", "allocations"), ("temporary", "temporary"),
                         ("leaked_bytes", "leaked")):
        for key, n in heaptrack_print(data, cost, prefixes).items():
            theirs[key][metric] += n
    keying = sorted(k for k in set(theirs) | set(walk_calls)
                    if theirs[k]["calls"] != walk_calls[k])

    ours = read_ours(ours_path)
    whole = defaultdict(lambda: defaultdict(int))
    deep = []  # sites that may be cut at --depth
    for counts, chains in ours:
        if len(chains) >= depth:
            deep.append((counts, chains))
            continue
        for m in METRICS:
            whole[chains_key(chains)][m] += counts[m]

    matched = differ = cut_matched = 0
    lines = []
    used = set()
    for key in sorted(k for k in whole if UNNAMED not in k.split(";")):
        if key in theirs and key not in cut_at:
            used.add(key)
            a = [whole[key][m] for m in METRICS]
            b = [theirs[key][m] for m in METRICS]
            matched += 1
            differ += a != b
            lines.append("%s %s: %s" % ("equal" if a == b else "DIFFERS", key, fmt(a, b)))
    # heaptrack's cut stacks against ours cut alike.
    summed = defaultdict(lambda: defaultdict(int))
    parts = defaultdict(int)
    consumed = set()
    for counts, chains in ours:
        if len(chains) >= depth or chains_key(chains) in used:
            continue
        for key, n in cut_at.items():
            if len(chains) > n and chains_key(chains[:n]) == key:
                for m in METRICS:
                    summed[key][m] += counts[m]
                parts[key] += 1
                consumed.add(chains_key(chains))
    for key in sorted(summed):
        used.add(key)
        a = [summed[key][m] for m in METRICS]
        b = [theirs[key][m] for m in METRICS]
        matched += 1
        cut_matched += 1
        differ += a != b
        lines.append("%s %s: %s [heaptrack's stack cut, %d addresses kept; ours cut "
                     "alike, %d stack(s)]" % ("equal" if a == b else "DIFFERS", key,
                                               fmt(a, b), cut_at[key], parts[key]))
    for key in keying:
        differ += 1
        lines.append("KEYING %s: heaptrack_print calls=%d, data file calls=%d"
                     % (key, theirs[key]["calls"], walk_calls[key]))
    for line in lines:
        print(line)
    print("%d stacks matched, %d differ" % (matched, differ))
    print("%d of them cut by heaptrack (%d addresses recorded), compared with ours cut alike"
          % (cut_matched, HEAPTRACK_MAX_ADDRESSES))
    notes["names keyed by an alias"] = len(aliased)
    for note in sorted(notes):
        print("keyed: %s: %d" % (note, notes[note]))

    only_ours = []
    for key in sorted(whole):
        if key in used or key in consumed:
            continue
        why = "unnamed frame" if UNNAMED in key.split(";") else "no counterpart"
        only_ours.append((why, key, whole[key]["calls"]))
    for counts, chains in deep:
        only_ours.append(("possibly cut at --depth=%d" % depth, chains_key(chains),
                          counts["calls"]))
    only_theirs = []
    for key in sorted(theirs):
        if key in used:
            continue
        if UNNAMED in key.split(";"):
            why = "unnamed frame"
        elif key in cut_at:
            why = "cut by heaptrack, no stack of ours cut alike"
        elif not any(k.startswith("main (") for k in key.split(";")):
            why = "no main"
        else:
            why = "no counterpart"
        only_theirs.append((why, key, theirs[key]["calls"]))
    for side, rows in (("ours", only_ours), ("heaptrack", only_theirs)):
        by = defaultdict(int)
        for why, _, _ in rows:
            by[why] += 1
        print("only %s: %d stacks%s" % (side, len(rows), "".join(
            "; %d %s" % (by[w], w) for w in sorted(by))))
    for side, rows in (("ours", only_ours), ("heaptrack", only_theirs)):
        for why, key, calls in sorted(rows):
            print("only %s (%s): %s (calls=%d)" % (side, why, key, calls))
    return 0 if matched and not differ else 1


if __name__ == "__main__":
    sys.exit(main())

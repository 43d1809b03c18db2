#!/usr/bin/env python3
"""Compares the direct calls and tail jumps of every function in two builds
of the same program: the plain build (clang) and the mscc build. The pass
must not change what the optimiser decided, so each function of the plain
build must make the same direct calls, and jump to the same functions in
tail position, in both; calls into the runtime are set aside, and an
allocation function's entry point (__massif_malloc, __massif_Znwm, ...)
counts as the function it stands for (include/massif/abi.h).

usage: compare-calls.py [--objdump PATH] [--show N] PLAIN MSCC

Prints one line per function that differs and a summary; exits 1 if any
function differs, 2 on bad input."""
import argparse
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# An instruction line of objdump -d --no-show-raw-insn:
#   "  4011d6:	call   401030 <malloc@plt>"
INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s+([0-9a-f]+) <([^>]+)>")
FUNC = re.compile(r"^([0-9a-f]+) <([^>]+)>:$")


def allocEntryPoints():
    """__massif_<name> -> the function it stands for, from abi.h."""
    text = open(os.path.join(ROOT, "include", "massif", "abi.h")).read()
    return {"__massif_" + n: real
            for n, real in re.findall(r'X\((\w+), "([^"]+)"\)', text)}


def transfers(binary, objdump):
    """{function: Counter((kind, target))} for every function of binary;
    kind is "call" or "jump" (a jump to another function's start)."""
    out = subprocess.run([objdump, "-d", "--no-show-raw-insn", binary],
                         capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("compare-calls: objdump failed on %s: %s" %
                 (binary, out.stderr.strip()))
    funcs = collections.defaultdict(collections.Counter)
    current = None
    for line in out.stdout.splitlines():
        m = FUNC.match(line)
        if m:
            current = m.group(2)
            funcs[current]  # a function without transfers is still listed
            continue
        m = INSN.match(line)
        if not m or current is None:
            continue
        op, target = m.group(2), m.group(4)
        if "+" in target:
            continue  # inside a function: a branch, not a transfer
        target = target.split("@")[0]  # foo@plt
        if op.startswith("call"):
            funcs[current][("call", target)] += 1
        elif op.startswith("j") and target != current:
            funcs[current][("jump", target)] += 1
    return funcs


def normalise(counter, entries):
    """The mscc build's transfers with entry points renamed and the other
    calls into the runtime dropped."""
    result = collections.Counter()
    for (kind, target), n in counter.items():
        if target in entries:
            target = entries[target]
        elif target.startswith("__massif_"):
            continue
        result[(kind, target)] += n
    return result


def describe(diff):
    return ", ".join("%s %s x%d" % (k, t, n) for (k, t), n in sorted(diff.items()))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("plain")
    ap.add_argument("mscc")
    ap.add_argument("--objdump", default="objdump")
    ap.add_argument("--show", type=int, default=20,
                    help="functions to list when they differ (default 20)")
    a = ap.parse_args(argv)
    for path in (a.plain, a.mscc):
        if not os.path.isfile(path):
            print("compare-calls: no such file: %s" % path, file=sys.stderr)
            return 2
    entries = allocEntryPoints()
    plain = transfers(a.plain, a.objdump)
    mscc = transfers(a.mscc, a.objdump)
    missing, differ = [], []
    calls = jumps = 0
    for name, want in sorted(plain.items()):
        if "@" in name or name.startswith("."):
            continue  # a PLT stub or section: the linker's, not the compiler's
        calls += sum(n for (k, _), n in want.items() if k == "call")
        jumps += sum(n for (k, _), n in want.items() if k == "jump")
        if name not in mscc:
            missing.append(name)
            continue
        got = normalise(mscc[name], entries)
        if set(got) != set(want):
            differ.append((name, want - got, got - want))
    for name, lost, gained in differ[:a.show]:
        print("%s: plain only: %s; mscc only: %s" %
              (name, describe(lost) or "-", describe(gained) or "-"))
    for name in missing[:a.show]:
        print("%s: not in the mscc build" % name)
    print("%d functions, %d direct calls, %d tail jumps: %d differ, %d missing"
          % (len(plain), calls, jumps, len(differ), len(missing)))
    return 1 if differ or missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

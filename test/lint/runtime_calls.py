"""The native runtime's files call each other without a circle.

usage: runtime_calls.py BUILD_DIR

Reads the symbols each object file of runtime/native defines and uses
(nm), links every use to the file that defines it, and fails, naming the
calls, on any set of files that call each other round (a strongly
connected component of more than one file). The calls up into lifecycle/
that runtime/native/state/State.h declares as the event protocol's hooks
do not count: they are how the lower layers reach the top.
"""
import glob
import os
import subprocess
import sys

# State.h: what the lower layers may call of lifecycle/.
HOOKS = {
    "_ZN6massif6native12prepareEventERNS0_11ThreadStateE",
    "_ZN6massif6native17ensureInitialisedEv",
    "_ZN6massif6native20deliverPendingSignalEv",
    "_ZN6massif6native17runMonitorCommandEPKcRKNS_4SinkE",
    "_ZN6massif6native13PendingSignalE",
}


def symbols(obj, flags):
    out = subprocess.run(["nm"] + flags + [obj], capture_output=True,
                         text=True, check=True).stdout
    return [line.split() for line in out.splitlines() if line.strip()]


def main():
    build = sys.argv[1]
    pattern = os.path.join(build, "runtime", "native", "CMakeFiles",
                           "massif_native_*.dir", "**", "*.o")
    objects = [o for o in glob.glob(pattern, recursive=True)
               if "_static.dir" not in o]
    if not objects:
        sys.exit("no object files of runtime/native under " + build)
    name = {o: o.split(".dir" + os.sep, 1)[1][:-len(".o")] for o in objects}
    defined = {}
    for o in objects:
        for f in symbols(o, ["--defined-only", "-g"]):
            if len(f) >= 3 and f[1] in "TWDBRVu":
                defined.setdefault(f[2], name[o])
    calls = {name[o]: {} for o in objects}
    for o in objects:
        for f in symbols(o, ["-u"]):
            sym = f[-1]
            to = defined.get(sym)
            if to and to != name[o] and sym not in HOOKS:
                calls[name[o]].setdefault(to, []).append(sym)
    # Tarjan's strongly connected components.
    index, low, stack, on, comps, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in calls[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(calls):
        if v not in index:
            visit(v)
    if not comps:
        print("%d files of runtime/native, no circle" % len(calls))
        return 0
    for comp in comps:
        print("these files call each other round:", " ".join(comp))
        for a in comp:
            for b in comp:
                for sym in calls[a].get(b, []):
                    demangled = subprocess.run(["c++filt", sym],
                                               capture_output=True,
                                               text=True).stdout.strip()
                    print("  %s -> %s: %s" % (a, b, demangled))
    return 1


if __name__ == "__main__":
    sys.exit(main())

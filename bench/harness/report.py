"""The report: a Markdown file for people and a JSON file for tools.

Tables: the native baseline; wall-time, CPU-time and peak-RSS ratios of
every configuration against the native runs interleaved with it; ns per
malloc/free pair of the microbenchmarks; the VEX engine against Massif
with the same options; the goal of issue 35 (speed, memory, threads and
the other time units against native and the default options); and the
correctness comparison.
"""
import json
import math
import os

from . import measure

# Issue 35's goal for the default options (mscc), every figure a ratio
# of medians measured in the same rounds.
GOAL_GEOMEAN = 1.15     # wall time over native, geometric mean of the programs
GOAL_EACH = 1.3         # wall time over native, each program
GOAL_RSS = 1.3          # peak RSS over native, each program
GOAL_PAIR = 3.0         # ns per malloc/free pair over native's, micro-d0 and -d20
GOAL_T2 = 1.8           # throughput of two threads over one (micro-t2 / -t1)
GOAL_T8 = 1.5           # core-ns per pair of eight threads over one
GOAL_UNITS = 1.05       # --time-unit=B and ms over the default (as fast, 5% noise)
GOAL_STACKS = 1.5       # --stacks=yes wall time over native, each program

def _fmt(x, digits=2, suffix=""):
    if x is None:
        return "—"
    return ("%." + str(digits) + "f%s") % (x, suffix)


def _cell(pair, attr, digits=2):
    if pair is None:
        return "—"
    if pair.error:
        return "failed"
    return _fmt(pair.ratio(attr), digits, "×")


def geomean(xs):
    xs = [x for x in xs if x]
    if not xs:
        return None
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def goals(results, workloads):
    """Issue 35's goal, each part as (text, measured, target, ok or None:
    not measured in this run)."""
    def pair(w, c):
        p = results.get(w, {}).get(c)
        return p if p is not None and not p.error and p.runs else None

    def row(text, value, target, limit, digits=2, suffix="×", atLeast=False):
        met = None if value is None else (value >= limit if atLeast else value <= limit)
        rows.append((text, _fmt(value, digits, suffix), target, met))

    real = [w.name for w in workloads if w.real]
    rows = []
    wall = {w: pair(w, "mscc").ratio("wall") for w in real if pair(w, "mscc")}
    row("mscc wall time, geometric mean over the programs",
        geomean(wall.values()) if real and len(wall) == len(real) else None,
        "≤ %.2f×" % GOAL_GEOMEAN, GOAL_GEOMEAN)
    for w in real:
        row("mscc wall time, %s" % w, wall.get(w), "≤ %.1f×" % GOAL_EACH, GOAL_EACH)
    for w in real:
        p = pair(w, "mscc")
        row("mscc peak RSS, %s" % w, p.ratio("rssKB") if p else None,
            "≤ %.1f×" % GOAL_RSS, GOAL_RSS)
    for w in ("micro-d0", "micro-d20"):
        m, n = pair(w, "mscc"), pair(w, "native")
        r = (m.med("nsPerPair") / n.med("nsPerPair")
             if m and n and n.med("nsPerPair") else None)
        row("mscc ns per malloc/free pair over native's, %s" % w, r,
            "≤ %.0f×" % GOAL_PAIR, GOAL_PAIR)
    t1, t2, t8 = (pair("micro-t%d" % n, "mscc") for n in (1, 2, 8))
    ns1 = t1.med("nsPerPair") if t1 else None
    # Core-ns per pair is wall × min(threads, CPUs) / pairs, for the same
    # pairs in all: two threads' throughput over one's is 2 × ns1 / ns2
    # when both threads have a core.
    twoCores = min(2, os.cpu_count() or 1)
    r2 = twoCores * ns1 / t2.med("nsPerPair") if ns1 and t2 and t2.med("nsPerPair") else None
    row("mscc throughput, 2 threads over 1 (micro-t2 / micro-t1)", r2,
        "≥ %.1f×" % GOAL_T2, GOAL_T2, atLeast=True)
    r8 = t8.med("nsPerPair") / ns1 if ns1 and t8 else None
    row("mscc core-ns per pair, 8 threads over 1", r8, "≤ %.1f×" % GOAL_T8, GOAL_T8)
    for c, unit in (("mscc-B", "B"), ("mscc-ms", "ms")):
        for w in real:
            a, b = pair(w, c), pair(w, "mscc")
            row("--time-unit=%s wall time over the default's, %s" % (unit, w),
                a.med("wall") / b.med("wall") if a and b else None,
                "≤ %.2f×" % GOAL_UNITS, GOAL_UNITS)
    for w in real:
        p = pair(w, "mscc-stacks")
        row("mscc --stacks=yes wall time, %s" % w, p.ratio("wall") if p else None,
            "≤ %.1f×" % GOAL_STACKS, GOAL_STACKS)
    return rows


def _presentPairs(pairs, configs):
    """The pairs of configurations both of which were measured."""
    names = {c.name for c in configs}
    return [(a, b) for a, b in pairs if a in names and b in names]


def markdown(meta, workloads, configs, results, correctness):
    L = []
    L.append("# massif-native benchmark")
    L.append("")
    L.append("%s; %s; runs=%d (median), warm-up=%d, A/B alternated with native; "
             "%d CPUs; inputs: %s." % (meta["date"], meta["mode"], meta["runs"],
                                       meta["warmup"], meta["cpus"], meta["sizes"]))
    trips = meta.get("round_trip_ns") or {}
    if trips:
        L.append("")
        L.append("A cache line's round trip between the two cores "
                 "(bench/harness/roundtrip.c), before and after each workload: " +
                 ", ".join("%s %s/%s ns" % (w, _fmt(b, 0), _fmt(e, 0))
                           for w, (b, e) in trips.items()) +
                 ". On an otherwise idle machine, above about 300 ns the "
                 "cores share no cache, and every configuration with the "
                 "model's thread pays for it (docs/BENCHMARKS.md, Known "
                 "limits).")
    L.append("")
    L.append("## Native baseline")
    L.append("")
    L.append("| workload | what | wall s | CPU s | peak RSS MB | ns/pair |")
    L.append("|---|---|---:|---:|---:|---:|")
    for w in workloads:
        p = results.get(w.name, {}).get("native")
        if p is None or p.error or not p.runs:
            L.append("| %s | %s | failed | | | |" % (w.name, w.description))
            continue
        L.append("| %s | %s | %s | %s | %s | %s |" % (
            w.name, w.description, _fmt(p.med("wall"), 3), _fmt(p.med("cpu"), 3),
            _fmt(p.med("rssKB") / 1024, 1), _fmt(p.med("nsPerPair"), 1) if w.micro else ""))
    others = [c for c in configs if c.name != "native"]
    for title, attr in (("Wall time", "wall"), ("CPU time", "cpu"),
                        ("Peak RSS", "rssKB")):
        L.append("")
        L.append("## %s, ratio to native" % title)
        L.append("")
        L.append("| workload | " + " | ".join(c.name for c in others) + " |")
        L.append("|---|" + "---:|" * len(others))
        for w in workloads:
            L.append("| %s | " % w.name + " | ".join(
                _cell(results.get(w.name, {}).get(c.name), attr) for c in others) + " |")
    micro = [w for w in workloads if w.micro]
    if micro:
        L.append("")
        L.append("## Microbenchmarks, ns per malloc/free pair")
        L.append("")
        L.append("Single-threaded: wall ns per pair. Threaded: core-ns per pair (wall "
                 "time × min(threads, CPUs) / pairs), flat when threads do not serialize.")
        L.append("")
        L.append("| workload | " + " | ".join(c.name for c in configs) + " |")
        L.append("|---|" + "---:|" * len(configs))
        for w in micro:
            cells = []
            for c in configs:
                p = results.get(w.name, {}).get(c.name)
                cells.append("—" if p is None else "failed" if p.error else
                             _fmt(p.med("nsPerPair"), 1))
            L.append("| %s | " % w.name + " | ".join(cells) + " |")
        L.append("")
        L.append("CPU ns per pair (user + system time of the whole process / pairs; "
                 "start-up and exit included, steadier on a loaded machine):")
        L.append("")
        L.append("| workload | " + " | ".join(c.name for c in configs) + " |")
        L.append("|---|" + "---:|" * len(configs))
        pairs = meta.get("micro_pairs") or 0
        for w in micro:
            cells = []
            for c in configs:
                p = results.get(w.name, {}).get(c.name)
                cpu = p.med("cpu") if p is not None and not p.error else None
                cells.append("—" if p is None else "failed" if p.error else
                             _fmt(cpu * 1e9 / pairs if cpu is not None and pairs else None, 1))
            L.append("| %s | " % w.name + " | ".join(cells) + " |")
    vexPairs = _presentPairs(measure.VEX_PAIRS, configs)
    if vexPairs:
        L.append("")
        L.append("## The VEX engine against Massif, ratio of median wall times")
        L.append("")
        L.append("Below 1: `msrun --engine=vex` is faster than `valgrind --tool=massif` "
                 "with the same options on the same build; the two are measured in the "
                 "same rounds (native, Massif, VEX).")
        L.append("")
        L.append("| workload | " + " | ".join("%s / %s" % p for p in vexPairs) + " |")
        L.append("|---|" + "---:|" * len(vexPairs))
        for w in workloads:
            cells = []
            for v, m in vexPairs:
                pv, pm = results.get(w.name, {}).get(v), results.get(w.name, {}).get(m)
                ok = all(p is not None and not p.error and p.runs for p in (pv, pm))
                cells.append(_fmt(pv.med("wall") / pm.med("wall"), 2) if ok else "—")
            L.append("| %s | " % w.name + " | ".join(cells) + " |")
    muPairs = _presentPairs(measure.MEMUSAGE_PAIRS, configs)
    if muPairs:
        L.append("")
        L.append("## ms_memusage against glibc's memusage, ratio of median wall times")
        L.append("")
        L.append("Both on the native build, measured in the same rounds (native, memusage, "
                 "ms_memusage); the budget is 1.05.")
        L.append("")
        L.append("| workload | native | memusage / native | ms_memusage / native | "
                 "ms_memusage / memusage |")
        L.append("|---|---:|---:|---:|---:|")
        for w in workloads:
            for v, m in muPairs:
                pv, pm = results.get(w.name, {}).get(v), results.get(w.name, {}).get(m)
                ok = all(p is not None and not p.error and p.runs for p in (pv, pm))
                if not ok:
                    L.append("| %s | — | — | — | — |" % w.name)
                    continue
                # Each against the native runs of its own rounds.
                L.append("| %s | %.3f s | %s | %s | %s |" % (
                    w.name, pm.med("wall", "native"), _fmt(pm.ratio("wall"), 2),
                    _fmt(pv.ratio("wall"), 2), _fmt(pv.med("wall") / pm.med("wall"), 2)))
    L.append("")
    L.append("## Goal (issue 35)")
    L.append("")
    L.append("| criterion | measured | target | met |")
    L.append("|---|---:|---:|---|")
    for text, measured, target, ok in goals(results, workloads):
        L.append("| %s | %s | %s | %s |" % (text, measured, target,
                                            {True: "yes", False: "**no**", None: "n/a"}[ok]))
    if correctness:
        L.append("")
        L.append("## Correctness: mscc profile vs Massif (%s)" % correctness[0]["options"])
        L.append("")
        L.append("| workload | profile | snapshots | peak snapshot | peak heap B | "
                 "peak extra B | last time | equal |")
        L.append("|---|---|---:|---:|---:|---:|---:|---|")
        for r in correctness:
            eq = {True: "yes", False: "**no**", None: "n/a"}[r["match"]]
            for tool in ("massif", "mscc"):
                s = r.get(tool)
                if s:
                    L.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
                        r["workload"], tool, s["snapshots"], s["peak_index"],
                        s["peak_heap_B"], s["peak_extra_B"], s.get("last_time"), eq))
                else:
                    L.append("| %s | %s | failed: %s | | | | | %s |" % (
                        r["workload"], tool, r.get(tool + "_error", "?"), eq))
        for r in correctness:
            d = r.get("first_difference")
            if d:
                L.append("")
                L.append("%s: first differing snapshot %d: (time, heap B, extra B) Massif %s, "
                         "mscc %s." % (r["workload"], d["snapshot"], d["massif"], d["mscc"]))
        L.append("")
        L.append("Last time: the last snapshot's time, with --time-unit=B the bytes "
                 "allocated and freed up to it.")
        L.append("")
        L.append("Profiles kept in bench/results/profiles/.")
    if meta.get("model"):
        L.append("")
        L.append("## The model alone (issue 4's budget)")
        L.append("")
        L.append("`core-bench 10000` and `core-bench 1000000`: runtime/core's "
                 "onMalloc+onFree, the replay of Valgrind's allocator included, "
                 "without stack capture or glibc; budget 20 ns per pair and 64 "
                 "bytes per live block. With few blocks the bytes per block are "
                 "mostly fixed costs (a block-table leaf, the first node pool) "
                 "shared out; with a million, every event misses the caches.")
        L.append("")
        for line in meta["model"]:
            L.append("    " + line)
    failures = [(w.name, c.name, results[w.name][c.name].error) for w in workloads
                for c in configs if results.get(w.name, {}).get(c.name) is not None
                and results[w.name][c.name].error]
    if failures or meta.get("build_failures"):
        L.append("")
        L.append("## Failures")
        L.append("")
        for prog, variant, why in meta.get("build_failures", []):
            L.append("- build %s (%s): %s" % (prog, variant, why))
        for w, c, why in failures:
            L.append("- %s / %s: %s" % (w, c, why.replace("|", "\\|")))
    L.append("")
    L.append("Configurations: " + "; ".join("`%s` %s" % (c.name, c.description)
                                             for c in configs) + ".")
    L.append("")
    return "\n".join(L)


def toJson(meta, workloads, configs, results, correctness):
    out = {"meta": meta, "workloads": {}, "correctness": correctness,
           "goal": [{"criterion": t, "measured": m, "target": g, "met": ok}
                    for t, m, g, ok in goals(results, workloads)]}
    for w in workloads:
        row = {}
        for c in configs:
            p = results.get(w.name, {}).get(c.name)
            if p is None:
                continue
            row[c.name] = {
                "error": p.error,
                "wall_s": [r.wall for r in p.runs],
                "cpu_s": [r.cpu for r in p.runs],
                "rss_kb": [r.rssKB for r in p.runs],
                "ns_per_pair": [r.nsPerPair for r in p.runs] if w.micro else None,
                "native_wall_s": [r.wall for r in p.native],
                "native_cpu_s": [r.cpu for r in p.native],
                "native_rss_kb": [r.rssKB for r in p.native],
                "wall_ratio": None if p.error else p.ratio("wall"),
                "cpu_ratio": None if p.error else p.ratio("cpu"),
                "rss_ratio": None if p.error else p.ratio("rssKB"),
            }
        out["workloads"][w.name] = {"description": w.description, "micro": w.micro,
                                    "results": row}
    return json.dumps(out, indent=1, sort_keys=True)

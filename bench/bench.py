#!/usr/bin/env python3
"""massif-native's benchmark: overhead of the mscc build against native,
Valgrind Massif, heaptrack and memusage, and the profile side by side with
Massif's. Run it through bench/run.sh, which prepares the machine first.

Builds every workload natively (clang-19 -O2 -g -gdwarf-4) and with mscc
(-O2 -g), runs each configuration alternated with native runs, and writes
bench/results/latest.md and latest.json. A configuration whose build or run
fails is reported as failed; the others go on.
"""
import argparse
import datetime
import os
import shutil
import subprocess
import sys
import time

from harness import builds, measure, profiles, report

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)

QUICK_CONFIGS = ["native", "mscc", "massif"]
QUICK_WORKLOADS = None  # every workload, at the small sizes


def parseArgs(argv):
    ap = argparse.ArgumentParser(prog="bench/run.sh", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: small inputs, 1 run, no warm-up, configurations "
                         + ",".join(QUICK_CONFIGS) + " unless --configs is given")
    ap.add_argument("--runs", type=int, help="measured runs per configuration (default 3; "
                                             "1 with --quick)")
    ap.add_argument("--warmup", type=int, help="unrecorded A/B rounds first (default 1; "
                                               "0 with --quick)")
    ap.add_argument("--configs", help="comma-separated subset of: " +
                    ",".join(measure.CONFIG_NAMES) + "; 'all'; or 'vex' (the VEX "
                    "engine against Massif: " + ",".join(measure.VEX_CONFIG_NAMES) +
                    "); or 'memusage' (ms_memusage against glibc's memusage: " +
                    ",".join(measure.MEMUSAGE_CONFIG_NAMES) + "); default: all but "
                    "vex*, massif-B, massif-pages, ms_memusage*")
    ap.add_argument("--workloads", help="comma-separated subset of: " +
                    ",".join(w.name for w in builds.WORKLOADS))
    ap.add_argument("--no-correctness", action="store_true",
                    help="skip the side-by-side profile comparison")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per run (default 900)")
    ap.add_argument("--cache", default=os.path.join(BENCH, ".cache"),
                    help="sources, builds and inputs (default bench/.cache)")
    ap.add_argument("--out", default=os.path.join(BENCH, "results"),
                    help="where latest.md and latest.json go (default bench/results)")
    ap.add_argument("--mscc", help="the mscc driver (default: $MASSIF_BUILD_DIR/bin/mscc "
                                   "or build/bin/mscc)")
    a = ap.parse_args(argv)
    if a.runs is None:
        a.runs = 1 if a.quick else 3
    if a.warmup is None:
        a.warmup = 0 if a.quick else 1
    if a.runs < 1 or a.warmup < 0:
        ap.error("--runs must be at least 1 and --warmup at least 0")
    if a.configs in (None, "") and a.quick:
        a.configs = ",".join(QUICK_CONFIGS)
    if a.configs in (None, ""):
        a.configs = ",".join(measure.DEFAULT_CONFIG_NAMES)
    elif a.configs == "all":
        a.configs = ",".join(measure.CONFIG_NAMES)
    elif a.configs == "vex":
        a.configs = ",".join(measure.VEX_CONFIG_NAMES)
    elif a.configs == "memusage":
        a.configs = ",".join(measure.MEMUSAGE_CONFIG_NAMES)
    names = a.configs.split(",")
    bad = [n for n in names if n not in measure.CONFIG_NAMES]
    if bad:
        ap.error("unknown configuration(s): %s" % ",".join(bad))
    if "native" not in names:
        names.insert(0, "native")
    a.configList = [c for c in measure.CONFIGS if c.name in names]
    wnames = [w.name for w in builds.WORKLOADS]
    if a.workloads:
        bad = [n for n in a.workloads.split(",") if n not in wnames]
        if bad:
            ap.error("unknown workload(s): %s" % ",".join(bad))
        a.workloadList = [w for w in builds.WORKLOADS if w.name in a.workloads.split(",")]
    else:
        a.workloadList = list(builds.WORKLOADS)
    if not a.mscc:
        buildDir = os.environ.get("MASSIF_BUILD_DIR", os.path.join(ROOT, "build"))
        a.mscc = os.path.join(buildDir, "bin", "mscc")
    os.environ["MASSIF_MSRUN"] = os.path.join(os.path.dirname(os.path.abspath(a.mscc)), "msrun")
    os.environ["MASSIF_MS_MEMUSAGE"] = os.path.join(os.path.dirname(os.path.abspath(a.mscc)),
                                                    "ms_memusage")
    return a


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


# Live blocks for core-bench: a heap that stays in the caches, and one of a
# million blocks, where the model's fixed costs no longer hide the cost per
# block and every event misses the caches.
MODEL_LIVE_BLOCKS = (10000, 1000000)


def modelAlone(mscc):
    """The model's own cost (issue 4's budget): core-bench from the same
    build as mscc, at each of MODEL_LIVE_BLOCKS; its lines, or None without
    it."""
    exe = os.path.join(os.path.dirname(mscc), "core-bench")
    if not os.path.exists(exe):
        return None
    lines = []
    for n in MODEL_LIVE_BLOCKS:
        log("model alone: %s %d" % (exe, n))
        p = subprocess.run([exe, str(n)], capture_output=True, text=True)
        if p.returncode != 0:
            return None
        lines += p.stdout.strip().splitlines()
    return lines


def main(argv):
    a = parseArgs(argv)
    started = time.time()
    sizes = builds.QUICK if a.quick else builds.FULL
    ctx = builds.Context(a.cache, sizes, os.path.abspath(a.mscc), log)
    builds.prepareSources(ctx)

    variants = sorted({c.variant for c in a.configList} | {"native"})
    correctness = not a.no_correctness and any(
        w.name in ("lua", "sqlite3") for w in a.workloadList)
    if correctness and "mscc" not in variants:
        variants.append("mscc")
    # The native bzip2 always: it compresses bzip2-t's input.
    todo = sorted({(w.program, v) for w in a.workloadList for v in variants} |
                  {("bzip2", "native")})
    built = builds.buildAll(ctx, todo)
    builds.prepareInputs(ctx, built.get(("bzip2", "native"), (None,))[0])

    results = {}
    roundTrips = {}
    for w in a.workloadList:
        log("workload %s" % w.name)
        results[w.name] = {}
        before = measure.roundTripNs()
        nativeBin = built[(w.program, "native")][0]
        args = w.args(ctx)
        stdin = w.stdin(ctx) if w.stdin else None
        for group in measure.groups(a.configList):
            c = group[0]  # a group shares its variant (native)
            binary, why = built[(w.program, c.variant)]
            if nativeBin is None or binary is None:
                for g in group:
                    results[w.name][g.name] = measure.Pair(
                        error=why or built[(w.program, "native")][1])
                    log("    %-13s FAILED: %s" % (g.name, results[w.name][g.name].error))
                continue
            results[w.name].update(measure.measureRounds(
                [nativeBin] + args, [binary] + args, group, stdin, a.runs, a.warmup,
                a.timeout, log))
        roundTrips[w.name] = [before, measure.roundTripNs()]

    compared = []
    if correctness:
        log("correctness: mscc profile vs Massif, %s" % " ".join(profiles.OPTIONS))
        for w in a.workloadList:
            if w.name not in ("lua", "sqlite3"):
                continue
            nativeBin = built[(w.program, "native")][0]
            msccBin = built[(w.program, "mscc")][0]
            if nativeBin is None:
                continue
            compared.append(profiles.compare(
                w.name, nativeBin, msccBin, w.args(ctx),
                w.stdin(ctx) if w.stdin else None, os.path.join(a.out, "profiles"),
                a.timeout, log, msccWhy=built[(w.program, "mscc")][1]))

    meta = {
        "date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"),
        "mode": "quick" if a.quick else "full",
        "runs": a.runs, "warmup": a.warmup, "cpus": os.cpu_count(),
        "sizes": "lua %d rounds, SQL scale %d, JSON %g MB, text %g MB, %d pairs" % (
            sizes.luaRounds, sizes.sqlScale, sizes.jsonMB, sizes.textMB, sizes.microPairs),
        "micro_pairs": sizes.microPairs,
        "native_flags": " ".join(builds.NATIVE_FLAGS),
        "mscc_flags": " ".join(builds.MSCC_FLAGS),
        "build_failures": [(p, v, why) for (p, v), (path, why) in sorted(built.items())
                           if path is None],
        "seconds": round(time.time() - started, 1),
        "model": modelAlone(a.mscc),
        "round_trip_ns": roundTrips,
    }
    os.makedirs(a.out, exist_ok=True)
    md = report.markdown(meta, a.workloadList, a.configList, results, compared)
    with open(os.path.join(a.out, "latest.md"), "w") as f:
        f.write(md)
    with open(os.path.join(a.out, "latest.json"), "w") as f:
        f.write(report.toJson(meta, a.workloadList, a.configList, results, compared))
    print(md)
    log("done in %.0f s; wrote %s/latest.md and latest.json" % (
        time.time() - started, os.path.relpath(a.out, os.getcwd())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

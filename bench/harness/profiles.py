"""Correctness side by side: the mscc build's own profile against Massif's.

Both runs use --time-unit=B --peak-inaccuracy=0, under which the profile is
a function of the allocation sequence only: the snapshot count, the index
of the peak snapshot and the peak's heap bytes must then be equal. Massif
runs the native (clang-19 -O2 -g -gdwarf-4) build, the native profile comes
from the mscc build.
"""
import os
import shutil

from . import measure

OPTIONS = ["--time-unit=B", "--peak-inaccuracy=0"]


def summarize(path):
    """Snapshot count, peak snapshot index, peak heap and extra bytes of a
    massif.out file (None values when it has no peak snapshot)."""
    snapshots = []
    peak = None
    cur = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.strip()
            if line.startswith("time=") and cur is not None:
                cur["time"] = int(line.split("=", 1)[1])
            elif line.startswith("snapshot="):
                cur = {"index": int(line.split("=", 1)[1])}
                snapshots.append(cur)
            elif cur is not None and "=" in line and not line.startswith("n"):
                k, v = line.split("=", 1)
                if k in ("mem_heap_B", "mem_heap_extra_B", "mem_stacks_B"):
                    cur[k] = int(v)
                elif k == "heap_tree":
                    cur[k] = v
                    if v == "peak":
                        peak = cur
    return {
        "snapshots": len(snapshots),
        "peak_index": peak["index"] if peak else None,
        "peak_heap_B": peak.get("mem_heap_B") if peak else None,
        "peak_extra_B": peak.get("mem_heap_extra_B") if peak else None,
        "last_time": snapshots[-1].get("time") if snapshots else None,
        "max_heap_B": max((s.get("mem_heap_B", 0) for s in snapshots), default=None),
        "series": [(s.get("time"), s.get("mem_heap_B"), s.get("mem_heap_extra_B"))
                   for s in snapshots],
    }


def firstDifference(a, b):
    """Index of the first snapshot whose time or heap bytes differ, with
    both sides' (time, heap, extra), or None when the series agree."""
    for i, (x, y) in enumerate(zip(a["series"], b["series"])):
        if x[:2] != y[:2]:
            return {"snapshot": i, "massif": list(x), "mscc": list(y)}
    if len(a["series"]) != len(b["series"]):
        n = min(len(a["series"]), len(b["series"]))
        return {"snapshot": n, "massif": None, "mscc": None}
    return None


def _profileRun(wrapper, binary, args, env, stdinPath, timeout, dest, produced):
    """Runs `wrapper + ./NAME args` in a scratch directory, NAME being a copy
    of the binary: both builds then see the same argv[0], whose length some
    programs (lua keeps it in a heap string) would otherwise let leak into
    the heap sizes."""
    def argvFor(rundir):
        local = os.path.join(rundir, os.path.basename(binary))
        shutil.copy2(binary, local)
        return wrapper + ["./" + os.path.basename(binary)] + args

    def keep(rundir):
        shutil.copy(os.path.join(rundir, produced), dest)
    measure.runOnce(argvFor, env, stdinPath, timeout, None,
                    measure._hasFile(produced, "massif.out"), keep=keep)
    return summarize(dest)


def compare(name, nativeBin, msccBin, args, stdinPath, outDir, timeout, log,
            msccWhy=None):
    """Profiles one workload both ways; returns a result dict."""
    os.makedirs(outDir, exist_ok=True)
    res = {"workload": name, "options": " ".join(OPTIONS)}
    vgOut = os.path.join(outDir, "%s.massif.out" % name)
    msOut = os.path.join(outDir, "%s.mscc.out" % name)
    env = dict(os.environ)
    env.pop("MASSIF_OPTIONS", None)
    try:
        res["massif"] = _profileRun(
            ["valgrind", "--tool=massif"] + OPTIONS + ["--massif-out-file=massif.out.vg"],
            nativeBin, args, env, stdinPath, timeout, vgOut, "massif.out.vg")
    except measure.RunFailed as e:
        res["massif_error"] = str(e)
    if msccBin is None:
        res["mscc_error"] = msccWhy or "no mscc build"
    else:
        try:
            menv = dict(env, MASSIF_OPTIONS=" ".join(
                OPTIONS + ["--massif-out-file=massif.out.ms"]))
            res["mscc"] = _profileRun([], msccBin, args, menv, stdinPath, timeout, msOut,
                                      "massif.out.ms")
        except measure.RunFailed as e:
            res["mscc_error"] = str(e)
    if "massif" in res and "mscc" in res:
        keys = ("snapshots", "peak_index", "peak_heap_B")
        res["match"] = all(res["massif"][k] == res["mscc"][k] for k in keys)
        res["first_difference"] = firstDifference(res["massif"], res["mscc"])
    else:
        res["match"] = None
    log("  correctness %-8s %s" % (name, {True: "match", False: "MISMATCH",
                                          None: "not compared"}[res["match"]]))
    for tool in ("massif", "mscc"):
        if tool in res:
            del res[tool]["series"]  # the files are kept; the report needs no copy
    return res

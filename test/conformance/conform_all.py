#!/usr/bin/env python3
"""Runs every %conform line of the given programs, on one engine.

    conform_all.py [--engine=vex|native] [--shard=I/N] CONFORM_PY WORKDIR PROGRAM...

Each `RUN: %conform ARGS` line of each conformance program is run with
conform.py, against `valgrind --tool=massif` (see conform.py), on the
engine given:

* vex (CONFORM_ENGINE=vex): the program is built with plain clang (no
  mscc) and run with `msrun --engine=vex`, and the massif.out files must
  be equal. A line with --time-unit=B runs a second time without it, in
  instructions (Massif's default unit); for a program built with -pthread
  that second run is compared loosely (CONFORM_VEX_LOOSE, see conform.py),
  since Valgrind interleaves threads as the host schedules them.
* native: the program is built with mscc, as the conformance tests build
  it, and the ms_print reports must be equal; whatever the caller's
  environment says to the runtime (MASSIF_MODEL_THREAD=yes, say) applies.

With --shard=I/N only the I-th of N parts of the runs is made: the runs
of all the programs, in order (those in instructions last), dealt out in
turn. The N parts are N lit tests, so that a sweep runs beside the rest
of the suite rather than last and alone.

Prints one line per failing run with its differences, then
"ENGINE conformance: EQUAL of TOTAL runs equal (PROGRAMS programs)". Exit
status 0 when every run is equal.
"""
import concurrent.futures
import contextlib
import importlib.util
import io
import multiprocessing
import os
import re
import shlex
import sys
import traceback

RUN = re.compile(r"RUN:\s*%conform\s+(.*)$")


def runs(paths, engine):
    for path in sorted(paths):
        base = os.path.basename(path)
        with open(path) as f:
            for n, line in enumerate(f, 1):
                m = RUN.search(line)
                if m:
                    yield base, n, path, m.group(1)
                    if engine == "vex" and " --time-unit=B" in m.group(1):
                        unit_i = m.group(1).replace(" --time-unit=B", "")
                        yield base, f"{n}i", path, unit_i


def in_instructions(n):
    """Whether run N is the --time-unit=B line rerun in instructions."""
    return str(n).endswith("i")


# conform.py, loaded once in each worker process: hundreds of runs would
# otherwise each start an interpreter and import it (30 ms of processor
# time a run, more than many of the runs themselves).
CONFORM = None


def load(path):
    """A worker's start. What a program run by conform.py might write to
    the worker's own standard output goes to its standard error: the
    caller reads only the summary from standard output."""
    global CONFORM
    os.dup2(2, 1)
    sys.dont_write_bytecode = True  # nothing written into the source tree
    spec = importlib.util.spec_from_file_location("conform", path)
    CONFORM = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(CONFORM)


def one(engine, work, base, n, path, args):
    """Runs one %conform line as `conform.py WORDS` would run, in this
    worker: its environment, its output and its exit status."""
    tmp = os.path.join(work, f"{base}.{n}")
    words = [w.replace("%s", path).replace("%t", tmp).replace("%%", "%")
             for w in shlex.split(args)]
    saved = dict(os.environ)
    if engine == "vex":
        os.environ["CONFORM_ENGINE"] = "vex"
    if in_instructions(n) and "-pthread" in args:
        os.environ["CONFORM_VEX_LOOSE"] = "1"
    CONFORM.VEX = os.environ.get("CONFORM_ENGINE") == "vex"
    CONFORM.VEX_LOOSE = os.environ.get("CONFORM_VEX_LOOSE") == "1"
    out = io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            sys.argv = ["conform.py"] + words
            try:
                rc = CONFORM.main()
            except SystemExit as e:
                if isinstance(e.code, str):
                    print(e.code, file=sys.stderr)
                    rc = 1
                else:
                    rc = e.code or 0
            except Exception:  # a bug of conform.py: reported, not fatal
                traceback.print_exc()
                rc = 1
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return base, n, args, rc, out.getvalue()


def one_of(job):
    return one(*job)


def main():
    args = sys.argv[1:]
    engine, shard, count = "vex", 1, 1
    while args and args[0].startswith("--"):
        opt, _, value = args.pop(0).partition("=")
        if opt == "--engine":
            engine = value
        elif opt == "--shard":
            m = re.fullmatch(r"(\d+)/(\d+)", value)
            if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
                sys.exit("conform_all.py: --shard is I/N, 1 <= I <= N")
            shard, count = int(m.group(1)), int(m.group(2))
        else:
            sys.exit(f"conform_all.py: unknown option {opt}")
    if engine not in ("vex", "native"):
        sys.exit("conform_all.py: --engine is vex or native")
    conform, work = args[0], os.path.abspath(args[1])
    os.makedirs(work, exist_ok=True)
    # The runs in instructions after the others, so that each shard gets
    # its share of them (in file order every second run is one, and they
    # all fell on the even shards).
    todo = sorted(runs(args[2:], engine), key=lambda r: in_instructions(r[1]))
    todo = todo[shard - 1::count]
    failed = 0
    pool = concurrent.futures.ProcessPoolExecutor(
        max_workers=os.cpu_count() or 2,
        mp_context=multiprocessing.get_context("fork"),
        initializer=load, initargs=(conform,))
    with pool as ex:
        for base, n, argv, rc, out in ex.map(
                one_of, [(engine, work) + r for r in todo]):
            if rc != 0:
                failed += 1
                print(f"DIFFERS {base}:{n}: {argv}\n{out}")
    programs = len({r[0] for r in todo})
    print(f"{engine} conformance: {len(todo) - failed} of {len(todo)} runs equal "
          f"({programs} programs)")
    return 1 if failed or not todo else 0


if __name__ == "__main__":
    sys.exit(main())

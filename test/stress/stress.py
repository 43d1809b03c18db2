#!/usr/bin/env python3
"""The stress harness: many short runs of programs built with mscc that do
what real programs do around the runtime (Inputs/scenarios.c: threads
starting and ending while others fork, fork then _exit, exit from a thread,
exec, signals during allocation and during the profile's writing, dlclose,
a child that forks again), each under a timeout.

A run that does not end in time is a hang: the stacks of every thread of
every process it left (the program, its children, the symbolizer: all of
the run's session) go to the log through gdb, and then they are killed.
A run that ends is checked: the exit status its scenario gives, every
profile it left read by ms_print, as many profiles as it has processes, no
line of the runtime's on standard error, and no process of the run left
behind.

With --plain CLANG the same programs are built without the profiler and
only their own behaviour is checked: a control, which shows that what the
scenarios do is safe in glibc itself (a child that calls exit or dlopen
while another thread was in dlopen at the fork is not, with or without a
profiler, so no scenario does that).

The test suite runs a short form (stress.test); scripts/stress.sh runs it
for as long as it is given. Exit status 0 when every run passed, 1
otherwise; the last line sums up: runs, processes, hangs, failures.
"""
import argparse
import itertools
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Each scenario: the exit status its run must end with, and how many
# profiles a run with N children leaves (one per process, %p).
SCENARIOS = {
    "fork-exit": (0, lambda n: n + 1),
    "threads-fork": (0, lambda n: 2 * ((n + 1) // 2) + 1),
    "exit-thread": (3, lambda n: 1),
    "exec": (0, lambda n: n + 1),
    "signal-alloc": (0, lambda n: n + 1),
    "signal-write": (0, lambda n: n + 1),
    "dlclose": (0, lambda n: n + 1),
    "fork-again": (0, lambda n: 2 * n + 1),
}

# The option sets runs take in turn: Massif's default and what changes the
# runtime's paths (bytes as time, stack probes, xtree stacks of frees, the
# model's thread from the first event). Leading NAME=VALUE words go to the
# environment, the rest to MASSIF_OPTIONS.
OPTION_SETS = [
    "--time-unit=B",
    "",
    "--time-unit=B --stacks=yes",
    "--time-unit=ms --xtree-memory=full --xtree-memory-file=xt.%p",
    "MASSIF_MODEL_THREAD=yes --time-unit=B",
]


def split_option_set(words):
    """The environment's part of an option set, and MASSIF_OPTIONS."""
    env, rest = {}, words.split()
    while rest and "=" in rest[0] and not rest[0].startswith("-"):
        name, _, value = rest.pop(0).partition("=")
        env[name] = value
    return env, " ".join(rest)


def build(compiler, out_dir):
    """Compiles the scenarios and the plugin once; returns their paths."""
    prog = os.path.join(out_dir, "scenarios")
    plugin = os.path.join(out_dir, "plugin.so")
    src = os.path.join(HERE, "Inputs")
    subprocess.run([compiler, "-O1", "-g", "-pthread",
                    os.path.join(src, "scenarios.c"), "-o", prog, "-ldl"],
                   check=True)
    subprocess.run([compiler, "-O1", "-g", "-shared", "-fPIC",
                    os.path.join(src, "plugin.c"), "-o", plugin], check=True)
    return prog, plugin


def session_processes(sid):
    """The processes of session sid: (pid, state, command line)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
            with open("/proc/%s/cmdline" % name, "rb") as f:
                cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if int(fields[3]) == sid:
            found.append((int(name), fields[0], cmd.strip()))
    return found


def stacks(sid, log):
    """Every thread's stack of every process of the session, into log."""
    for pid, state, cmd in session_processes(sid):
        log.write("--- pid %d, state %s: %s\n" % (pid, state, cmd))
        log.flush()
        try:
            out = subprocess.run(
                ["gdb", "-nx", "-batch", "-p", str(pid),
                 "-ex", "set pagination off", "-ex", "info threads",
                 "-ex", "thread apply all bt"],
                capture_output=True, text=True, timeout=120).stdout
        except (OSError, subprocess.TimeoutExpired) as e:
            out = "gdb failed: %s\n" % e
        log.write(out)
    log.flush()


def kill_session(sid):
    for pid, _, _ in session_processes(sid):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass


class Stats:
    def __init__(self):
        self.lock = threading.Lock()
        self.runs = self.processes = self.hangs = self.failures = 0


def one_run(args, prog, plugin, scenario, options, index, stats, log):
    """Runs one scenario; returns a list of problems (empty: it passed)."""
    want_status, want_profiles = SCENARIOS[scenario]
    n = args.children
    work = tempfile.mkdtemp(prefix="%s-" % scenario, dir=args.work)
    extra, massif_options = split_option_set(options)
    env = dict(os.environ, MASSIF_OPTIONS=massif_options, **extra)
    cmd = [prog, scenario, str(n)] + ([plugin] if scenario == "dlclose" else [])
    problems = []
    started = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=work, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        with stats.lock:
            stats.hangs += 1
            log.write("=== HANG: run %d, %s, MASSIF_OPTIONS='%s', %s, "
                      "after %.0f s\n" % (index, scenario, options, work,
                                          time.monotonic() - started))
            stacks(proc.pid, log)
        kill_session(proc.pid)
        proc.communicate()
        return ["hung (stacks in the log)"], 0
    err = err.decode(errors="replace")
    status = proc.returncode
    if status != want_status:
        problems.append("exit status %d, want %d" % (status, want_status))
    runtime_lines = [l for l in err.splitlines() if l.startswith("massif")]
    if runtime_lines:
        problems.append("the runtime said: " + " | ".join(runtime_lines[:3]))
    if err.strip() and not runtime_lines:
        problems.append("stderr: " + err.strip().splitlines()[0])
    # The run's other processes end soon after it: the children were
    # waited for, and a symbolizer ends at the end of its input.
    deadline = time.monotonic() + 10
    while session_processes(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = session_processes(proc.pid)
    if left:
        problems.append("left behind: " + "; ".join(
            "%d %s %s" % p for p in left))
        kill_session(proc.pid)
    profiles = sorted(f for f in os.listdir(work) if f.startswith("massif.out."))
    if args.plain:
        want_profiles = lambda n: 0
    if len(profiles) != want_profiles(n):
        problems.append("%d profiles, want %d" % (len(profiles), want_profiles(n)))
    for name in profiles:
        r = subprocess.run([args.ms_print, os.path.join(work, name)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems.append("%s: ms_print: %s" % (name, r.stderr.strip()[:200]))
            break
    if not problems:
        shutil.rmtree(work, ignore_errors=True)
    return problems, len(profiles)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mscc", help="the compiler of the profiled builds")
    ap.add_argument("--plain", metavar="CLANG",
                    help="build without the profiler instead (a control; "
                         "--mscc is then ignored)")
    ap.add_argument("--ms-print", required=True)
    ap.add_argument("--work", required=True, help="directory for the runs")
    ap.add_argument("--runs", type=int, default=0,
                    help="runs in all (default: until --duration is over)")
    ap.add_argument("--duration", type=float, default=0,
                    help="seconds to keep starting runs")
    ap.add_argument("--children", type=int, default=20,
                    help="children (or rounds) per run")
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds after which a run counts as hung")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    ap.add_argument("--options", action="append",
                    help="MASSIF_OPTIONS for the runs, in turn (repeatable)")
    ap.add_argument("--log", help="where hangs' stacks and failures go")
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    if not args.runs and not args.duration:
        ap.error("give --runs or --duration")
    if not (args.mscc or args.plain):
        ap.error("give --mscc, or --plain for the control")
    scenarios = args.scenarios.split(",")
    for s in scenarios:
        if s not in SCENARIOS:
            ap.error("no scenario '%s'" % s)
    if shutil.which("gdb") is None:
        ap.error("gdb is needed for the stacks of a hung run")
    os.makedirs(args.work, exist_ok=True)
    prog, plugin = build(args.plain or args.mscc, args.work)
    log = open(args.log or os.path.join(args.work, "stress.log"), "a")
    rng = random.Random(args.seed)
    plan = itertools.cycle(
        [(s, o) for o in (args.options or OPTION_SETS) for s in scenarios])
    stats = Stats()
    end = time.monotonic() + args.duration if args.duration else None
    counter = itertools.count()
    plan_lock = threading.Lock()

    def worker():
        while True:
            with plan_lock:
                index = next(counter)
                if args.runs and index >= args.runs:
                    return
                if end and time.monotonic() >= end:
                    return
                scenario, options = next(plan)
                # A little jitter, so that concurrent runs do not keep in
                # step.
                delay = rng.random() * 0.05
            time.sleep(delay)
            problems, profiles = one_run(args, prog, plugin, scenario,
                                         options, index, stats, log)
            with stats.lock:
                stats.runs += 1
                stats.processes += profiles
                if problems:
                    if "hung (stacks in the log)" not in problems:
                        stats.failures += 1
                    line = "run %d %s MASSIF_OPTIONS='%s': %s" % (
                        index, scenario, options, "; ".join(problems))
                    print(line, flush=True)
                    log.write(line + "\n")
                    log.flush()

    threads = [threading.Thread(target=worker) for _ in range(args.jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("stress: %d runs, %d processes profiled, %d hangs, %d failures"
          % (stats.runs, stats.processes, stats.hangs, stats.failures))
    return 1 if stats.hangs or stats.failures else 0


if __name__ == "__main__":
    sys.exit(main())

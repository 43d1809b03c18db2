"""Configurations and measured runs.

A Config says which build it runs (native or mscc), how the command line is
wrapped (valgrind, heaptrack, memusage) and which environment it gets. A
run goes through the small launcher of launch.c, which forks the command
from itself and reports, from wait4, its wall time (monotonic clock around
fork and wait), its CPU time (user+system summed over the process and every
descendant it waited for, heaptrack's interpreter included) and its peak
RSS (the largest single process's maximum resident set). Forked from the
launcher, not from Python, the command does not start with the harness's
resident set as its peak. Each run gets a fresh scratch directory as its
working directory, so that profile files land there and are removed
afterwards.
"""
import atexit
import glob
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

GiB = 1 << 30


def _hasFile(pattern, what):
    def check(rundir, stderr):
        if not glob.glob(os.path.join(rundir, pattern)):
            return "no %s written" % what
        return None
    return check


def _heaptrackCheck(rundir, stderr):
    if "bad_alloc" in stderr or "terminate called" in stderr:
        return "heaptrack_interpret ran out of memory (std::bad_alloc)"
    if not glob.glob(os.path.join(rundir, "heaptrack*")):
        return "no heaptrack file written"
    return None


def _memusageCheck(rundir, stderr):
    if "Memory usage summary" not in stderr:
        return "no memusage summary printed"
    return None




@dataclass
class Config:
    name: str
    variant: str                      # "native" or "mscc"
    description: str
    wrap: Callable[[str], List[str]] = lambda rundir: []
    env: Dict[str, Optional[str]] = field(default_factory=dict)
    check: Optional[Callable[[str, str], Optional[str]]] = None
    # An address-space cap, for tools that can run away with the machine's
    # memory (shared with others).
    memCap: Optional[int] = None
    # Slow tools skip their warm-up run: at 10-50x native a run is long
    # enough that a warm cache no longer matters, and it would double the
    # harness's longest part. The native warm-up run still happens.
    slow: bool = False
    # Part of a run without --configs. The VEX engine's comparison with
    # Massif (vex*, massif-B, massif-pages) is asked for by name: it
    # triples the harness's time.
    default: bool = True


def _massifConfig(name, *options, default=True):
    """Valgrind's Massif on the native build, with the options."""
    cmd = ["valgrind", "--tool=massif"] + list(options)
    return Config(name, "native", " ".join(cmd),
                  wrap=lambda d: cmd + ["--massif-out-file=massif.out.vg"],
                  check=_hasFile("massif.out.vg", "massif.out"), slow=True,
                  default=default)


def _vexConfig(name, *options):
    """msrun --engine=vex on the native build, with the options; msrun is the
    one beside the mscc under test (bench.py sets MASSIF_MSRUN)."""
    opts = ["--engine=vex"] + list(options)
    return Config(name, "native", "msrun " + " ".join(opts),
                  wrap=lambda d: [os.environ.get("MASSIF_MSRUN", "msrun")] + opts
                  + ["--massif-out-file=massif.out.vex", "--"],
                  check=_hasFile("massif.out.vex", "massif.out"), slow=True,
                  default=False)


def _msMemusageConfig(name, variant):
    """ms_memusage on a build: on the native one its preloaded library
    counts, on the mscc one the runtime does. The ms_memusage beside the
    mscc under test (bench.py sets MASSIF_MS_MEMUSAGE)."""
    return Config(name, variant, "ms_memusage on the %s build" % variant,
                  wrap=lambda d: [os.environ.get("MASSIF_MS_MEMUSAGE", "ms_memusage")],
                  check=_memusageCheck, default=False)


CONFIGS = [
    Config("native", "native", "clang-19 -O2 -g -gdwarf-4, no profiler"),
    Config("mscc", "mscc", "mscc -O2 -g, default options",
           env={"MASSIF_OPTIONS": None}, check=_hasFile("massif.out.*", "massif.out")),
    Config("mscc-B", "mscc", "mscc, MASSIF_OPTIONS=--time-unit=B",
           env={"MASSIF_OPTIONS": "--time-unit=B"},
           check=_hasFile("massif.out.*", "massif.out")),
    Config("mscc-ms", "mscc", "mscc, MASSIF_OPTIONS=--time-unit=ms",
           env={"MASSIF_OPTIONS": "--time-unit=ms"},
           check=_hasFile("massif.out.*", "massif.out")),
    Config("mscc-stacks", "mscc", "mscc, MASSIF_OPTIONS=--stacks=yes",
           env={"MASSIF_OPTIONS": "--stacks=yes"},
           check=_hasFile("massif.out.*", "massif.out")),
    _massifConfig("massif"),
    _massifConfig("massif-stacks", "--stacks=yes"),
    _massifConfig("massif-B", "--time-unit=B", default=False),
    _massifConfig("massif-pages", "--pages-as-heap=yes", default=False),
    _vexConfig("vex"),
    _vexConfig("vex-B", "--time-unit=B"),
    _vexConfig("vex-stacks", "--stacks=yes"),
    _vexConfig("vex-pages", "--pages-as-heap=yes"),
    Config("heaptrack", "native", "heaptrack (record and interpret)",
           wrap=lambda d: ["heaptrack", "-o", os.path.join(d, "heaptrack.out")],
           check=_heaptrackCheck, memCap=6 * GiB, slow=True),
    Config("memusage", "native", "glibc memusage (LD_PRELOAD counters)",
           wrap=lambda d: ["memusage"], check=_memusageCheck),
    _msMemusageConfig("ms_memusage", "native"),
    _msMemusageConfig("ms_memusage-mscc", "mscc"),
]
CONFIG_NAMES = [c.name for c in CONFIGS]
DEFAULT_CONFIG_NAMES = [c.name for c in CONFIGS if c.default]
MEMUSAGE_CONFIG_NAMES = ["native", "memusage", "ms_memusage", "ms_memusage-mscc"]
VEX_CONFIG_NAMES = ["native", "massif", "vex", "massif-B", "vex-B", "massif-stacks",
                    "vex-stacks", "massif-pages", "vex-pages"]

NS_RE = re.compile(r"ns_per_pair=([0-9.]+)")

HERE = os.path.dirname(os.path.abspath(__file__))


_helpers = {}


def _helper(name, flags=()):
    """The helper program compiled from NAME.c in this directory on first
    use, into a temporary directory removed when the harness exits; None
    when no compiler builds it."""
    if name not in _helpers:
        where = tempfile.mkdtemp(prefix="msbench-%s-" % name)
        atexit.register(shutil.rmtree, where, ignore_errors=True)
        out = os.path.join(where, name)
        _helpers[name] = None
        for cc in ("cc", "gcc", "clang-19"):
            if shutil.which(cc) and subprocess.call(
                    [cc, "-O2", "-o", out, os.path.join(HERE, name + ".c")] +
                    list(flags)) == 0:
                _helpers[name] = out
                break
    return _helpers[name]


def launcher():
    """The launcher binary, compiled from launch.c."""
    path = _helper("launch")
    if path is None:
        raise RunFailed("cannot compile bench/harness/launch.c")
    return path


def roundTripNs():
    """How long a cache line takes between two cores and back now
    (roundtrip.c), in ns; None when it cannot be measured."""
    path = _helper("roundtrip", ["-pthread"])
    if path is None:
        return None
    try:
        out = subprocess.run([path], capture_output=True, text=True, timeout=60)
        return float(out.stdout.strip()) if out.returncode == 0 else None
    except (subprocess.SubprocessError, ValueError):
        return None


@dataclass
class Run:
    wall: float
    cpu: float
    rssKB: int
    nsPerPair: Optional[float] = None


class RunFailed(Exception):
    pass


def runOnce(argvFor, env, stdinPath, timeout, memCap, check, keep=None):
    """Runs argvFor(scratch directory) once in that directory; returns a Run
    or raises RunFailed. `keep`, if given, is called with the scratch
    directory before it is removed (to take a profile out of it)."""
    rundir = tempfile.mkdtemp(prefix="msbench-")
    try:
        with open(os.path.join(rundir, ".stdout"), "w+") as out, \
                open(os.path.join(rundir, ".stderr"), "w+") as err, \
                (open(stdinPath, "rb") if stdinPath else open(os.devnull, "rb")) as stdin:

            def preexec():
                os.setsid()
                if memCap:
                    resource.setrlimit(resource.RLIMIT_AS, (memCap, memCap))

            argv = argvFor(rundir)
            result = os.path.join(rundir, ".result")
            t0 = time.perf_counter()
            try:
                proc = subprocess.Popen([launcher(), result] + argv, cwd=rundir,
                                        env=env, stdin=stdin, stdout=out,
                                        stderr=err, preexec_fn=preexec)
            except OSError as e:
                raise RunFailed("cannot start %s: %s" % (argv[0], e))
            deadline = t0 + timeout
            while True:
                pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
                if pid:
                    break
                if time.perf_counter() > deadline:
                    os.killpg(proc.pid, signal.SIGKILL)
                    os.wait4(proc.pid, 0)
                    proc.returncode = -9
                    raise RunFailed("timed out after %ds" % timeout)
                time.sleep(0.002)
            proc.returncode = status  # reaped by wait4; keep Popen from waiting
            try:
                with open(result) as f:
                    wall, cpu, rssKB = f.read().split()
            except (OSError, ValueError):
                raise RunFailed("the launcher reported nothing: %s" % _tail(err.read()))
            out.seek(0)
            err.seek(0)
            stdoutText = out.read()
            stderrText = err.read()
        why = check(rundir, stderrText) if check else None
        if os.WIFSIGNALED(status):
            raise RunFailed("killed by signal %d: %s" % (
                os.WTERMSIG(status), why or _tail(stderrText)))
        code = os.WEXITSTATUS(status)
        if code != 0:
            raise RunFailed("exit status %d: %s" % (code, why or _tail(stderrText)))
        if why:
            raise RunFailed(why)
        if keep:
            keep(rundir)
        m = NS_RE.search(stdoutText)
        return Run(wall=float(wall), cpu=float(cpu), rssKB=int(rssKB),
                   nsPerPair=float(m.group(1)) if m else None)
    finally:
        shutil.rmtree(rundir, ignore_errors=True)


def _tail(text, n=300):
    text = " ".join(text.strip().split())
    return text[-n:] if text else "(no output)"


def envFor(config):
    env = dict(os.environ)
    env.pop("MASSIF_OPTIONS", None)
    for k, v in config.env.items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def median(xs):
    return statistics.median(xs) if xs else None


@dataclass
class Pair:
    """Measurements of one workload under one configuration, with the native
    runs that were interleaved with them."""
    native: List[Run] = field(default_factory=list)
    runs: List[Run] = field(default_factory=list)
    error: Optional[str] = None

    def ratio(self, attr):
        a = median([getattr(r, attr) for r in self.native])
        b = median([getattr(r, attr) for r in self.runs])
        if a is None or b is None or a <= 0:
            return None
        return b / a

    def med(self, attr, which="runs"):
        xs = [getattr(r, attr) for r in getattr(self, which)
              if getattr(r, attr) is not None]
        return median(xs)


def measurePair(nativeArgv, argv, config, stdinPath, runs, warmup, timeout, log):
    """Native (A) and config (B) runs alternated A/B/A/B after `warmup`
    unrecorded A/B rounds. For the native config only A runs are made."""
    return measureRounds(nativeArgv, argv, [config], stdinPath, runs, warmup,
                         timeout, log)[config.name]


def measureRounds(nativeArgv, argv, configs, stdinPath, runs, warmup, timeout, log):
    """Rounds of one native run followed by one run of each config, after
    `warmup` unrecorded rounds (slow configs skip theirs). Each config's
    Pair holds its runs and the native runs of its rounds, so configs
    measured together (Massif and the VEX engine with the same options)
    compare within the same stretch of the machine's time."""
    pairs = {c.name: Pair() for c in configs}
    nativeEnv = envFor(CONFIGS[0])
    for i in range(warmup + runs):
        tag = "warm-up" if i < warmup else "run %d" % (i - warmup + 1)
        try:
            a = runOnce(lambda d: nativeArgv, nativeEnv, stdinPath, timeout, None, None)
        except RunFailed as e:
            for p in pairs.values():
                p.error = p.error or "native run failed: %s" % e
            return pairs
        for config in configs:
            pair = pairs[config.name]
            if pair.error:
                continue
            if i >= warmup:
                pair.native.append(a)
            if config.name == "native" or (i < warmup and config.slow):
                log("    %-13s %-7s native %.3fs" % (config.name, tag, a.wall))
                continue
            try:
                b = runOnce(lambda d: config.wrap(d) + argv, envFor(config), stdinPath,
                            timeout, config.memCap, config.check)
            except RunFailed as e:
                pair.error = str(e)
                log("    %-13s %-7s FAILED: %s" % (config.name, tag, e))
                continue
            if i >= warmup:
                pair.runs.append(b)
            log("    %-13s %-7s native %.3fs, %s %.3fs" % (config.name, tag, a.wall,
                                                           config.name, b.wall))
    for config in configs:
        if config.name == "native":
            pairs[config.name].runs = list(pairs[config.name].native)
    return pairs


# The VEX engine's configurations and Massif's with the same options: each
# pair is measured in the same rounds.
VEX_PAIRS = [("vex", "massif"), ("vex-B", "massif-B"),
             ("vex-stacks", "massif-stacks"), ("vex-pages", "massif-pages")]
# ms_memusage and glibc's memusage on the same build, in the same rounds.
MEMUSAGE_PAIRS = [("ms_memusage", "memusage")]


def groups(configs):
    """The configs in measuring groups: a VEX configuration with its Massif
    partner when both are asked for, every other config alone."""
    names = {c.name: c for c in configs}
    partner = {}
    for v, m in VEX_PAIRS + MEMUSAGE_PAIRS:
        if v in names and m in names:
            partner[v], partner[m] = m, v
    out, done = [], set()
    for c in configs:
        if c.name in done:
            continue
        group = [c] + ([names[partner[c.name]]] if c.name in partner else [])
        done.update(g.name for g in group)
        out.append(group)
    return out

"""Workload programs: how each is built (natively and with mscc) and its inputs.

A Program is something compiled from sources: a Debian source package
fetched by setup.sh into CACHE/src, or a file of bench/. A Workload is a
program plus a command line (and maybe standard input). Builds and inputs
are cached in CACHE and redone only when what they depend on changes: the
command line, the sources' sizes and times, and for mscc builds the
driver, plugin and runtime files.
"""
import concurrent.futures
import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass, field
from typing import Callable, List, Optional

BENCH = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(BENCH)

# Flags of the two builds. The native build is what valgrind, heaptrack and
# memusage run, so it carries DWARF 4 (valgrind 3.19 reads no DWARF 5).
NATIVE_FLAGS = ["-O2", "-g", "-gdwarf-4"]
MSCC_FLAGS = ["-O2", "-g"]


@dataclass
class Sizes:
    """Input sizes; --quick picks the small set."""
    luaRounds: int
    sqlScale: int
    jsonMB: float
    textMB: float
    microPairs: int


FULL = Sizes(luaRounds=12, sqlScale=4, jsonMB=8, textMB=24, microPairs=4_000_000)
QUICK = Sizes(luaRounds=3, sqlScale=1, jsonMB=1, textMB=4, microPairs=1_000_000)


@dataclass
class Program:
    name: str
    cxx: bool
    sources: Callable[["Context"], List[str]]
    flags: Callable[["Context"], List[str]] = lambda ctx: []
    libs: List[str] = field(default_factory=list)


@dataclass
class Workload:
    name: str
    program: str
    args: Callable[["Context"], List[str]]
    stdin: Optional[Callable[["Context"], str]] = None
    micro: bool = False
    # The four real programs: the speed goal's geometric mean is over these.
    real: bool = False
    description: str = ""


class Context:
    """Paths and sizes shared by the build and run steps."""

    def __init__(self, cache, sizes, mscc, log):
        self.cache = os.path.abspath(cache)
        self.sizes = sizes
        self.mscc = mscc
        self.log = log
        self.inputs = {}

    def srcDir(self, package):
        with open(os.path.join(self.cache, "src", package + ".dir")) as f:
            return os.path.join(self.cache, "src", f.read().strip())

    def gen(self, *parts):
        return os.path.join(self.cache, "gen", *parts)


def _luaSources(ctx):
    src = os.path.join(ctx.srcDir("lua5.4"), "src")
    return sorted(os.path.join(src, f) for f in os.listdir(src)
                  if f.endswith(".c") and f not in ("luac.c", "onelua.c"))


def _luaFlags(ctx):
    # Debian's luaconf.h includes a header its rules generate; the string
    # hash seed is fixed so that runs and builds allocate identically.
    return ["-I" + ctx.gen("lua"), "-DLUA_COMPAT_5_3", "-DLUA_USE_LINUX",
            "-Dluai_makeseed(L)=0x2545F491u"]


def _jsonSources(ctx):
    src = os.path.join(ctx.srcDir("libjsoncpp"), "src", "lib_json")
    return sorted(os.path.join(src, f) for f in os.listdir(src)
                  if f.endswith(".cpp")) + [os.path.join(BENCH, "workloads", "jsonbench.cpp")]


def _bzip2Sources(ctx):
    src = ctx.srcDir("bzip2")
    return [os.path.join(src, f + ".c") for f in
            ("blocksort", "huffman", "crctable", "randtable", "compress",
             "decompress", "bzlib", "bzip2")]


PROGRAMS = {p.name: p for p in [
    Program("lua", False, _luaSources, _luaFlags, ["-lm", "-ldl"]),
    Program("sqlite3", False,
            lambda ctx: [ctx.gen("sqlite", "shell.c"), ctx.gen("sqlite", "sqlite3.c")],
            lambda ctx: ["-I" + ctx.gen("sqlite")], ["-lpthread", "-ldl", "-lm"]),
    Program("jsonbench", True, _jsonSources,
            lambda ctx: ["-I" + os.path.join(ctx.srcDir("libjsoncpp"), "include")]),
    Program("bzip2", False, _bzip2Sources, lambda ctx: ["-D_FILE_OFFSET_BITS=64"]),
    # tinyxml2's own test program: built for bench/calls.py, not timed.
    Program("xmltest", True,
            lambda ctx: [os.path.join(ctx.srcDir("tinyxml2"), f)
                         for f in ("xmltest.cpp", "tinyxml2.cpp")]),
    Program("pairs", False, lambda ctx: [os.path.join(BENCH, "micro", "pairs.c")]),
    Program("threads", False, lambda ctx: [os.path.join(BENCH, "micro", "threads.c")],
            lambda ctx: ["-pthread"], ["-lpthread"]),
]}

WORKLOADS = [
    Workload("lua", "lua", lambda ctx: [os.path.join(BENCH, "workloads", "alloc.lua"),
                                        str(ctx.sizes.luaRounds)],
             real=True, description="lua5.4 running bench/workloads/alloc.lua"),
    Workload("sqlite3", "sqlite3", lambda ctx: ["-init", "/dev/null", ":memory:"],
             stdin=lambda ctx: ctx.inputs["sql"], real=True,
             description="sqlite3 shell, generated SQL script on :memory:"),
    Workload("jsoncpp", "jsonbench", lambda ctx: [ctx.inputs["json"], "1"], real=True,
             description="jsoncpp parse/walk/regroup/write/parse of generated JSON"),
    Workload("bzip2-t", "bzip2", lambda ctx: ["-t", ctx.inputs["bz2"]], real=True,
             description="bzip2 -t of a generated .bz2 (low-allocation control)"),
    Workload("micro-d0", "pairs", lambda ctx: ["0", str(ctx.sizes.microPairs)], micro=True,
             description="malloc/free pairs at call depth 0"),
    Workload("micro-d20", "pairs", lambda ctx: ["20", str(ctx.sizes.microPairs)], micro=True,
             description="malloc/free pairs at call depth 20"),
    Workload("micro-t1", "threads", lambda ctx: ["1", str(ctx.sizes.microPairs)], micro=True,
             description="malloc/free pairs, 1 thread"),
    Workload("micro-t2", "threads", lambda ctx: ["2", str(ctx.sizes.microPairs)], micro=True,
             description="malloc/free pairs shared by 2 threads"),
    Workload("micro-t8", "threads", lambda ctx: ["8", str(ctx.sizes.microPairs)], micro=True,
             description="malloc/free pairs shared by 8 threads"),
]


def _stamp(parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(str(p).encode())
        h.update(b"\0")
    return h.hexdigest()


def _fileState(path):
    try:
        st = os.stat(path)
        return "%s:%d:%d" % (path, st.st_size, st.st_mtime_ns)
    except OSError:
        return path + ":missing"


def _msccState(mscc):
    """What an mscc build depends on besides the sources: the driver and
    everything in the build's lib/ directory (plugin, runtime archives)."""
    real = os.path.realpath(mscc)
    lib = os.path.join(os.path.dirname(os.path.dirname(real)), "lib")
    files = [real]
    if os.path.isdir(lib):
        files += [os.path.join(lib, f) for f in sorted(os.listdir(lib))]
    return [_fileState(f) for f in files]


def _run(cmd, log, cwd=None, stdout=None):
    with open(log, "a") as lf:
        lf.write("$ " + " ".join(cmd) + "\n")
        lf.flush()
        r = subprocess.run(cmd, cwd=cwd, stdout=stdout or lf, stderr=lf)
    return r.returncode == 0


def prepareSources(ctx):
    """Generated source files: Debian's lua header, sqlite's amalgamation."""
    os.makedirs(ctx.gen("lua"), exist_ok=True)
    header = ctx.gen("lua", "lua5.4-deb-multiarch.h")
    if not os.path.exists(header):
        arch = subprocess.run(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"],
                              capture_output=True, text=True).stdout.strip()
        with open(header, "w") as f:
            f.write('#define DEB_HOST_MULTIARCH "%s"\n' % (arch or "x86_64-linux-gnu"))
    sq = ctx.gen("sqlite")
    if not (os.path.exists(os.path.join(sq, "sqlite3.c")) and
            os.path.exists(os.path.join(sq, "shell.c"))):
        # The Debian package holds sqlite's canonical sources; its own
        # makefile generates the amalgamation (needs tclsh), once.
        ctx.log("generating the sqlite amalgamation (sqlite3.c, shell.c)")
        os.makedirs(sq, exist_ok=True)
        log = os.path.join(sq, "generate.log")
        env = dict(os.environ, CC="clang-19")
        with open(log, "w") as lf:
            ok = subprocess.run([os.path.join(ctx.srcDir("sqlite3"), "configure"),
                                 "--disable-tcl"], cwd=sq, env=env, stdout=lf,
                                stderr=lf).returncode == 0
            ok = ok and subprocess.run(["make", "-j2", "sqlite3.c", "shell.c"], cwd=sq,
                                       env=env, stdout=lf, stderr=lf).returncode == 0
        if not ok:
            raise RuntimeError("sqlite amalgamation failed; see " + log)


def prepareInputs(ctx, nativeBzip2):
    """Generates the inputs (cached by size) and records their paths."""
    gen = os.path.join(BENCH, "workloads", "gen_inputs.py")
    d = os.path.join(ctx.cache, "inputs")
    os.makedirs(d, exist_ok=True)
    s = ctx.sizes
    want = {"sql": ("sql", "bench-%d.sql" % s.sqlScale, s.sqlScale),
            "json": ("json", "bench-%g.json" % s.jsonMB, s.jsonMB),
            "text": ("text", "bench-%g.txt" % s.textMB, s.textMB)}
    for key, (kind, name, size) in want.items():
        path = os.path.join(d, name)
        if not os.path.exists(path):
            ctx.log("generating %s" % name)
            subprocess.run([sys.executable, gen, kind, path + ".tmp", str(size)], check=True)
            os.replace(path + ".tmp", path)
        ctx.inputs[key] = path
    bz2 = ctx.inputs["text"] + ".bz2"
    if not os.path.exists(bz2) and nativeBzip2:
        with open(bz2 + ".tmp", "wb") as out:
            subprocess.run([nativeBzip2, "-9", "-c", ctx.inputs["text"]], stdout=out,
                           check=True)
        os.replace(bz2 + ".tmp", bz2)
    ctx.inputs["bz2"] = bz2


def _compileCommand(ctx, prog, variant, out):
    if variant == "native":
        cc = "clang++-19" if prog.cxx else "clang-19"
        flags = NATIVE_FLAGS
    else:
        cc = ctx.mscc[:-len("mscc")] + "mscxx" if prog.cxx else ctx.mscc
        flags = MSCC_FLAGS
    return [cc] + flags + ["-w"] + prog.flags(ctx) + prog.sources(ctx) + ["-o", out] + prog.libs


def buildOne(ctx, prog, variant):
    """Builds one program in one variant. Returns (binary path, None) or
    (None, reason)."""
    outDir = os.path.join(ctx.cache, "build", variant)
    os.makedirs(outDir, exist_ok=True)
    out = os.path.join(outDir, prog.name)
    log = out + ".log"
    if variant == "mscc" and not (ctx.mscc and os.access(ctx.mscc, os.X_OK)):
        return None, "mscc not found (build the project: scripts/build.sh)"
    try:
        cmd = _compileCommand(ctx, prog, variant, out)
    except OSError as e:
        return None, "sources missing: %s" % e
    state = [cmd] + [_fileState(s) for s in prog.sources(ctx)]
    if variant == "mscc":
        state += _msccState(ctx.mscc)
    stamp = _stamp(state)
    stampFile = out + ".stamp"
    failedFile = out + ".failed"
    failed = "build failed (see %s)" % os.path.relpath(log, ROOT)
    if os.path.exists(out) and os.path.exists(stampFile) and \
            open(stampFile).read() == stamp:
        return out, None
    # A failure is remembered under the same stamp: with nothing changed
    # the compiler would fail again (and sqlite3.c takes a minute).
    if os.path.exists(failedFile) and os.path.exists(log) and \
            open(failedFile).read() == stamp:
        return None, failed
    for f in (out, stampFile, log, failedFile):
        if os.path.exists(f):
            os.remove(f)
    if not _run(cmd, log):
        with open(failedFile, "w") as f:
            f.write(stamp)
        return None, failed
    with open(stampFile, "w") as f:
        f.write(stamp)
    return out, None


def buildAll(ctx, todo, jobs=2):
    """Builds each (program, variant) of `todo`, `jobs` compilers at a time.
    Returns {(program, variant): (path or None, reason or None)}."""
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futures = {ex.submit(buildOne, ctx, PROGRAMS[n], v): (n, v) for n, v in todo}
        for fut in concurrent.futures.as_completed(futures):
            n, v = futures[fut]
            try:
                results[(n, v)] = fut.result()
            except Exception as e:  # a broken tree must not stop the others
                results[(n, v)] = (None, "build error: %s" % e)
            path, why = results[(n, v)]
            ctx.log("build %-9s %-6s %s" % (n, v, "ok" if path else why))
    return results

"""Reference runs under Valgrind's Massif, made once per suite run
(store.py).

    reference(store, valgrind, options, prog, args=(), env_extra=None,
              companions=())
        -> Run(returncode, stdout, stderr, cwd, files, companions)
    engine_dir(store) -> a directory for the other side of the comparison

runs `VALGRIND OPTIONS ./prog ARGS` in a new directory .../msref-XXXXXXXX/massif
of the temporary directory (a path whose length does not depend on where
the tree is), where PROG is linked as ./prog and each of COMPANIONS (names
of files beside PROG: the libraries it finds through $ORIGIN) beside it,
with standard input from /dev/null and no core files, and keeps its exit
status (a signal as -N), stdout and stderr (as text, undecodable bytes
replaced) and every file it wrote, moved to the entry's directory
runs/<key>/massif. Run.cwd is the directory the run had, which the caller
masks where it would mask its own; Run.files is where its files are now
(copy_files copies them).

The key holds everything the run can see:

* the valgrind command's digest, and those of Valgrind's installed files
  (its launcher and every file of its libexec directory: tools, preloads,
  suppressions);
* the program's digest, its companions' names and digests, and the
  digests of the libraries it loads (ldd);
* the options and the program's arguments;
* the environment (program_env, then ENV_EXTRA; lit's temporary
  directories by the length of their paths), which Valgrind passes on to
  the program: the program's instruction counts and stack depend on it;
* the installed packages (store.system_digest: the C library and its
  debug files, which give Valgrind its names);
* the length of the working directory's path, which the valgrind
  script's shell puts on the program's stack as PWD.

A key holds no path of the tree itself and nothing of the caller's shell
(the programs are built with their source paths mapped, builds.py; they
get a fixed PATH; lit's temporary directories enter by their length), so
the same run in another clone has the same key, and a run the suite's
record holds (record.py: Valgrind's results for the suite's own programs)
is restored from it instead of being made again. With
SUITE_CACHE_VERIFY_RECORD=1 a recorded run is also made live and must
give the same results (its key is then appended to the file
SUITE_CACHE_VERIFY_LOG names, if any).

The engine compared with the reference runs in engine_dir(): a new
directory whose path is as long as the reference's working directory (the
wrapper script's shell puts that path on the program's stack, as PWD), and
with the same environment, so that instruction counts and stack sizes can
be compared.
"""
import collections
import os
import resource
import shutil
import subprocess
import tempfile

import record
import store as st

Run = collections.namedtuple("Run", "returncode stdout stderr cwd files companions")

# Variables whose values name lit's temporary directory for this lit run:
# a key holds their lengths.
TEMPORARY_VARIABLES = ("TMP", "TEMP", "TMPDIR", "TEMPDIR")

VALGRIND_LIBEXEC = ("/usr/libexec/valgrind", "/usr/lib/x86_64-linux-gnu/valgrind",
                    "/usr/lib/valgrind", "/usr/local/libexec/valgrind")


def _no_core():
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def _libraries(store, prog, env):
    """Digests of the shared libraries PROG loads, found by ldd once per
    program."""
    k = st.key({"ldd": st.file_digest(store, prog), "env": env})

    def fill(d):
        p = subprocess.run(["ldd", prog], env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, errors="replace")
        paths = []
        for line in p.stdout.splitlines():
            words = line.split()
            if "=>" in words and words.index("=>") + 1 < len(words):
                paths.append(words[words.index("=>") + 1])
            elif words and words[0].startswith("/"):
                paths.append(words[0])
        return {"libraries": st.tree_digests(store, [p for p in paths if p.startswith("/")])}, None

    return st.make(store, "ldd", k, fill)[0]["libraries"]


def _valgrind_files(store, valgrind, env):
    launcher = shutil.which(valgrind, path=env.get("PATH")) or valgrind
    files = [launcher]
    if os.path.exists(launcher + ".bin"):
        files.append(launcher + ".bin")
    return st.tree_digests(store, files + [d for d in VALGRIND_LIBEXEC if os.path.isdir(d)])


# What a program under test gets for PATH: the harnesses call the tools by
# their paths, and a caller's PATH (or lit's, with the tree's bin
# directory first) would make every run's key that caller's.
PROGRAM_PATH = "/usr/local/bin:/usr/bin:/bin"
# Variables lit passes on from its caller that say nothing to the programs
# under test but differ from one shell to the next.
CALLER_VARIABLES = ("TERM", "LIBRARY_PATH", "SSH_AUTH_SOCK", "SOURCE_DATE_EPOCH",
                    "FILECHECK_OPTS", "GTEST_FILTER")


def program_env(env_extra=None):
    """The environment both sides of a comparison give the program: the
    caller's, the harnesses' own variables and those of CALLER_VARIABLES
    left out, with PROGRAM_PATH for PATH."""
    env = {k: v for k, v in st.program_env().items() if k not in CALLER_VARIABLES}
    env["PATH"] = PROGRAM_PATH
    env.update(env_extra or {})
    return env


def _key_env(env):
    """ENV as a key holds it: lit's temporary directories by length."""
    return {k: ("<%d characters>" % len(v) if k in TEMPORARY_VARIABLES else v)
            for k, v in env.items()}


def _run_dir(leaf):
    """A new directory .../msref-XXXXXXXX/LEAF in the temporary directory:
    the reference runs and the engines compared with them run in paths of
    one length."""
    d = os.path.join(tempfile.mkdtemp(prefix="msref-"), leaf)
    os.makedirs(d)
    return d


def _live(valgrind, options, prog, beside, args, env):
    """Runs the reference in a new directory: (data, directory)."""
    cwd = _run_dir("massif")
    link(prog, os.path.join(cwd, "prog"))
    for n, f in beside.items():
        link(f, os.path.join(cwd, n))
    p = subprocess.run([valgrind] + list(options) + ["./prog"] + list(args),
                       cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       preexec_fn=_no_core)
    return {"returncode": p.returncode,
            "stdout": p.stdout.decode("utf-8", "replace"),
            "stderr": p.stderr.decode("utf-8", "replace"),
            "cwd": cwd, "companions": sorted(beside)}, cwd


def link(src, dest):
    """Links SRC as DEST, or copies it (another file system)."""
    try:
        os.link(src, dest)
    except OSError:
        shutil.copy2(src, dest)


def reference(store, valgrind, options, prog, args=(), env_extra=None,
              companions=()):
    env = program_env(env_extra)
    prog = os.path.abspath(prog)
    beside = {n: os.path.join(os.path.dirname(prog), n) for n in companions}
    k = st.key({
        "valgrind": [valgrind, _valgrind_files(store, valgrind, env)],
        "options": list(options),
        "program": st.file_digest(store, prog),
        "companions": {n: st.file_digest(store, f) for n, f in beside.items()},
        "libraries": _libraries(store, prog, env),
        "args": list(args),
        "env": _key_env(env),
        "stdin": "/dev/null",
        "system": st.system_digest(store),
        "cwd": len(os.path.join(tempfile.gettempdir(), "msref-XXXXXXXX", "massif")),
    })
    recorded = record.lookup(store, k)
    if recorded and os.environ.get("SUITE_CACHE_VERIFY_RECORD") == "1":
        data, cwd = _live(valgrind, options, prog, beside, args, env)
        record.verify(k, recorded, data, cwd, skip=("prog",) + tuple(companions))
        shutil.rmtree(os.path.dirname(cwd))
        log = os.environ.get("SUITE_CACHE_VERIFY_LOG")
        if log:
            with open(log, "a") as f:
                f.write(k + "\n")

    def fill(d):
        if recorded:
            record.restore(recorded, os.path.join(d, "massif"))
            return recorded["data"], None
        data, cwd = _live(valgrind, options, prog, beside, args, env)
        shutil.move(cwd, os.path.join(d, "massif"))
        os.rmdir(os.path.dirname(cwd))
        return data, None

    data, _ = st.make(store, "runs", k, fill)
    return Run(data["returncode"], data["stdout"], data["stderr"], data["cwd"],
               os.path.join(st.entry_dir(store, "runs", k), "massif"),
               tuple(companions))


def copy_files(run, dest):
    """Copies what the reference run wrote (all but ./prog and its
    companions) into DEST."""
    st.copy_into(run.files, dest, skip=("prog",) + run.companions)


def engine_dir(store):
    """A new directory for the engine compared with a reference run, its
    path as long as the reference's (the working directory is on the
    program's stack). The caller removes it and its parent."""
    del store
    return _run_dir("native")

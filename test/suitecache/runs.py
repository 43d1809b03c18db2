"""Reference runs under Valgrind's Massif, made once per suite run
(store.py).

    reference(store, valgrind, options, prog, args=(), env_extra=None,
              companions=())
        -> Run(returncode, stdout, stderr, cwd)
    engine_dir(store) -> a directory for the other side of the comparison

runs `VALGRIND OPTIONS ./prog ARGS` in the entry's directory runs/<key>/massif,
where PROG is linked as ./prog and each of COMPANIONS (names of files
beside PROG: the libraries it finds through $ORIGIN) beside it, with standard input from /dev/null and no
core files, and keeps its exit status (a signal as -N), stdout and stderr
(as text, undecodable bytes replaced) and every file it wrote. Run.cwd is that directory: the caller masks it where
it would mask its own, and copies the files it wants (copy_files).

The key holds everything the run can see:

* the valgrind command's digest, and those of Valgrind's installed files
  (its launcher and every file of its libexec directory: tools, preloads,
  suppressions);
* the program's digest, its companions' names and digests, and the
  digests of the libraries it loads (ldd);
* the options and the program's arguments;
* the environment (store.program_env, then ENV_EXTRA), which Valgrind
  passes on to the program: the program's instruction counts and stack
  depend on it, as on the working directory, which comes from the key;
* the installed packages (store.system_digest: the C library and its
  debug files, which give Valgrind its names).

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

import store as st

Run = collections.namedtuple("Run", "returncode stdout stderr cwd companions")

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


def program_env(env_extra=None):
    """The environment both sides of a comparison give the program."""
    env = st.program_env()
    env.update(env_extra or {})
    return env


def _link(src, dest):
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
        "env": env,
        "stdin": "/dev/null",
        "system": st.system_digest(store),
    })

    def fill(d):
        cwd = os.path.join(d, "massif")
        os.makedirs(cwd)
        _link(prog, os.path.join(cwd, "prog"))
        for n, f in beside.items():
            _link(f, os.path.join(cwd, n))
        p = subprocess.run([valgrind] + list(options) + ["./prog"] + list(args),
                           cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           preexec_fn=_no_core)
        return {"returncode": p.returncode,
                "stdout": p.stdout.decode("utf-8", "replace"),
                "stderr": p.stderr.decode("utf-8", "replace")}, None

    data, _ = st.make(store, "runs", k, fill)
    return Run(data["returncode"], data["stdout"], data["stderr"],
               os.path.join(st.entry_dir(store, "runs", k), "massif"),
               tuple(companions))


def copy_files(run, dest):
    """Copies what the reference run wrote (all but ./prog and its
    companions) into DEST."""
    st.copy_into(run.cwd, dest, skip=("prog",) + run.companions)


def engine_dir(store):
    return st.scratch_dir(store, "runs", "native")

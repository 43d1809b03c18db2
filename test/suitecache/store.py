"""The store behind the suite's shared caches (builds.py, runs.py).

One lit run of the suite builds the same test programs and runs Valgrind's
Massif on them with the same options in several tests: the conformance
programs, then the same programs again with the model's thread, on the VEX
engine, in the xtree tests. The caches let the first test that needs a
build or a reference run make it, and every later one reuse it.

    <root>/                  SUITE_CACHE_DIR (lit.cfg.py: <exec root>/.suite-cache,
      digests/<id>             emptied at the start of every lit run)
      builds/<key>/            one built program: prog, entry.json
      runs/<key>/massif/       one reference run's files (runs.py);
      runs/<key>/entry.json      its exit status, stdout and stderr
      record/<key>.json        the recorded runs (record.py)

An entry is made under an exclusive lock on <key>.lock and published by
renaming its entry.json into place last: a reader that finds entry.json
finds a whole entry, and parallel lit workers that want the same entry wait
for the first. The key is a SHA-256 of everything that makes the result:
see builds.py and runs.py. A file's contents enter a key through its
digest, kept in digests/ under the file's identity (path, device, inode,
size, modification and change times), so a file rebuilt or replaced gets a
new digest while a big one (clang, Valgrind's tools) is read once per run.

Without SUITE_CACHE_DIR (a harness run by hand) each caller gets a private
store in its own work directory: the same code, nothing shared.
"""
import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import uuid

ROOT_VARIABLE = "SUITE_CACHE_DIR"

# The harnesses' own variables, and the shell's, which say where and how a
# program was started (the working directory, the command): a program under
# test, and a compiler, get the caller's environment without them, so that
# every test that runs the same program gives it the same environment.
HARNESS_PREFIXES = ("CONFORM_", "XT_", "VGCMD_", "SUITE_CACHE_", "MASSIF_")
SHELL_VARIABLES = ("_", "OLDPWD", "PWD", "SHLVL")


def root(fallback):
    """The shared store, or a private one under FALLBACK."""
    path = os.environ.get(ROOT_VARIABLE) or os.path.join(fallback, ".suite-cache")
    os.makedirs(path, exist_ok=True)
    return path


def program_env(environ=None):
    """The environment a program under test (or a compiler) is given."""
    environ = os.environ if environ is None else environ
    return {k: v for k, v in environ.items()
            if k not in SHELL_VARIABLES and not k.startswith(HARNESS_PREFIXES)}


def key(parts):
    """The key of an entry: a digest of PARTS (JSON data)."""
    text = json.dumps(parts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def file_digest(store, path):
    """SHA-256 of a file's contents, read once per identity of the file."""
    real = os.path.realpath(path)
    st = os.stat(real)
    ident = f"{real}\0{st.st_dev}\0{st.st_ino}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ctime_ns}"
    memo = os.path.join(store, "digests", hashlib.sha1(ident.encode()).hexdigest())
    try:
        with open(memo) as f:
            return f.read()
    except FileNotFoundError:
        pass
    h = hashlib.sha256()
    with open(real, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    digest = h.hexdigest()
    os.makedirs(os.path.dirname(memo), exist_ok=True)
    tmp = f"{memo}.{uuid.uuid4().hex}"
    with open(tmp, "w") as f:
        f.write(digest)
    os.replace(tmp, memo)
    return digest


def tree_digests(store, paths):
    """{path: digest} of the given files and of every file under the given
    directories (symbolic links followed; missing paths are named so)."""
    out = {}
    for p in paths:
        if os.path.isdir(p):
            for d, dirs, names in os.walk(p):
                dirs.sort()
                for n in sorted(names):
                    f = os.path.join(d, n)
                    if os.path.isfile(f):
                        out[f] = file_digest(store, f)
        elif os.path.isfile(p):
            out[p] = file_digest(store, p)
        else:
            out[p] = "missing"
    return out


# The installed packages: their headers, libraries, linker and debug files.
# Any install, upgrade or removal rewrites dpkg's status file.
SYSTEM_FILES = ("/var/lib/dpkg/status",)


def system_digest(store):
    return tree_digests(store, SYSTEM_FILES)


@contextlib.contextmanager
def locked(path):
    """An exclusive lock on PATH (made if missing), for the block's time."""
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def entry_dir(store, kind, k):
    return os.path.join(store, kind, k)


def lookup(store, kind, k):
    """The published entry's data, or None."""
    try:
        with open(os.path.join(entry_dir(store, kind, k), "entry.json")) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def make(store, kind, k, fill):
    """The entry KIND/K: found, or made by FILL(directory) -> data under the
    entry's lock and published. FILL returns None when the result must not
    be kept (a failed build); the directory is then removed and the data
    of the attempt is returned as FILL's second value."""
    found = lookup(store, kind, k)
    if found is not None:
        return found, None
    d = entry_dir(store, kind, k)
    os.makedirs(os.path.dirname(d), exist_ok=True)
    with locked(d + ".lock"):
        found = lookup(store, kind, k)
        if found is not None:
            return found, None
        shutil.rmtree(d, ignore_errors=True)  # a run that died half-way
        os.makedirs(d)
        data, failure = fill(d)
        if data is None:
            shutil.rmtree(d, ignore_errors=True)
            return None, failure
        tmp = os.path.join(d, "entry.json.tmp")
        with open(tmp, "w") as f:
            json.dump(data, f)
        os.replace(tmp, os.path.join(d, "entry.json"))
        return data, None


def copy_into(src, dest, skip=()):
    """Copies the files under SRC into DEST (made if missing), keeping
    their modification times (profiles are paired by them)."""
    os.makedirs(dest, exist_ok=True)
    for d, dirs, names in os.walk(src):
        rel = os.path.relpath(d, src)
        target = os.path.normpath(os.path.join(dest, rel))
        os.makedirs(target, exist_ok=True)
        for n in names:
            if rel == "." and n in skip:
                continue
            s = os.path.join(d, n)
            if os.path.islink(s):
                os.symlink(os.readlink(s), os.path.join(target, n))
            else:
                shutil.copy2(s, os.path.join(target, n))

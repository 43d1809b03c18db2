"""Test programs built once per suite run (store.py).

    build(store, cmd, source, out, tool_files=()) -> (returncode, stderr)

builds SOURCE with CMD (the compiler and its flags: [mscc, "-O0"], [clang,
"-g", "-gdwarf-4", "-O0"]) as `CMD SOURCE -o prog` run in the entry's own
directory, and links (or copies) the program to OUT. The key holds:

* the command, and the digest of the compiler it names;
* TOOL_FILES: the files that make the compiler what it is besides its
  binary, digested (for mscc: the clang it runs, the pass plugin, the
  runtime archives and the headers of lib/massif-native and include/ of
  the build);
* the source's path and digest;
* the environment the compiler gets (store.program_env: MSCC_LLVM and
  the like included);
* the installed packages (store.system_digest: linker, C library).

Paths of the tree are mapped in what the build writes (-ffile-prefix-map,
-fdebug-compilation-dir): the debug information names the sources under
/massif-native and the program does not depend on where the tree is, so
the reference runs of a program have the same key in every clone
(runs.py, record.py).

The headers the compile read (clang's -MD list) are kept with the entry
with their digests; an entry whose headers have changed since is built
again. A failed build is not kept: the caller gets clang's status and
stderr as from a direct build.
"""
import os
import re
import shutil
import subprocess
import sys

import store as st

# The source tree, as the programs built here name it.
TREE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAPPED_TREE = "/massif-native"


def _deps(path):
    """The files a -MD dependency file lists."""
    with open(path) as f:
        text = f.read().replace("\\\n", " ")
    _, _, rest = text.partition(":")
    out, word = [], ""
    i = 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest) and rest[i + 1] == " ":
            word += " "
            i += 2
            continue
        if c.isspace():
            if word:
                out.append(word)
            word = ""
        else:
            word += c
        i += 1
    if word:
        out.append(word)
    return out


def _headers_unchanged(store, data):
    for path, digest in data["headers"].items():
        try:
            if st.file_digest(store, path) != digest:
                return False
        except OSError:
            return False
    return True


def _place(prog, out):
    if os.path.lexists(out):
        os.unlink(out)
    try:
        os.link(prog, out)
    except OSError:
        shutil.copy2(prog, out)


def _driver_compiler(driver):
    """The clang an mscc (mscxx) runs, as its --version names it (in the
    caller's environment: MSCC_LLVM chooses another)."""
    p = subprocess.run([driver, "--version"], env=st.program_env(),
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                       text=True, errors="replace")
    m = re.search(r"^LLVM \S+ \((.*)\)$", p.stdout, re.M)
    return [shutil.which(m.group(1)) or m.group(1)] if m else []


def mscc_files(driver):
    """What an mscc (mscxx) build depends on: the driver, the clang it runs,
    and the plugins, runtime archives and headers of the build it belongs
    to."""
    top = os.path.dirname(os.path.dirname(os.path.realpath(driver)))
    lib = os.path.join(top, "lib", "massif-native")
    files = sorted(os.listdir(lib)) if os.path.isdir(lib) else []
    return ([driver] + _driver_compiler(driver)
            + [f for f in (os.path.join(lib, n) for n in files) if os.path.isfile(f)]
            + [os.path.join(top, "include")])


def build(store, cmd, source, out, tool_files=()):
    source = os.path.abspath(source)
    env = st.program_env()
    compiler = shutil.which(cmd[0], path=env.get("PATH")) or cmd[0]
    k = st.key({
        "cmd": cmd,
        "compiler": st.file_digest(store, compiler),
        "tools": st.tree_digests(store, tool_files),
        "source": [source, st.file_digest(store, source)],
        "env": env,
        "system": st.system_digest(store),
    })

    def fill(d):
        mapped = ["-ffile-prefix-map=%s=%s" % (TREE, MAPPED_TREE),
                  "-fdebug-compilation-dir=%s/build" % MAPPED_TREE]
        # Right after the compiler: a test's own flags, later, win.
        p = subprocess.run(cmd[:1] + mapped + cmd[1:] +
                           [source, "-o", "prog", "-MD", "-MF", "prog.d"],
                           cwd=d, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, errors="replace")
        if p.returncode != 0:
            return None, (p.returncode, p.stderr)
        headers = [h for h in _deps(os.path.join(d, "prog.d"))
                   if os.path.abspath(os.path.join(d, h)) != source]
        return {"headers": st.tree_digests(store, [os.path.join(d, h) for h in headers]),
                "stderr": p.stderr}, None

    for _ in range(3):
        data = st.lookup(store, "builds", k)
        if data is not None and not _headers_unchanged(store, data):
            with st.locked(st.entry_dir(store, "builds", k) + ".lock"):
                shutil.rmtree(st.entry_dir(store, "builds", k), ignore_errors=True)
        data, failure = st.make(store, "builds", k, fill)
        if data is None:
            return failure
        try:
            _place(os.path.join(st.entry_dir(store, "builds", k), "prog"), out)
            return 0, data["stderr"]
        except FileNotFoundError:
            continue  # replaced under us: look again
    raise RuntimeError(f"suitecache: cannot build {source}")


def build_or_exit(store, cmd, source, out, tool_files=()):
    """build(), for a test script: a failed build ends the script with
    clang's status and stderr, named after the script."""
    status, err = build(store, cmd, source, out, tool_files)
    if status != 0:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {' '.join(cmd + [source])} "
                 f"failed ({status}):\n{err}")

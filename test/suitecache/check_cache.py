#!/usr/bin/env python3
"""Checks the suite's caches (builds.py, runs.py) on a private store.

    check_cache.py WORKDIR CLANG VALGRIND

Prints one line per property; each ends in "ok" or says what was wrong.
"""
import os
import shutil
import sys

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import builds  # noqa: E402
import record  # noqa: E402
import runs  # noqa: E402
import store  # noqa: E402

PROGRAM = """#include <stdlib.h>
int main(void) { void *p = malloc(%d); free(p); return %d; }
"""


def entries(cache, kind):
    d = os.path.join(cache, kind)
    return sorted(n for n in os.listdir(d) if not n.endswith(".lock")) if os.path.isdir(d) else []


def check(what, ok):
    print(f"{what}: {'ok' if ok else 'WRONG'}")
    return ok


def main():
    work, clang, valgrind = os.path.abspath(sys.argv[1]), sys.argv[2], sys.argv[3]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.environ.pop(store.ROOT_VARIABLE, None)
    cache = store.root(work)
    src = os.path.join(work, "prog.c")
    with open(src, "w") as f:
        f.write(PROGRAM % (100, 3))
    cmd = [clang, "-g", "-gdwarf-4", "-O0"]
    ok = True

    builds.build(cache, cmd, src, os.path.join(work, "a"))
    builds.build(cache, cmd, src, os.path.join(work, "b"))
    ok &= check("same build twice: one entry", len(entries(cache, "builds")) == 1)
    builds.build(cache, cmd + ["-O1"], src, os.path.join(work, "c"))
    ok &= check("other flags: another entry", len(entries(cache, "builds")) == 2)
    os.environ["SUITE_CHECK_VARIABLE"] = "1"
    builds.build(cache, cmd, src, os.path.join(work, "d"))
    del os.environ["SUITE_CHECK_VARIABLE"]
    ok &= check("other environment: another entry", len(entries(cache, "builds")) == 3)

    r1 = runs.reference(cache, valgrind, ["-q", "--tool=massif", "--time-unit=B"],
                        os.path.join(work, "a"))
    r2 = runs.reference(cache, valgrind, ["-q", "--tool=massif", "--time-unit=B"],
                        os.path.join(work, "b"))
    ok &= check("same run twice: one entry", len(entries(cache, "runs")) == 1
                and r1.cwd == r2.cwd and r1.returncode == 3)
    runs.reference(cache, valgrind, ["-q", "--tool=massif", "--time-unit=i"],
                   os.path.join(work, "a"))
    ok &= check("other options: another run", len(entries(cache, "runs")) == 2)
    runs.reference(cache, valgrind, ["-q", "--tool=massif", "--time-unit=B"],
                   os.path.join(work, "a"), env_extra={"SUITE_CHECK_VARIABLE": "1"})
    ok &= check("other environment: another run", len(entries(cache, "runs")) == 3)

    # The source rewritten with other contents and the same size: a new
    # build, and the new program's run is not the old one's.
    with open(src, "w") as f:
        f.write(PROGRAM % (200, 4))
    builds.build(cache, cmd, src, os.path.join(work, "e"))
    ok &= check("source changed: another entry", len(entries(cache, "builds")) == 4)
    r3 = runs.reference(cache, valgrind, ["-q", "--tool=massif", "--time-unit=B"],
                        os.path.join(work, "e"))
    ok &= check("program changed: another run", len(entries(cache, "runs")) == 4
                and r3.returncode == 4)
    runs.copy_files(r3, os.path.join(work, "copy"))
    files = os.listdir(os.path.join(work, "copy"))
    ok &= check("the run's files copied, not the program",
                "prog" not in files and any(f.startswith("massif.out.") for f in files))
    broken = os.path.join(work, "broken.c")
    with open(broken, "w") as f:
        f.write("int main(void) { return }\n")
    status, err = builds.build(cache, cmd, broken, os.path.join(work, "f"))
    ok &= check("failed build: clang's status, nothing kept",
                status != 0 and "broken.c:1" in err and len(entries(cache, "builds")) == 4)

    # The record: this store's runs packed, then met by a store of another
    # tree, which restores them without running Valgrind (a restored run's
    # directory is the record's placeholder), with the same results.
    packed = os.path.join(work, "references.json.xz")
    count = record.pack(cache, packed)
    other = os.path.join(work, "another-tree", ".suite-cache")
    os.makedirs(other)
    record.unpack(packed, other)
    r4 = runs.reference(other, valgrind, ["-q", "--tool=massif", "--time-unit=B"],
                        os.path.join(work, "e"))
    runs.copy_files(r4, os.path.join(work, "copy-recorded"))

    def profile(directory, run):
        name = next(f for f in os.listdir(directory) if f.startswith("massif.out."))
        with open(os.path.join(directory, name)) as f:
            return name, f.read().replace(run.cwd, "<dir>")
    ok &= check("a recorded run restored, not run again, with the same results",
                count == 4 and r4.cwd == record.PLACEHOLDER and r4.returncode == 4
                and r4.stderr == r3.stderr.replace(r3.cwd, record.PLACEHOLDER)
                and profile(os.path.join(work, "copy-recorded"), r4)
                == profile(os.path.join(work, "copy"), r3))
    r5 = runs.reference(other, valgrind, ["-q", "--tool=massif", "--time-unit=i"],
                        os.path.join(work, "e"))
    ok &= check("a run the record does not hold: made live",
                r5.cwd != record.PLACEHOLDER and os.path.isabs(r5.cwd) and r5.returncode == 4)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

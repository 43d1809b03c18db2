"""The suite's record of Valgrind's reference runs (runs.py).

The reference runs are Valgrind's Massif on the suite's own programs, and
their keys hold everything a run depends on (runs.py) but no path of the
tree. A record of them, made once (regenerate-record.sh) and kept in the
repository as references.json.xz, spares a suite run the Valgrind runs it
holds: at the start of a lit run (lit.cfg.py) `unpack` puts one file per
recorded run into the fresh store, and runs.reference restores a recorded
run whose key it meets instead of making it. A key it does not meet (a
program, option, Valgrind, C library or environment that is not the
recorded one) makes its run live, as without a record.

    record.py pack STORE OUT      record every run in STORE (after a lit run)
    record.py unpack RECORD STORE (lit.cfg.py does this)

What a run wrote names the directory it ran in; the record holds that path
as PLACEHOLDER, and a restored run's Run.cwd, which the callers mask, is the
placeholder too. Files keep the order and the spacing of their
modification times (profiles are paired by them). With
SUITE_CACHE_VERIFY_RECORD=1, runs.reference also makes a recorded run live
and `verify` requires the two to agree (test/suitecache/record.test).
"""
import base64
import json
import lzma
import os
import sys
import time

PLACEHOLDER = "@REFERENCE_RUN_DIR@"
FORMAT = 1


def _entry_path(store, k):
    return os.path.join(store, "record", k + ".json")


def lookup(store, k):
    """The recorded run of key K, or None."""
    try:
        with open(_entry_path(store, k)) as f:
            return json.load(f)
    except FileNotFoundError:
        return None


def _read_files(directory, skip, cwd):
    """{name: {"text" or "base64", "mtime_ns"}} of the files a run wrote,
    its directory's path replaced by PLACEHOLDER in the text ones."""
    files = {}
    for d, _, names in os.walk(directory):
        for n in sorted(names):
            path = os.path.join(d, n)
            rel = os.path.relpath(path, directory)
            if rel in skip or os.path.islink(path):
                continue
            with open(path, "rb") as f:
                raw = f.read()
            try:
                item = {"text": raw.decode("utf-8").replace(cwd, PLACEHOLDER)}
            except UnicodeDecodeError:
                item = {"base64": base64.b64encode(raw).decode("ascii")}
            item["mtime_ns"] = os.stat(path).st_mtime_ns
            files[rel] = item
    first = min((i["mtime_ns"] for i in files.values()), default=0)
    for item in files.values():
        item["mtime_ns"] -= first
    return files


def _recorded(data, files_dir, skip):
    cwd = data["cwd"]
    out = dict(data)
    for field in ("stdout", "stderr"):
        out[field] = data[field].replace(cwd, PLACEHOLDER)
    out["cwd"] = PLACEHOLDER
    return {"data": out, "files": _read_files(files_dir, skip, cwd)}


def restore(entry, directory):
    """Writes a recorded run's files into DIRECTORY."""
    os.makedirs(directory, exist_ok=True)
    base = time.time_ns()
    for rel, item in sorted(entry["files"].items()):
        path = os.path.join(directory, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if "text" in item:
            raw = item["text"].encode("utf-8")
        else:
            raw = base64.b64decode(item["base64"])
        with open(path, "wb") as f:
            f.write(raw)
        t = base + item["mtime_ns"]
        os.utime(path, ns=(t, t))


def verify(k, entry, data, cwd, skip):
    """Exits with the differences when a live run (DATA, its files in CWD)
    does not give what the record holds for key K."""
    live = _recorded(data, cwd, skip)
    problems = []
    for field in ("returncode", "stdout", "stderr"):
        if live["data"][field] != entry["data"][field]:
            problems.append(field)
    def contents(files):  # without the modification times
        return {n: (i.get("text"), i.get("base64")) for n, i in files.items()}
    if contents(live["files"]) != contents(entry["files"]):
        problems.append("files (%s live, %s recorded)"
                        % (sorted(live["files"]), sorted(entry["files"])))
    if problems:
        sys.exit("record.py: the recorded run %s differs from a live one in "
                 "%s: run test/suitecache/regenerate-record.sh"
                 % (k, ", ".join(problems)))


def pack(store, out):
    """Records every reference run of STORE into OUT (xz-compressed JSON)."""
    runs = {}
    root = os.path.join(store, "runs")
    for k in sorted(os.listdir(root)):
        entry = os.path.join(root, k, "entry.json")
        if not os.path.exists(entry):
            continue  # an engine's directory, not a run
        with open(entry) as f:
            data = json.load(f)
        # A restored run's directory is the placeholder already.
        skip = ("prog",) + tuple(data.get("companions", ()))
        runs[k] = _recorded(data, os.path.join(root, k, "massif"), skip)
    text = json.dumps({"format": FORMAT, "runs": runs}, sort_keys=True, indent=0)
    with lzma.open(out, "wt", preset=9 | lzma.PRESET_EXTREME) as f:
        f.write(text)
    return len(runs)


def unpack(path, store):
    """Puts each recorded run of PATH into STORE/record; returns how many
    (0 for a record of another format, which is then not used)."""
    try:
        with lzma.open(path, "rt") as f:
            everything = json.load(f)
    except (OSError, lzma.LZMAError, ValueError):
        return 0
    if everything.get("format") != FORMAT:
        return 0
    directory = os.path.join(store, "record")
    os.makedirs(directory, exist_ok=True)
    for k, entry in everything["runs"].items():
        with open(_entry_path(store, k), "w") as f:
            json.dump(entry, f)
    return len(everything["runs"])


def main(argv):
    if len(argv) == 3 and argv[0] == "pack":
        print("record.py: %d runs recorded in %s" % (pack(argv[1], argv[2]), argv[2]))
        return 0
    if len(argv) == 3 and argv[0] == "unpack":
        print("record.py: %d runs unpacked" % unpack(argv[1], argv[2]))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Checks ms_print --format=json against the massif.out files it came from.

    check_json.py --ms-print BIN --schema SCHEMA --out DIR PROFILE...

For each PROFILE: the export (written with -o DIR/NAME.json, and again to
standard output: the two must be the same bytes) is strict JSON and valid
against SCHEMA, and says what the file says, read here independently of
ms_print's model:

  - desc, cmd and time_unit; every snapshot's number, time, mem_heap_B,
    mem_heap_extra_B, mem_stacks_B and heap_tree;
  - the snapshot count and the detailed snapshots (which, and which is the
    peak) equal those of ms_print's own report ("Number of snapshots:",
    " Detailed snapshots: [...]");
  - each tree has the file's nodes in the file's order, with the file's
    depths, child counts, bytes and texts; the number of nodes equals the
    number of tree lines in the file; the root's bytes equal mem_heap_B and
    every node's bytes are at least the sum of its children's;
  - frames are the distinct texts in order of first use, all used, and
    each frame's kind, address, function, file, line, object and places are
    those its text reads as;
  - "peak" is the index of the heap_tree=peak snapshot (else the first with
    the largest total; null without snapshots);
  - "sites" is null when no site statistics file is beside PROFILE (its
    name by format.h's sitesPathOf, redone here), else what that file says,
    read here by its grammar: the size buckets (with their bounds), the
    total: line, every site's figures and frame texts, in order; the
    export's sites add up to its total, and no site has more temporary and
    leaked blocks (or bytes) than calls (or bytes asked for). The frames
    the sites use are the trees' frames, then the texts only sites use, in
    order of first use.

Prints one summary line per profile, then "checked N profiles"; exits 1
with one line per problem if anything is wrong.

    check_json.py --compare A.json B.json

Requires two exports of the same run shape (e.g. one program under
massif-native and under Valgrind's Massif) to be equal but for code
addresses, desc, cmd and the site statistics (which only massif-native
writes).
"""
import argparse
import codecs
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True  # No __pycache__ in the source tree.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jsonschema  # noqa: E402


def _one_per_byte(err):
    """Each byte that is not UTF-8 reads as one U+FFFD, as the export does."""
    return "\ufffd", err.start + 1


codecs.register_error("massif-per-byte", _one_per_byte)


def text(raw):
    return raw.decode("utf-8", "massif-per-byte")


HEAP_ROOT = "(heap allocation functions)"
PAGE_ROOT = "(page allocation syscalls)"
TREE_LINE = re.compile(rb"^( *)n(\d+): +(\d+)(?: (.*))?$")
NUMBER_FIELDS = ["time", "mem_heap_B", "mem_heap_extra_B", "mem_stacks_B"]


class Bad(Exception):
    pass


def read_massif(path):
    """The file as a dict, read by its grammar (docs/FILE-FORMAT.md)."""
    with open(path, "rb") as f:
        raw = f.read()
    lines = []
    for n, line in enumerate(raw.split(b"\n"), 1):
        if line.endswith(b"\r"):
            line = line[:-1]
        stripped = line.lstrip(b" \t")
        if stripped and not stripped.startswith(b"#"):
            lines.append((n, line))
    pos = 0

    def take(prefix):
        nonlocal pos
        if pos >= len(lines) or not lines[pos][1].startswith(prefix):
            raise Bad(f"{path}: expected {prefix!r} at entry {pos}")
        pos += 1
        return lines[pos - 1][1][len(prefix):]

    desc = []
    while pos < len(lines) and lines[pos][1].startswith(b"desc:"):
        v = lines[pos][1][5:]
        desc.append(v[1:] if v.startswith(b" ") else v)
        pos += 1
    cmd = take(b"cmd:")
    cmd = cmd[1:] if cmd.startswith(b" ") else cmd
    profile = {"desc": text(b"\n".join(desc)), "cmd": text(cmd),
               "time_unit": text(take(b"time_unit: ")), "snapshots": []}
    tree_lines = 0
    while pos < len(lines):
        s = {"snapshot": int(take(b"snapshot="))}
        for field in NUMBER_FIELDS:
            s[field] = int(take(field.encode() + b"="))
        s["heap_tree"] = text(take(b"heap_tree="))
        s["nodes"] = []
        if s["heap_tree"] != "empty":
            # Preorder (depth, children, bytes, text), read until every
            # node has had its children.
            owed = []
            while True:
                n, line = lines[pos]
                pos += 1
                m = TREE_LINE.match(line)
                if not m or len(m.group(1)) != len(owed):
                    raise Bad(f"{path}:{n}: not the tree line expected")
                children = int(m.group(2))
                s["nodes"].append((len(owed), children, int(m.group(3)),
                                   text(m.group(4) or b"")))
                if owed:
                    owed[-1] -= 1
                owed.append(children)
                while owed and owed[-1] == 0:
                    owed.pop()
                if not owed:
                    break
        profile["snapshots"].append(s)
    # Counted apart from the parse above: every line that looks like a node.
    for _, line in lines:
        if re.match(rb"^ *n\d+: ", line):
            tree_lines += 1
    profile["tree_lines"] = tree_lines
    return profile


SITE_COUNTS = ["calls", "bytes", "temporary", "temporary_bytes",
               "leaked_blocks", "leaked_bytes"]


def sites_path(path):
    """format::sitesPathOf: the last "massif.out" of the file's own name
    becomes "massif.sites"; a name without one gets ".sites" appended."""
    head, name = os.path.split(path)
    at = name.rfind("massif.out")
    name = name + ".sites" if at < 0 else \
        name[:at] + "massif.sites" + name[at + len("massif.out"):]
    return os.path.join(head, name)


def read_sites(path):
    """The site statistics file at path, by its grammar (docs/FILE-FORMAT.md),
    or None when there is none."""
    if not os.path.exists(path):
        return None
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()

    def counts(line, key):
        m = re.fullmatch(key + rb" " + rb" ".join(
            c.encode() + rb"=(\d+)" for c in SITE_COUNTS), line)
        if not m:
            raise Bad(f"{path}: not a {key!r} line: {line[:80]!r}")
        return dict(zip(SITE_COUNTS, map(int, m.groups())))

    if len(lines) < 4 or lines[0] != b"massif-sites: 1" or \
            not lines[1].startswith(b"cmd:") or not lines[2].startswith(b"sizes:"):
        raise Bad(f"{path}: not a site statistics file")
    sizes = [int(n) for n in lines[2][6:].split()]
    out = {"cmd": text(lines[1][5:]), "sizes": sizes,
           "total": counts(lines[3], b"total:"), "list": []}
    for line in lines[4:]:
        if line.startswith(b" "):
            if not out["list"]:
                raise Bad(f"{path}: a frame before the first site")
            out["list"][-1]["frames"].append(text(line[1:]))
        else:
            out["list"].append(dict(counts(line, b"site:"), frames=[]))
    return out


def check_sites(doc, want, frames):
    """Problems of the export's sites against the file's (want)."""
    problems = []
    got = doc["sites"]
    if want is None:
        return [] if got is None else ["sites given, but no site statistics file is there"]
    if got is None:
        return ["sites is null beside a site statistics file"]
    buckets = [{"min": 0 if b == 0 else 1 << (b - 1),
                "max": 0 if b == 0 else (1 << b) - 1, "calls": n}
               for b, n in enumerate(want["sizes"])]
    if got["sizes"] != buckets:
        problems.append(f"sites.sizes {got['sizes']}, the file says {buckets}")
    if got["total"] != want["total"]:
        problems.append(f"sites.total {got['total']}, the file says {want['total']}")
    if len(got["list"]) != len(want["list"]):
        problems.append(f"{len(got['list'])} sites, the file has {len(want['list'])}")
    for i, (g, w) in enumerate(zip(got["list"], want["list"])):
        texts = [frames[f]["text"] for f in g["frames"]]
        if {k: g[k] for k in SITE_COUNTS} != {k: w[k] for k in SITE_COUNTS} or \
                texts != w["frames"]:
            problems.append(f"site {i} differs from the file's")
        if g["temporary"] + g["leaked_blocks"] > g["calls"] or \
                g["temporary_bytes"] + g["leaked_bytes"] > g["bytes"]:
            problems.append(f"site {i} frees more than it allocated: {g}")
    sums = {k: sum(g[k] for g in got["list"]) for k in SITE_COUNTS}
    if sums != got["total"]:
        problems.append(f"the sites add up to {sums}, sites.total is {got['total']}")
    return problems


def expected_frame(t):
    """What the export must say about a node whose text is t."""
    if t.startswith(HEAP_ROOT) or t.startswith(PAGE_ROOT):
        return {"kind": "root", "text": t}
    if t.startswith("in ") and "below massif's threshold" in t:
        m = re.match(r"in (\d*)", t)
        return {"kind": "insignificant", "text": t,
                "places": int(m.group(1) or 0)}
    f = {"kind": "code", "text": t}
    rest = t
    m = re.match(r"^(0x[0-9A-Fa-f]+): (.*)$", t, re.S)
    if m:
        f["address"] = m.group(1)
        rest = m.group(2)
    f["function"] = rest
    # The location is the last " (...)" group, when it ends the text.
    m = re.match(r"^(.*) \((.*)\)$", rest, re.S)
    if m and len(rest) >= 4:
        fn, group = m.group(1), m.group(2)
        loc = re.match(r"^(.+):(\d+)$", group, re.S)
        if group.startswith("in ") and len(group) > 3:
            f["function"], f["object"] = fn, group[3:]
        elif loc and int(loc.group(2)) < 2 ** 32:
            f["function"], f["file"] = fn, loc.group(1)
            f["line"] = int(loc.group(2))
    return f


def flatten(tree, frames):
    """The JSON tree in preorder, as (depth, children, bytes, text)."""
    out, problems = [], []
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        kids = node.get("children", [])
        if node["bytes"] < sum(k["bytes"] for k in kids):
            problems.append(f"node {len(out)} has {node['bytes']} bytes, "
                            f"less than its children's "
                            f"{sum(k['bytes'] for k in kids)}")
        if not 0 <= node["frame"] < len(frames):
            problems.append(f"node {len(out)}: frame {node['frame']} "
                            f"out of range")
            return out, problems
        out.append((depth, len(kids), node["bytes"],
                    frames[node["frame"]]["text"]))
        stack.extend((k, depth + 1) for k in reversed(kids))
    return out, problems


def report_summary(ms_print, path):
    """(snapshot count, [detailed indexes], peak index or None) of the report."""
    p = subprocess.run([ms_print, path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if p.returncode != 0:
        raise Bad(f"{path}: the report failed ({p.returncode}): "
                  f"{p.stderr.decode(errors='replace').strip()}")
    out = p.stdout.decode(errors="replace")
    count = re.search(r"^Number of snapshots: (\d+)$", out, re.M)
    listed = re.search(r"^ Detailed snapshots: \[(.*)\]$", out, re.M)
    if not count or not listed:
        raise Bad(f"{path}: no snapshot summary in the report")
    detailed, peak = [], None
    for item in filter(None, listed.group(1).split(", ")):
        m = re.fullmatch(r"(\d+)( \(peak\))?", item)
        if not m:
            raise Bad(f"{path}: odd detailed snapshot entry {item!r}")
        detailed.append(int(m.group(1)))
        if m.group(2):
            peak = int(m.group(1))
    return int(count.group(1)), detailed, peak


def export(ms_print, path, out_dir):
    name = os.path.basename(path)
    json_path = os.path.join(out_dir, os.path.splitext(name)[0] + ".json")
    p = subprocess.run([ms_print, "--format=json", "-o", json_path, path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0 or p.stdout or p.stderr:
        raise Bad(f"{path}: --format=json -o failed ({p.returncode}): "
                  f"{p.stderr.decode(errors='replace').strip()}")
    q = subprocess.run([ms_print, "--format=json", path],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    with open(json_path, "rb") as f:
        written = f.read()
    if q.returncode != 0 or q.stdout != written:
        raise Bad(f"{path}: --format=json to stdout differs from -o")
    return json_path


def check(ms_print, schema, path, out_dir):
    """Problems found in path's export, and a summary line."""
    problems = []
    json_path = export(ms_print, path, out_dir)
    doc = jsonschema.load_json(json_path)
    errors = jsonschema.validate(doc, schema)
    if errors:
        return [f"{path}: schema: {e}" for e in errors[:10]], ""
    want = read_massif(path)
    want_sites = read_sites(sites_path(path))

    for key in ("desc", "cmd", "time_unit"):
        if doc[key] != want[key]:
            problems.append(f"{key} is {doc[key]!r}, the file says {want[key]!r}")
    if want_sites is not None and want_sites["cmd"] != want["cmd"]:
        problems.append(f"the site statistics' cmd {want_sites['cmd']!r} is not the profile's")
    problems += check_sites(doc, want_sites, doc["frames"])
    snaps = doc["snapshots"]
    if len(snaps) != len(want["snapshots"]):
        problems.append(f"{len(snaps)} snapshots, the file has "
                        f"{len(want['snapshots'])}")

    count, detailed, report_peak = report_summary(ms_print, path)
    mine = [i for i, s in enumerate(snaps) if "tree" in s]
    if count != len(snaps):
        problems.append(f"{len(snaps)} snapshots, the report says {count}")
    if detailed != mine:
        problems.append(f"detailed snapshots {mine}, the report says {detailed}")
    marked = [i for i, s in enumerate(snaps) if s["heap_tree"] == "peak"]
    if report_peak is not None and marked[:1] != [report_peak]:
        problems.append(f"peak snapshots {marked}, the report says {report_peak}")

    # The peak index.
    peaks = [i for i, s in enumerate(want["snapshots"]) if s["heap_tree"] == "peak"]
    if peaks:
        want_peak = peaks[0]
    elif want["snapshots"]:
        totals = [s["mem_heap_B"] + s["mem_heap_extra_B"] + s["mem_stacks_B"]
                  for s in want["snapshots"]]
        want_peak = totals.index(max(totals))
    else:
        want_peak = None
    if doc["peak"] != want_peak:
        problems.append(f"peak is {doc['peak']}, expected {want_peak}")

    frames = doc["frames"]
    nodes = 0
    for i, (s, w) in enumerate(zip(snaps, want["snapshots"])):
        where = f"snapshot {i}"
        for key in ["snapshot", "heap_tree"] + NUMBER_FIELDS:
            if s[key] != w[key]:
                problems.append(f"{where}: {key} is {s[key]!r}, the file "
                                f"says {w[key]!r}")
        if "tree" not in s:
            continue
        flat, tree_problems = flatten(s["tree"], frames)
        problems += [f"{where}: {p}" for p in tree_problems]
        nodes += len(flat)
        if s["tree"]["bytes"] != s["mem_heap_B"]:
            problems.append(f"{where}: root has {s['tree']['bytes']} bytes, "
                            f"mem_heap_B is {s['mem_heap_B']}")
        if flat != w["nodes"]:
            got, exp = flat, w["nodes"]
            k = next((j for j, (a, b) in enumerate(zip(got, exp)) if a != b),
                     min(len(got), len(exp)))
            problems.append(f"{where}: tree differs from the file at node "
                            f"{k} ({len(got)} nodes, file {len(exp)})")
    if nodes != want["tree_lines"]:
        problems.append(f"{nodes} tree nodes, the file has "
                        f"{want['tree_lines']} tree lines")

    # Frames: the distinct texts in order of first use, the trees' then
    # the sites' (so none is unused or written twice, since the trees' and
    # the sites' texts equal the files'), each read right.
    order = []
    seen = set()
    texts = [n[3] for w in want["snapshots"] for n in w["nodes"]]
    for s in (want_sites or {"list": []})["list"]:
        texts += s["frames"]
    for t in texts:
        if t not in seen:
            seen.add(t)
            order.append(t)
    if [f["text"] for f in frames] != order:
        problems.append(f"frames are not the {len(order)} distinct texts in "
                        f"order of first use ({len(frames)} frames)")
    for i, f in enumerate(frames):
        exp = expected_frame(f["text"])
        if f != exp:
            problems.append(f"frame {i}: {f}, expected {exp}")
            if len(problems) > 20:
                break

    summary = (f"{os.path.basename(path)}: {len(snaps)} snapshots, "
               f"{len(mine)} detailed, peak {doc['peak']}, "
               f"{len(frames)} frames, {nodes} nodes")
    if want_sites is not None:
        t = doc["sites"]["total"]
        summary += (f"; {len(want_sites['list'])} sites, {t['calls']} calls, "
                    f"{t['temporary']} temporary, {t['leaked_bytes']} bytes leaked")
    return [f"{path}: {p}" for p in problems], summary


def without_addresses(doc):
    """doc with code addresses masked (they differ between two builds),
    without its site statistics (Valgrind's Massif writes none) and the
    frames only they use, which come after the trees'."""
    mask = re.compile(r"^0x[0-9A-Fa-f]+: ")
    used = {n["frame"] for s in doc["snapshots"] if "tree" in s
            for n, _ in walk_json(s["tree"])}
    del doc["frames"][len(used):]
    doc["sites"] = None
    for f in doc["frames"]:
        f.pop("address", None)
        f["text"] = mask.sub("0x........: ", f["text"])
    return doc


def walk_json(tree):
    """Every node of a JSON tree, with its parent."""
    stack = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        yield node, parent
        stack.extend((c, node) for c in node.get("children", []))


def compare(a_path, b_path):
    """Two exports of the same program, addresses aside, desc and cmd aside:
    one line per difference, for snapshots and frames."""
    a, b = (without_addresses(jsonschema.load_json(p)) for p in (a_path, b_path))
    problems = []
    for key in ("format", "version", "time_unit", "peak"):
        if a[key] != b[key]:
            problems.append(f"{key}: {a[key]!r} != {b[key]!r}")
    if a["frames"] != b["frames"]:
        problems.append(f"frames differ ({len(a['frames'])} and "
                        f"{len(b['frames'])}): " + next(
                            (f"{x} != {y}" for x, y in zip(a["frames"], b["frames"])
                             if x != y), "one is longer"))
    if len(a["snapshots"]) != len(b["snapshots"]):
        problems.append(f"{len(a['snapshots'])} != {len(b['snapshots'])} snapshots")
    for i, (x, y) in enumerate(zip(a["snapshots"], b["snapshots"])):
        if x != y:
            problems.append(f"snapshot {i} differs")
    return problems


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--compare":
        problems = compare(sys.argv[2], sys.argv[3])
        for p in problems[:20]:
            print(f"FAIL {p}")
        print(f"compared: {len(problems)} differences")
        return 1 if problems else 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ms-print", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("profiles", nargs="+")
    args = ap.parse_args()
    sys.setrecursionlimit(100000)
    schema = jsonschema.load_json(args.schema)
    os.makedirs(args.out, exist_ok=True)
    failed = 0
    for path in args.profiles:
        try:
            problems, summary = check(args.ms_print, schema, path, args.out)
        except (Bad, jsonschema.DocumentError, OSError) as e:
            problems, summary = [str(e)], ""
        for p in problems:
            print(f"FAIL {p}")
        if problems:
            failed += 1
        else:
            print(summary)
    print(f"checked {len(args.profiles)} profiles, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

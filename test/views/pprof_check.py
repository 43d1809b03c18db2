#!/usr/bin/env python3
"""Reads ms_print's pprof export with its own decoder, and with go tool pprof.

    pprof_check.py dump FILE            the profile, readably, for FileCheck
    pprof_check.py sums MS_PRINT FILE...
    pprof_check.py go MS_PRINT DIR FILE...

The decoder here is written from the protocol buffers wire format and
profile.proto's field numbers, independently of ms_print's encoder. Every
decoded profile is validated: gzip-compressed, string_table[0] is "",
sample_type [inuse_space/bytes] and the default inuse_space, period_type
space/bytes, ids 1..n of mappings, locations and functions, every id a
sample, location or line refers to exists, one positive value a sample.

sums: for each massif.out FILE with a tree, the --snapshot=peak export's
samples sum to the peak's total (from --format=json), and in the
--snapshot=all export each detailed snapshot's samples (label snapshot=N)
sum to its total and carry time=T in the profile's time unit.

go: the same totals as go tool pprof reports them (-top -unit=bytes), the
peak export's total and, in the --snapshot=all export, -tagfocus=snapshot=N
for the first, the peak's and the last detailed snapshot. DIR holds the
exports; HOME, GOCACHE and GOPATH should point somewhere writable.

Prints one line per file and a summary; exits 1 if anything failed.
"""
import gzip
import json
import os
import re
import subprocess
import sys


# ---- protocol buffers wire format --------------------------------------

def varint(buf, pos):
    value = shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return value, pos
        if shift > 63:
            raise ValueError("varint longer than ten bytes")


def fields(buf):
    """[(field number, value)]: an int for varints, bytes otherwise."""
    out = []
    pos = 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        num, wire = key >> 3, key & 7
        if num == 0:
            raise ValueError("field number 0")
        if wire == 0:
            value, pos = varint(buf, pos)
        elif wire == 2:
            size, pos = varint(buf, pos)
            if pos + size > len(buf):
                raise ValueError("truncated field %d" % num)
            value = buf[pos:pos + size]
            pos += size
        elif wire == 1:
            value, pos = int.from_bytes(buf[pos:pos + 8], "little"), pos + 8
        elif wire == 5:
            value, pos = int.from_bytes(buf[pos:pos + 4], "little"), pos + 4
        else:
            raise ValueError("wire type %d" % wire)
        out.append((num, value))
    return out


def repeated_ints(values):
    """A repeated integer field, packed (bytes) or not (ints)."""
    out = []
    for v in values:
        if isinstance(v, int):
            out.append(v)
        else:
            pos = 0
            while pos < len(v):
                x, pos = varint(v, pos)
                out.append(x)
    return out


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def message(buf):
    """{field number: [values]}."""
    d = {}
    for num, value in fields(buf):
        d.setdefault(num, []).append(value)
    return d


def one(d, num, default=0):
    return d[num][-1] if num in d else default


# ---- profile.proto -----------------------------------------------------

class Profile:
    def __init__(self, data):
        if data[:2] != b"\x1f\x8b":
            raise ValueError("not gzip-compressed")
        raw = message(gzip.decompress(data))
        self.strings = [s.decode("utf-8") for s in raw.get(6, [])]
        s = self.string
        vt = [message(b) for b in raw.get(1, [])]
        self.sample_types = [(s(one(v, 1)), s(one(v, 2))) for v in vt]
        pt = message(one(raw, 11, b""))
        self.period_type = (s(one(pt, 1)), s(one(pt, 2)))
        self.period = one(raw, 12)
        self.comments = [s(i) for i in repeated_ints(raw.get(13, []))]
        self.default_type = s(one(raw, 14))
        self.mappings = {}
        for b in raw.get(3, []):
            m = message(b)
            self.add(self.mappings, one(m, 1), {
                "start": one(m, 2), "limit": one(m, 3),
                "file": s(one(m, 5)), "has_functions": one(m, 7)})
        self.functions = {}
        for b in raw.get(5, []):
            f = message(b)
            self.add(self.functions, one(f, 1), {
                "name": s(one(f, 2)), "file": s(one(f, 4))})
        self.locations = {}
        for b in raw.get(4, []):
            loc = message(b)
            lines = []
            for lb in loc.get(4, []):
                ln = message(lb)
                lines.append((one(ln, 1), signed(one(ln, 2))))
            self.add(self.locations, one(loc, 1), {
                "mapping": one(loc, 2), "address": one(loc, 3),
                "lines": lines})
        self.samples = []
        for b in raw.get(2, []):
            sm = message(b)
            labels = {}
            for lb in sm.get(3, []):
                lab = message(lb)
                labels[s(one(lab, 1))] = (signed(one(lab, 3)),
                                          s(one(lab, 4)))
            self.samples.append({
                "locations": repeated_ints(sm.get(1, [])),
                "values": [signed(v) for v in repeated_ints(sm.get(2, []))],
                "labels": labels})
        self.validate()

    def string(self, i):
        if not 0 <= i < len(self.strings):
            raise ValueError("string index %d out of range" % i)
        return self.strings[i]

    @staticmethod
    def add(table, ident, value):
        if ident == 0 or ident in table:
            raise ValueError("id %d zero or repeated" % ident)
        table[ident] = value

    def validate(self):
        if not self.strings or self.strings[0] != "":
            raise ValueError("string_table[0] is not empty")
        if self.sample_types != [("inuse_space", "bytes")]:
            raise ValueError("sample_type %r" % self.sample_types)
        if self.default_type != "inuse_space":
            raise ValueError("default_sample_type %r" % self.default_type)
        if self.period_type != ("space", "bytes"):
            raise ValueError("period_type %r" % (self.period_type,))
        for table in (self.mappings, self.locations, self.functions):
            if sorted(table) != list(range(1, len(table) + 1)):
                raise ValueError("ids are not 1..n")
        for loc in self.locations.values():
            if loc["mapping"] and loc["mapping"] not in self.mappings:
                raise ValueError("location of an unknown mapping")
            if not loc["lines"]:
                raise ValueError("location without lines")
            for f, _ in loc["lines"]:
                if f not in self.functions:
                    raise ValueError("line of an unknown function")
            m = self.mappings.get(loc["mapping"])
            if m and not m["start"] <= loc["address"] < m["limit"]:
                raise ValueError("address outside its mapping")
        for sm in self.samples:
            if len(sm["values"]) != 1 or sm["values"][0] <= 0:
                raise ValueError("sample values %r" % sm["values"])
            if not sm["locations"]:
                raise ValueError("sample without locations")
            for loc in sm["locations"]:
                if loc not in self.locations:
                    raise ValueError("sample of an unknown location")

    def frames(self, loc):
        """The function names of a location, innermost first."""
        return [self.functions[f]["name"]
                for f, _ in self.locations[loc]["lines"]]

    def total(self, snapshot=None):
        return sum(sm["values"][0] for sm in self.samples
                   if snapshot is None or
                   sm["labels"].get("snapshot", (None,))[0] == snapshot)


def dump(path):
    with open(path, "rb") as f:
        p = Profile(f.read())
    for c in p.comments:
        print("comment: " + c)
    print("sample_type: %s/%s default %s period_type: %s/%s period %d" % (
        p.sample_types[0] + (p.default_type,) + p.period_type +
        (p.period,)))
    for ident, m in sorted(p.mappings.items()):
        print("mapping %d: %#x-%#x %s%s" % (
            ident, m["start"], m["limit"], m["file"],
            " functions" if m["has_functions"] else ""))
    for ident, loc in sorted(p.locations.items()):
        lines = ["%s %s:%d" % (p.functions[f]["name"],
                               p.functions[f]["file"], ln)
                 for f, ln in loc["lines"]]
        print("location %d: %#x M=%d %s" % (ident, loc["address"],
                                             loc["mapping"],
                                             " | ".join(lines)))
    for sm in p.samples:
        stack = ";".join("/".join(p.frames(loc)) for loc in sm["locations"])
        labels = "".join(" %s=%d%s" % (k, v, u and " " + u)
                         for k, (v, u) in sorted(sm["labels"].items()))
        print("sample %d:%s %s [%s]" % (
            sm["values"][0], labels, stack,
            " ".join(str(loc) for loc in sm["locations"])))
    print("total %d" % p.total())


# ---- the checks --------------------------------------------------------

def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def snapshots(ms_print, path):
    """(profile json, {number: total}, [detailed numbers])."""
    rc, out, err = run([ms_print, "--format=json", path])
    if rc != 0:
        raise RuntimeError("json export failed: " + err.strip())
    prof = json.loads(out)
    total = {s["snapshot"]: s["mem_heap_B"] + s["mem_heap_extra_B"] +
             s["mem_stacks_B"] for s in prof["snapshots"]}
    detailed = [s["snapshot"] for s in prof["snapshots"]
                if s["heap_tree"] != "empty"]
    return prof, total, detailed


def export(ms_print, path, which, out=None):
    cmd = [ms_print, "--format=pprof", "--snapshot=" + which, path]
    if out:
        cmd[1:1] = ["-o", out]
    rc, data, err = run(cmd)
    if rc != 0:
        raise RuntimeError("--snapshot=%s: exit %d: %s" % (which, rc,
                                                           err.strip()))
    if out:
        with open(out, "rb") as f:
            data = f.read()
    return data


def check_sums(ms_print, path):
    prof, total, detailed = snapshots(ms_print, path)
    if not detailed:
        return None
    peak = prof["snapshots"][prof["peak"]]
    if peak["heap_tree"] != "empty":
        p = Profile(export(ms_print, path, "peak"))
        if p.total() != total[peak["snapshot"]]:
            raise RuntimeError("peak: samples sum to %d, total is %d" % (
                p.total(), total[peak["snapshot"]]))
        if any(sm["labels"] for sm in p.samples):
            raise RuntimeError("peak: labels without --snapshot=all")
        if not any(c.startswith("cmd: ") for c in p.comments):
            raise RuntimeError("no cmd comment")
    p = Profile(export(ms_print, path, "all"))
    times = {s["snapshot"]: s["time"] for s in prof["snapshots"]}
    for sm in p.samples:
        n, unit = sm["labels"].get("snapshot", (None, ""))
        if n not in detailed:
            raise RuntimeError("all: sample of snapshot %r" % n)
        if sm["labels"].get("time") != (times[n], prof["time_unit"]):
            raise RuntimeError("all: snapshot %d: time label %r" % (
                n, sm["labels"].get("time")))
    for n in detailed:
        if p.total(n) != total[n]:
            raise RuntimeError("all: snapshot %d sums to %d, total is %d" % (
                n, p.total(n), total[n]))
    return "%d snapshot totals checked" % (len(detailed) + 1)


def go_total(pb, *options):
    """(shown, total) bytes of go tool pprof -top."""
    rc, out, err = run(["go", "tool", "pprof", "-top", "-unit=bytes",
                        "-nodefraction=0", "-edgefraction=0"] +
                       list(options) + [pb])
    text = out.decode("utf-8", "replace")
    m = re.search(r"Showing nodes accounting for (\d+)B?, [\d.]+% of "
                  r"(\d+)B total", text)
    if rc != 0 or not m:
        raise RuntimeError("go tool pprof %s: exit %d: %s%s" % (
            " ".join(options), rc, err.strip(), text[:200]))
    return int(m.group(1)), int(m.group(2))


def check_go(ms_print, workdir, path):
    prof, total, detailed = snapshots(ms_print, path)
    if not detailed:
        return None
    base = os.path.join(workdir, os.path.basename(path))
    peak = prof["snapshots"][prof["peak"]]["snapshot"]
    checked = []
    if peak in detailed:
        export(ms_print, path, "peak", base + ".peak.pb.gz")
        shown, whole = go_total(base + ".peak.pb.gz")
        if shown != total[peak] or whole != total[peak]:
            raise RuntimeError("peak %d: pprof shows %d of %d, total is %d"
                               % (peak, shown, whole, total[peak]))
        checked.append("peak %d" % peak)
    export(ms_print, path, "all", base + ".all.pb.gz")
    everything = sum(total[n] for n in detailed)
    for n in sorted({detailed[0], detailed[-1],
                     peak if peak in detailed else detailed[0]}):
        shown, whole = go_total(base + ".all.pb.gz",
                                "-tagfocus=snapshot=%d" % n)
        if shown != total[n] or whole != everything:
            raise RuntimeError("all, snapshot %d: pprof shows %d of %d, "
                               "expected %d of %d" % (n, shown, whole,
                                                      total[n], everything))
        checked.append("snapshot %d" % n)
    return "totals of " + ", ".join(checked)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "dump":
        dump(sys.argv[2])
        return 0
    if len(sys.argv) >= 4 and sys.argv[1] == "sums":
        check = lambda path: check_sums(sys.argv[2], path)
        files = sys.argv[3:]
    elif len(sys.argv) >= 5 and sys.argv[1] == "go":
        check = lambda path: check_go(sys.argv[2], sys.argv[3], path)
        files = sys.argv[4:]
    else:
        sys.exit(__doc__)
    failed = 0
    for path in files:
        name = os.path.basename(path)
        try:
            result = check(path)
            print("OK %s: %s" % (name, result or "no tree, skipped"))
        except (RuntimeError, ValueError, OSError) as e:
            failed += 1
            print("FAIL %s: %s" % (name, e))
    print("%d files, %d failed" % (len(files), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""The flame graph's checks for check_page.py.

The page's flame graph is the peak's tree inverted, outermost frames at
the top, with sibling frames of one function merged (their bytes added,
their callees merged in turn), as the collapsed export names frames. This
module computes that graph from the JSON export on its own and holds the
page's frames against it:
  - every frame drawn is at its path (found from the frames' geometry:
    a callee lies within its caller) with that path's bytes, no two
    siblings share a name, and every frame of the model wide enough to
    draw is drawn;
  - each frame is as wide as its bytes, its callees lie within it, and
    the top row fills the root, whose bytes are the snapshot's heap;
  - the tooltip of a merged frame lists its call sites with their bytes;
  - with --merged FUNCTION N, the top row holds one FUNCTION frame, as
    wide as the N call sites of FUNCTION in the tree together.

The graphs of the site statistics (calls, temporary allocations, leaked
bytes, bytes asked for) are the sites' stacks inverted and merged the same
way; site_model computes them, with each frame's figures for its tooltip,
and FlameChecks holds the page to them as to the peak's (sites_checks.py).
"""
BELOW_THRESHOLD = "(below threshold)"
# As the page's TIP_SITES: call sites a tooltip lists.
TIP_SITES = 12
# Merged frames whose tooltips are checked, widest first.
TIPS_CHECKED = 4


class FlameMismatch(Exception):
    pass


def check(cond, what):
    if not cond:
        raise FlameMismatch(what)


def frame_key(frame):
    """The page's frameKey: what sibling frames merge on."""
    if frame["kind"] == "insignificant":
        return BELOW_THRESHOLD
    if frame["kind"] == "root":
        return frame["text"][:frame["text"].index(")") + 1] if frame["text"].startswith("(") else frame["text"]
    if frame["kind"] != "code":
        return frame["text"]
    if frame["function"] == "???" and frame.get("object"):
        return "??? (in %s)" % frame["object"]
    return frame["function"]


def walk(tree):
    """Every node of a JSON tree with its parent, depth first."""
    stack = [(tree, None)]
    while stack:
        node, parent = stack.pop()
        yield node, parent
        for c in node.get("children", []):
            stack.append((c, node))


def model(tree, frames):
    """{path: {"bytes": B, "sites": {frame index: bytes}}} for each frame
    of the merged flame graph, path being the keys from the top; the root
    is the empty path."""
    parents = {id(n): p for n, p in walk(tree)}
    out = {(): {"bytes": tree["bytes"], "sites": {}, "nodes": 0, "places": 0}}
    for node, _ in walk(tree):
        own = node["bytes"] - sum(c["bytes"] for c in node.get("children", []))
        if own <= 0:
            continue
        # Up to the root's child; the root's own bytes are a frame of their own.
        up = []
        n = node
        while parents[id(n)] is not None:
            up.append(n)
            n = parents[id(n)]
        path = ()
        for n in up or [node]:
            path += (frame_key(frames[n["frame"]]),)
            f = out.setdefault(path, {"bytes": 0, "sites": {}, "nodes": 0, "places": 0})
            f["bytes"] += own
            f["sites"][n["frame"]] = f["sites"].get(n["frame"], 0) + own
            # A node below the threshold is a leaf, merged as a node.
            if n is node and frames[n["frame"]]["kind"] == "insignificant":
                f["nodes"] += 1
                f["places"] += frames[n["frame"]]["places"]
    return out


SITE_FIGURES = ["calls", "bytes", "temporary", "temporary_bytes",
                "leaked_blocks", "leaked_bytes"]


def site_model(sites, frames, field):
    """The model of the sites' flame graph whose widths are each site's
    field ("calls", ...): sites whose field is 0 are left out, but with
    field None every site is in (with no width), for the figures of any
    stack. A frame also has "fig", its sites' figures added up."""
    def fresh():
        return {"bytes": 0, "sites": {}, "nodes": 0, "places": 0,
                "fig": dict.fromkeys(SITE_FIGURES, 0)}
    out = {(): fresh()}
    for site in sites["list"]:
        v = site[field] if field else 0
        if field and not v:
            continue
        on = [out[()]]
        path = ()
        for f in reversed(site["frames"]):
            path += (frame_key(frames[f]),)
            w = out.setdefault(path, fresh())
            w["sites"][f] = w["sites"].get(f, 0) + v
            on.append(w)
        for w in on:
            w["bytes"] += v
            for k in SITE_FIGURES:
                w["fig"][k] += site[k]
    return out


def callees(want):
    """{path: [bytes of each callee]} of a model."""
    out = {}
    for p, w in want.items():
        if p:
            out.setdefault(p[:-1], []).append(w["bytes"])
    return out


# The frames as placed: left and width in the graph (a frame narrower
# than its padding and borders is drawn wider than it is placed).
DOM = """[...document.querySelectorAll('#flame .fl')].map((d, i) => ({
  i, key: d.dataset.key, bytes: +d.dataset.bytes, depth: +d.dataset.depth,
  x: parseFloat(d.style.left), width: parseFloat(d.style.width), text: d.textContent}))"""


def dom_paths(dom):
    """Each drawn frame's path, its caller being the frame one row up
    that spans its left edge."""
    by_depth = {}
    for d in dom:
        by_depth.setdefault(d["depth"], []).append(d)
    roots = by_depth.get(0, [])
    check(len(roots) == 1, "%d root frames" % len(roots))
    roots[0]["path"] = ()
    for depth in sorted(by_depth)[1:]:
        for d in by_depth[depth]:
            up = [p for p in by_depth.get(depth - 1, [])
                  if p["x"] - 0.01 <= d["x"] < p["x"] + p["width"] - 0.5]
            check(len(up) == 1, "frame %r at depth %d lies under %d callers"
                  % (d["key"], depth, len(up)))
            check("path" in up[0], "frame %r has no path" % d["key"])
            d["path"] = up[0]["path"] + (d["key"],)
            d["caller"] = up[0]["i"]
    return roots[0]


class FlameChecks:
    """The checks, on a PageChecks (check_page.py) whose flame graph shows
    the snapshot SNAP; or, given WANT (site_model) and TOTAL, a graph of the
    site statistics (SNAP None)."""

    def __init__(self, page_checks, snap, want=None, total=None):
        self.c = page_checks
        self.snap = snap
        self.want = want if want is not None else model(snap["tree"], page_checks.frames)
        self.total = total if total is not None else snap["tree"]["bytes"]

    def frames_at_paths(self):
        dom = self.c.js(DOM)
        root = dom_paths(dom)
        width = root["width"]
        total = self.total
        check(root["bytes"] == total, "flame root %d, its total %d" % (root["bytes"], total))
        if self.snap is not None:
            check(total == self.snap["mem_heap_B"],
                  "flame root %d B, mem_heap_B %d" % (root["bytes"], self.snap["mem_heap_B"]))
        seen = set()
        for d in dom:
            check(d["path"] not in seen, "two frames at %r: siblings not merged" % (d["path"],))
            seen.add(d["path"])
            w = self.want.get(d["path"])
            check(w is not None, "frame at %r is not in the model" % (d["path"],))
            check(d["bytes"] == w["bytes"], "frame at %r has %d, the model %d"
                  % (d["path"], d["bytes"], w["bytes"]))
        px = width / total if total else 0
        missing = [p for p, w in self.want.items() if w["bytes"] * px >= 1.01 and p not in seen]
        for p in missing[:5]:
            print("  missing", p[-1][:80], self.want[p]["bytes"])
        check(not missing, "%d frames of the model missing from the flame graph" % len(missing))
        return dom, root, px

    def widths(self, dom, root, px):
        """Widths by bytes; callees within their caller; the top row sums
        to the root."""
        kids = {}
        want_kids = callees(self.want)
        for d in dom:
            check(abs(d["width"] - (root["width"] if d is root else d["bytes"] * px)) < 0.02,
                  "frame at %r is %.2f px wide for %d B" % (d["path"], d["width"], d["bytes"]))
            if d is not root:
                kids.setdefault(d["caller"], []).append(d)
        for d in dom:
            under = kids.get(d["i"], [])
            drawn = sum(k["width"] for k in under)
            check(all(d["x"] - 0.01 <= k["x"] and k["x"] + k["width"] <= d["x"] + d["width"] + 0.1
                      for k in under), "a callee of %r sticks out" % (d["path"],))
            # Callees under 1 px are not drawn: the gap is at most theirs.
            model_kids = want_kids.get(d["path"], [])
            check(sum(model_kids) <= d["bytes"], "callees of %r hold more than it" % (d["path"],))
            undrawn = len(model_kids) - len(under)
            check(sum(model_kids) * px - drawn <= undrawn + 0.2,
                  "callees of %r fill %.2f px of %.2f" % (d["path"], drawn, sum(model_kids) * px))
        top = [w["bytes"] for p, w in self.want.items() if len(p) == 1]
        check(sum(top) == root["bytes"], "the top row holds %d B, the root %d B" % (sum(top), root["bytes"]))
        return sum(k["width"] for k in kids.get(root["i"], []))

    def tooltip(self, d):
        """Hovers frame d; the tooltip's title and listed call sites."""
        # Off the graph and out of it: the last tooltip goes.
        self.c.js("document.activeElement && document.activeElement.blur()")
        self.c.page.hover(1, 1)
        self.c.page.wait_for("document.querySelector('#flame-tip').hidden")
        x, y = self.c.js("""(() => { const d = document.querySelectorAll('#flame .fl')[%d];
          d.scrollIntoView({block: 'center'}); const r = d.getBoundingClientRect();
          return [r.left + Math.min(r.width / 2, 40), r.top + r.height / 2]; })()""" % d["i"])
        self.c.page.hover(x, y)
        self.c.page.wait_for("!document.querySelector('#flame-tip').hidden")
        return self.c.js("""(() => { const t = document.querySelector('#flame-tip');
          const figs = t.querySelector('.figs');
          return {title: t.firstChild.textContent, head: (t.querySelector('.sites-head') || {}).textContent || null,
                  sites: [...t.querySelectorAll('ul.sites li')].map(li => ({frame: +li.dataset.frame,
                    bytes: +li.dataset.bytes, text: li.textContent})),
                  figs: figs ? {text: figs.textContent, values: Object.assign({}, figs.dataset)} : null}; })()""")

    def site_text(self, frame):
        f = self.c.frames[frame]
        if f["kind"] != "code":
            return f["text"]
        loc = "%s:%d" % (f["file"], f["line"]) if f.get("file") else "in " + f["object"] if f.get("object") else None
        if loc is None:
            return f["text"]
        return (f["address"] + " " if f.get("address") else "") + loc

    def tooltip_sites(self, d):
        """The tooltip of a merged frame lists its call sites, largest
        first, each with its address, file:line and bytes."""
        w = self.want[d["path"]]
        tip = self.tooltip(d)
        want = sorted(w["sites"].items(), key=lambda s: (-s[1], s[0]))[:TIP_SITES]
        got = [(s["frame"], s["bytes"]) for s in tip["sites"]]
        check(got == want, "tooltip of %r lists %s, want %s" % (d["path"], got, want))
        for s in tip["sites"]:
            text = self.site_text(s["frame"])
            check(s["text"].startswith(text + ", "), "tooltip site %r, want %r" % (s["text"], text))
        merged = w["nodes"] if d["key"] == BELOW_THRESHOLD else len(w["sites"])
        check(tip["head"] and tip["head"].startswith("%d " % merged),
              "tooltip heading %r for %d merged" % (tip["head"], merged))
        return tip

    def run(self):
        """All the checks but --merged's; lines for the log."""
        self.c.js("document.querySelector('#flame').scrollIntoView({block: 'start'})")
        dom, root, px = self.frames_at_paths()
        top = self.widths(dom, root, px)
        lines = ["flame graph of peak snapshot %d: root %d B, all %d frames of 1 px or more at their paths "
                 "with their bytes, siblings merged by function"
                 % (self.snap["snapshot"], root["bytes"], len(dom) - 1),
                 "flame graph widths: by bytes, callees within their caller, the top row %.1f of %.1f px"
                 % (top, root["width"])]
        merged = sorted((d for d in dom if d is not root and len(self.want[d["path"]]["sites"]) > 1),
                        key=lambda d: -d["width"])[:TIPS_CHECKED]
        for d in merged:
            self.tooltip_sites(d)
        self.c.page.hover(1, 1)
        lines.append("flame graph tooltips: %s" % (
            "%d merged frames list their call sites" % len(merged) if merged else "no merged frame"))
        lines += self.below_threshold(dom)
        return lines

    def below_threshold(self, dom):
        """Nodes below the threshold merged: their places added up in the
        label (when it is wide enough to have one)."""
        out = []
        for d in dom:
            w = self.want.get(d["path"])
            if d["key"] != BELOW_THRESHOLD or w["nodes"] < 2 or not d["text"]:
                continue
            first = self.c.frames[min(w["sites"])]["text"]
            pct = first[first.rindex("("):] if first.endswith("%)") else ""
            want = "in {:,} places, all below massif's threshold{}".format(w["places"], " " + pct if pct else "")
            check(d["text"] == want, "below-threshold frame %r, want %r" % (d["text"], want))
            out.append("flame graph: %d nodes below the threshold merged, %r" % (w["nodes"], d["text"]))
        return out

    def one_frame(self, function, count):
        """One FUNCTION frame in the top row, as wide as its COUNT call
        sites together, which its tooltip lists."""
        self.c.js("document.querySelector('#flame').scrollIntoView({block: 'start'})")
        dom = self.c.js(DOM)
        root = dom_paths(dom)
        ones = [d for d in dom if d["key"] == function]
        check(len(ones) == 1 and ones[0]["depth"] == 1,
              "%d %r frames, at depths %s" % (len(ones), function, [d["depth"] for d in ones]))
        nodes = [n for n, p in walk(self.snap["tree"]) if p is not None
                 and self.c.frames[n["frame"]].get("function") == function]
        sites = {n["frame"] for n in nodes}
        check(len(sites) == count, "the tree has %r at %d call sites, not %d" % (function, len(sites), count))
        want = sum(n["bytes"] for n in nodes)
        d = ones[0]
        px = root["width"] / self.snap["tree"]["bytes"]
        check(d["bytes"] == want and abs(d["width"] - want * px) < 0.02,
              "%r frame: %d B, %.2f px; its sites %d B, %.2f px" % (function, d["bytes"], d["width"], want,
                                                                      want * px))
        tip = self.tooltip_sites(d)
        check(tip["title"] == function, "tooltip title %r" % tip["title"])
        check({s["frame"] for s in tip["sites"]} == sites, "tooltip sites %s" % tip["sites"])
        self.c.page.hover(1, 1)
        per_site = sorted((s["bytes"] for s in tip["sites"]), reverse=True)
        return "flame graph: one %r frame, %d B = its %d call sites (%s), listed in its tooltip" % (
            function, want, count, " + ".join(str(b) for b in per_site))

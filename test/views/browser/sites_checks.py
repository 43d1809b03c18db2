"""The site statistics' checks for check_page.py.

With site statistics in the profile's JSON ("sites"), the page has a flame
graph of each of their figures and a section of the top sites. This
module works out what they must show from the JSON alone and holds the
page to it, with real clicks, hovers and keys:
  - each flame graph (calls, temporary allocations, leaked bytes, bytes
    asked for): every frame at its path with its figure (the sites'
    stacks inverted, siblings of one function merged: flame_checks'
    site_model), the widths, a root equal to the total: line's figure, so
    the top row's widths add up to it; the call sites in the tooltips of
    merged frames; each frame's figures (calls, bytes, temporary, leaked)
    in its tooltip, as the peak's frames have those of their stack;
  - the tables of the top sites by each figure and by bytes at the peak:
    the rows, their order and their numbers;
  - a click on a site (and Enter on another) shows its figures and stack;
  - the sizes asked for, bucket by bucket.
Without site statistics the page must say so, offer only the peak's
graph and stacks, and still work. Screenshots: sites.png and
flame-<figure>.png.
"""
from flame_checks import (DOM, SITE_FIGURES, TIPS_CHECKED, FlameChecks, FlameMismatch,
                          dom_paths, site_model)

# The flame graph's site metrics: the page's name and the JSON's figure.
METRICS = [("calls", "calls"), ("temporary", "temporary"),
           ("leaked", "leaked_bytes"), ("bytes", "bytes")]
NAMES = {"calls": "calls", "temporary": "temporary allocations", "leaked": "leaked bytes",
         "bytes": "bytes asked for", "peak": "bytes at the peak"}
# The tables: the page's tab, the figure sorted by, then the tie.
TABS = [("calls", "calls", "bytes"), ("temporary", "temporary", "temporary_bytes"),
        ("leaked", "leaked_bytes", "leaked_blocks"), ("bytes", "bytes", None)]
# As the page's SITE_TOP.
SITE_TOP = 20
FIGURES_CHECKED = 3


def check(cond, what):
    if not cond:
        raise FlameMismatch(what)


def camel(key):
    head, *rest = key.split("_")
    return head + "".join(r.capitalize() for r in rest)


def peak_stacks(snap):
    """The page's peak stacks: each node with own bytes below the root, its
    frames from the root's child down, in the page's order (preorder,
    children by bytes, stable)."""
    out = []
    stack = [(snap["tree"], ())]
    while stack:
        node, path = stack.pop()
        kids = sorted(node.get("children", []), key=lambda c: -c["bytes"])
        own = node["bytes"] - sum(c["bytes"] for c in kids)
        if own > 0 and path:
            out.append((path, own))
        for c in reversed(kids):
            stack.append((c, path + (c["frame"],)))
    return out


class SitesChecks:
    def __init__(self, page_checks):
        self.c = page_checks
        self.prof = page_checks.prof
        self.sites = self.prof["sites"]
        self.frames = page_checks.frames
        self.shots = []
        snaps = self.prof["snapshots"]
        number = self.c.js("massifPage.flameSnapshot()")
        self.snap = next((s for s in snaps if s["snapshot"] == number), None)
        self.peak = peak_stacks(self.snap) if self.snap else []
        self.peak_of = {p: b for p, b in self.peak}
        self.site_of = {tuple(s["frames"]): i for i, s in enumerate(self.sites["list"])} if self.sites else {}

    def js(self, expr):
        return self.c.js(expr)

    def shot(self, name, section):
        path = self.c.shot(name, section)
        self.c.png(name, path)
        self.shots.append(self.c.shots[-1])

    def run(self):
        lines = []
        if self.sites is None:
            lines += self.without()
        else:
            lines += self.facts()
            for metric, field in METRICS:
                lines += self.flame(metric, field)
            lines += self.peak_figures()
            self.c.page.click_element('#flame-metrics button[data-metric="calls"]')
            self.js("document.querySelector('#flame').focus()")
            self.shot("flame-calls.png", "#flame-section")
            self.c.page.click_element('#flame-metrics button[data-metric="peak"]')
            lines += self.tables()
            lines += self.detail()
            lines += self.sizes()
        self.shot("sites.png", "#sites-section")
        lines.append("sites screenshots: " + ", ".join(self.shots))
        return lines

    # ------------------------------------------------------------ Facts.
    def facts(self):
        t = self.sites["total"]
        text = self.js("document.querySelector('#sites-facts').textContent")
        want = "{:,}".format(t["calls"])
        check(want in text, "the facts %r lack the calls %s" % (text, want))
        buttons = self.js("[...document.querySelectorAll('#flame-metrics button')].map(b => [b.dataset.metric, b.disabled])")
        check(all(not off for m, off in buttons if m != "peak"), "a site metric is disabled: %s" % buttons)
        return ["sites: %d, %d calls, %d temporary, %d bytes leaked in %d blocks, said above the tables"
                % (len(self.sites["list"]), t["calls"], t["temporary"], t["leaked_bytes"], t["leaked_blocks"])]

    # ------------------------------------------------------- The graphs.
    def flame(self, metric, field):
        self.c.page.click_element('#flame-metrics button[data-metric="%s"]' % metric)
        check(self.js("massifPage.flameMetric()") == metric, "the flame graph is not of the %s" % metric)
        total = self.sites["total"][field]
        if not total:
            state = self.js("[document.querySelector('#flame').hidden, document.querySelector('#flame-info').textContent]")
            check(state[0] and "No site has any" in state[1], "flame graph of no %s: %s" % (metric, state))
            return ["flame graph of the %s: none, the page says '%s'" % (NAMES[metric], state[1])]
        want = site_model(self.sites, self.frames, field)
        check(want[()]["bytes"] == total, "the sites' %s add up to %d, the total: line says %d"
              % (field, want[()]["bytes"], total))
        fc = FlameChecks(self.c, None, want=want, total=total)
        self.js("document.querySelector('#flame').scrollIntoView({block: 'start'})")
        dom, root, px = fc.frames_at_paths()
        top = fc.widths(dom, root, px)
        merged = sorted((d for d in dom if d is not root and len(want[d["path"]]["sites"]) > 1),
                        key=lambda d: -d["width"])[:TIPS_CHECKED]
        for d in merged:
            fc.tooltip_sites(d)
        figured = sorted((d for d in dom if d is not root), key=lambda d: -d["width"])[:FIGURES_CHECKED]
        for d in figured:
            tip = fc.tooltip(d)
            self.check_figures(tip, want[d["path"]]["fig"], d["path"])
        self.c.page.hover(1, 1)
        return ["flame graph of the %s: root %d = the total: line's %s, all %d frames of 1 px or more at their "
                "paths with their figures, siblings merged by function" % (NAMES[metric], root["bytes"], field,
                                                                           len(dom) - 1),
                "flame graph of the %s: widths by the figure, the top row %.1f of %.1f px; tooltips: %d merged "
                "frames list their call sites, %d frames give their figures" % (
                    NAMES[metric], top, root["width"], len(merged), len(figured))]

    def check_figures(self, tip, fig, path):
        check(tip["figs"] is not None, "no figures in the tooltip of %r" % (path,))
        got = {k: int(tip["figs"]["values"][camel(k)]) for k in SITE_FIGURES}
        check(got == fig, "tooltip of %r: figures %s, want %s" % (path, got, fig))

    def peak_figures(self):
        """The peak's frames give the figures of their stack of functions."""
        if not self.snap:
            return []
        self.c.page.click_element('#flame-metrics button[data-metric="peak"]')
        every = site_model(self.sites, self.frames, None)
        fc = FlameChecks(self.c, self.snap)
        self.js("document.querySelector('#flame').scrollIntoView({block: 'start'})")
        dom = self.js(DOM)
        root = dom_paths(dom)
        some = sorted((d for d in dom if d is not root), key=lambda d: -d["width"])[:FIGURES_CHECKED]
        found = 0
        for d in some:
            tip = fc.tooltip(d)
            if d["path"] in every:
                self.check_figures(tip, every[d["path"]]["fig"], d["path"])
                found += 1
            else:
                check(tip["figs"] and "no site has this stack" in tip["figs"]["text"],
                      "tooltip of %r: %r" % (d["path"], tip["figs"]))
        self.c.page.hover(1, 1)
        return ["flame graph of the peak: %d frames give their stack's figures over the run (%d with none)"
                % (found, len(some) - found)]

    # ------------------------------------------------------- The tables.
    def rows(self):
        return self.js("""[...document.querySelectorAll('#sites-table tbody tr')].map(tr => ({
            site: +tr.dataset.site, value: +tr.dataset.value,
            cells: [...tr.cells].map(td => td.textContent)}))""")

    def want_rows(self, tab):
        if tab == "peak":
            order = sorted(enumerate(self.peak), key=lambda kp: (-kp[1][1], kp[0]))
            return [(self.site_of.get(p, -1), b) for _, (p, b) in order]
        _, field, tie = next(t for t in TABS if t[0] == tab)
        sites = self.sites["list"] if self.sites else []
        keep = [(i, s) for i, s in enumerate(sites) if s[field] or (tie and s[tie])]
        keep.sort(key=lambda x: (-x[1][field], -(x[1][tie] if tie else 0), x[0]))
        return [(i, s[field]) for i, s in keep]

    def table(self, tab):
        self.c.page.click_element('#sites-tabs button[data-tab="%s"]' % tab)
        check(self.js("document.querySelector('#sites-table').dataset.tab") == tab, "tab %s not shown" % tab)
        got = self.rows()
        want = self.want_rows(tab)
        check([(r["site"], r["value"]) for r in got] == want[:SITE_TOP],
              "table by %s: %s, want %s" % (tab, [(r["site"], r["value"]) for r in got], want[:SITE_TOP]))
        more = self.js("document.querySelector('#sites-more').textContent")
        if len(want) > SITE_TOP:
            check(("of {:,}".format(len(want))) in more, "no 'of %d' in %r" % (len(want), more))
        # The figures of each row's site in its cells.
        for r in got:
            if r["site"] < 0:
                continue
            s = self.sites["list"][r["site"]]
            check(r["cells"][2] == "{:,}".format(s["calls"]) and r["cells"][3] == "{:,}".format(s["temporary"]),
                  "row of site %d: %s" % (r["site"], r["cells"]))
        return got, want

    def tables(self):
        lines = []
        for tab, _, _ in TABS + [("peak", None, None)]:
            if tab == "peak" and not self.snap:
                continue
            got, want = self.table(tab)
            lines.append("sites by %s: %d of %d in the table, in order, with their figures"
                         % (NAMES[tab], len(got), len(want)))
        return lines

    # ------------------------------------------------------- A site's figures.
    def shown_detail(self):
        return self.js("""(() => { const d = document.querySelector('#site-detail');
          return {hidden: d.hidden, site: +d.dataset.site,
                  figs: Object.fromEntries([...d.querySelectorAll('dd[data-key]')].map(dd => [dd.dataset.key,
                    dd.dataset.value === undefined ? null : +dd.dataset.value])),
                  stack: [...d.querySelectorAll('ol.stack li')].map(li => li.firstChild.textContent),
                  text: d.textContent}; })()""")

    def check_detail(self, site, frames_):
        d = self.shown_detail()
        check(not d["hidden"] and d["site"] == site, "the detail shows %s, not site %d" % (d["site"], site))
        check(d["stack"] == [self.frames[f]["text"] for f in frames_], "detail stack %s" % d["stack"])
        if site >= 0:
            s = self.sites["list"][site]
            for k in SITE_FIGURES:
                check(d["figs"].get(k) == s[k], "detail of site %d: %s %s, want %d" % (site, k, d["figs"].get(k), s[k]))
        if self.snap:
            check(d["figs"]["peak_bytes"] == self.peak_of.get(tuple(frames_), 0),
                  "detail: at the peak %s, want %s" % (d["figs"]["peak_bytes"], self.peak_of.get(tuple(frames_), 0)))
        return d

    def detail(self):
        lines = []
        for tab, _, _ in TABS + [("peak", None, None)]:
            if tab == "peak" and not self.snap:
                continue
            self.c.page.click_element('#sites-tabs button[data-tab="%s"]' % tab)
            rows = self.want_rows(tab)
            if not rows:
                continue
            k = min(len(rows), SITE_TOP) - 1 if tab == "bytes" else 0
            self.c.page.click_element('#sites-table tbody tr:nth-child(%d)' % (k + 1))
            site = rows[k][0]
            frames_ = self.sites["list"][site]["frames"] if site >= 0 else \
                sorted(enumerate(self.peak), key=lambda kp: (-kp[1][1], kp[0]))[k][1][0]
            self.check_detail(site, frames_)
            lines.append("sites by %s: a click on row %d shows %s's figures and stack" % (
                NAMES[tab], k + 1, "site %d" % site if site >= 0 else "a stack of the peak, in no site,"))
        # The keys: Down to the second row, Enter.
        self.c.page.click_element('#sites-tabs button[data-tab="calls"]')
        rows = self.want_rows("calls")
        if len(rows) > 1:
            self.js("document.querySelector('#sites-table tbody tr').focus()")
            self.c.page.key("ArrowDown", key_code=40)
            self.c.page.key("Enter", key_code=13)
            self.check_detail(rows[1][0], self.sites["list"][rows[1][0]]["frames"])
            lines.append("sites by calls: Down and Enter show the second site's figures")
        return lines

    # ------------------------------------------------------- The sizes.
    def sizes(self):
        got = self.js("[...document.querySelectorAll('#sizes .size-row')].map(r => [+r.dataset.min, +r.dataset.max, +r.dataset.calls])")
        sizes = self.sites["sizes"]
        first = next((k for k, b in enumerate(sizes) if b["calls"]), None)
        want = [] if first is None else [[b["min"], b["max"], b["calls"]] for b in sizes[first:]]
        check(got == want, "sizes %s, want %s" % (got, want))
        return ["sizes asked for: %d buckets from %s bytes, %d calls" % (
            len(got), want[0][0] if want else "-", sum(b["calls"] for b in sizes))]

    # ------------------------------------------------------- Without.
    def without(self):
        info = self.js("document.querySelector('#sites-info').textContent")
        check("No site statistics" in info, "no word of the missing statistics: %r" % info)
        buttons = self.js("[...document.querySelectorAll('#flame-metrics button')].map(b => [b.dataset.metric, b.disabled])")
        check(all(off for m, off in buttons if m != "peak"), "site metrics offered without statistics: %s" % buttons)
        sizes = self.js("document.querySelector('#sizes').textContent")
        check("No site statistics" in sizes, "sizes say %r" % sizes)
        line = "sites: none beside the profile, the page says so; the graphs of their figures are off"
        if self.snap:
            got, want = self.table("peak")
            self.c.page.click_element('#sites-table tbody tr:nth-child(1)')
            d = self.check_detail(-1, sorted(enumerate(self.peak), key=lambda kp: (-kp[1][1], kp[0]))[0][1][0])
            check("No site statistics" in d["text"] or "threshold" in d["text"], "detail: %r" % d["text"])
            line += "; the peak's %d stacks in the table, a click shows one" % len(want)
        return [line]

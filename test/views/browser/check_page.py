#!/usr/bin/env python3
"""Checks ms_print's HTML page in a real (headless) Chromium.

    check_page.py --chromium PATH --ms-print PATH --out DIR
                  [--shorten FULL SHORT] [--merged FUNCTION N] [--big]
                  [--docs DIR] [--docs-sites DIR] PROFILE[::FIND]...

For each massif.out PROFILE it writes the page (ms_print --html), the JSON
export and ms_print's report, loads the page from a file:// URL and, with
real mouse clicks and typed text:
  - checks the page loads with no console error and no exception;
  - checks the selected snapshot is the peak (the JSON's, and ms_print's
    "(peak)" when the report marks one);
  - clicks another detailed snapshot on the graph and checks its tree (root
    bytes = mem_heap_B, children by bytes); on a normal one checks the "no
    tree" message and follows its link to the nearest detailed snapshot;
  - types FIND into the search box: the count equals the nodes whose text
    holds it, they are highlighted and shown; a nonsense string finds 0;
  - checks the flame graph against the peak's tree inverted, sibling
    frames of one function merged (flame_checks.py: every frame at its
    path with its bytes and width, the tooltips of merged frames), zooms
    in and out by clicking;
  - with --merged FUNCTION N, checks the flame graph has one FUNCTION
    frame, the N call sites of FUNCTION in the peak's tree together;
  - with --shorten, ticks "Shorten C++ names" and checks FULL shows as SHORT;
  - saves loaded.png, tree.png, search.png and flame.png in DIR/<profile>/
    and checks they are valid, non-empty PNGs;
  - checks the site statistics' views (sites_checks.py): with statistics
    beside the profile, a flame graph of each of their figures, the tables
    of the top sites, a site's figures on a click, the sizes; without, that
    the page says so; saves sites.png (and flame-calls.png).
--big only loads the page (no errors, the peak selected, few DOM nodes).
--docs DIR also writes the user guide's screenshots of the first profile;
--docs-sites DIR those of its site statistics.
Prints one line per check; exits non-zero on the first failure.
"""
import argparse
import json
import os
import re
import struct
import subprocess
import sys
import zlib

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cdp  # noqa: E402
from flame_checks import FlameChecks, FlameMismatch, frame_key, walk  # noqa: E402
from sites_checks import SitesChecks  # noqa: E402

WIDTH, HEIGHT = 1200, 800
NONSENSE = "zq#no-such-frame#xv"


class CheckFailed(Exception):
    pass


def check(cond, what):
    if not cond:
        raise CheckFailed(what)


def run(cmd, out_path=None):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise CheckFailed("%s failed (%d): %s" % (" ".join(cmd), r.returncode,
                                                 r.stderr.decode(errors="replace")))
    if out_path:
        with open(out_path, "wb") as f:
            f.write(r.stdout)
    return r.stdout


# ------------------------------------------------------------------ PNG.
def png_size(path):
    """(width, height) of a valid PNG with at least two colours."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", path + " is not a PNG")
    pos, idat, ihdr = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        check(zlib.crc32(kind + body) == crc, path + ": bad CRC in " + kind.decode())
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
        if kind == b"IEND":
            break
    check(ihdr is not None and kind == b"IEND", path + ": no IHDR or IEND")
    width, height, depth, colour = ihdr[:4]
    check(width > 0 and height > 0 and depth == 8, path + ": odd header")
    channels = {2: 3, 6: 4, 0: 1, 4: 2}[colour]
    raw = zlib.decompress(idat)
    stride = 1 + width * channels
    check(len(raw) == height * stride, path + ": pixel data of the wrong size")
    # Not blank: the rows' bytes (less the filter byte) are not all alike.
    rows = {raw[r * stride + 1:(r + 1) * stride] for r in range(0, height, 7)}
    check(len(rows) > 1 or len(set(next(iter(rows)))) > channels,
          path + " is blank")
    return width, height


# ------------------------------------------------------------ Profiles.
def peak_in_report(report):
    m = re.search(rb"Detailed snapshots: \[([^\]]*)\]", report)
    if not m:
        return None
    p = re.search(rb"(\d+) \(peak\)", m.group(1))
    return int(p.group(1)) if p else None


# ---------------------------------------------------------------- Page.
def shoot(page, path, section=None, beyond=False, height=HEIGHT):
    """A screenshot of the viewport scrolled to the top, or to the top of
    the section (an element selector) as far as the page scrolls. With
    beyond, the section's top is the image's top even at the page's end."""
    top = 0
    if section:
        top = page.evaluate("Math.max(0, Math.round(document.querySelector(%s).getBoundingClientRect().top"
                            " + window.scrollY - 8))" % json.dumps(section))
    if beyond or height != HEIGHT:
        height = min(height, page.evaluate("document.documentElement.scrollHeight") - top)
        page.settle(0.05)
        return page.screenshot(path, clip={"x": 0, "y": top, "width": WIDTH, "height": height},
                               full_page=True)
    page.evaluate("window.scrollTo(0, %d)" % top)
    page.settle(0.02)
    return page.screenshot(path)


class PageChecks:
    def __init__(self, page, name, out_dir, prof):
        self.page, self.name, self.out, self.prof = page, name, out_dir, prof
        self.snaps = prof["snapshots"]
        self.frames = prof["frames"]

    def say(self, text):
        print("%s: %s" % (self.name, text))
        sys.stdout.flush()

    def js(self, expr):
        return self.page.evaluate(expr)

    def no_errors(self, when):
        self.page.settle(0.05)
        check(not self.page.exceptions, "%s: exceptions %s" % (when, self.page.exceptions))
        check(not self.page.console_errors,
              "%s: console errors %s" % (when, self.page.console_errors))

    def shot(self, file, section=None):
        path = os.path.join(self.out, file)
        shoot(self.page, path, section)
        return path

    def selected(self):
        return self.js("massifPage.selected()")

    def tree_root(self):
        return self.js("""(() => {
          const li = document.querySelector('#tree > li[role=treeitem]');
          if (!li) return null;
          const kids = [...li.querySelectorAll(':scope > ul > li > .row')].map(r => +r.dataset.bytes);
          return {bytes: +li.firstChild.dataset.bytes, kids,
                  shown: document.querySelector('#snap-info').dataset.snapshot};
        })()""")

    def index_of(self, number):
        return next(i for i, s in enumerate(self.snaps) if s["snapshot"] == number)

    def check_tree_of(self, index):
        s = self.snaps[index]
        root = self.tree_root()
        check(root is not None, "no tree shown for snapshot %d" % s["snapshot"])
        check(int(root["shown"]) == s["snapshot"], "tree title is %s, not %d" % (root["shown"], s["snapshot"]))
        check(root["bytes"] == s["mem_heap_B"], "tree root %d B, mem_heap_B %d" % (root["bytes"], s["mem_heap_B"]))
        want = sorted((c["bytes"] for c in s["tree"].get("children", [])), reverse=True)
        check(root["kids"] == want, "root's children %s, want %s" % (root["kids"], want))
        return root

    def loaded(self, report_peak):
        self.no_errors("loading")
        shown = self.js("[document.querySelector('#head-cmd').textContent,"
                        " document.querySelector('#facts dd:nth-of-type(2)').textContent]")
        check(shown == [self.prof["cmd"], self.prof["desc"]],
              "the header shows %r, the profile says %r" % (shown, [self.prof["cmd"], self.prof["desc"]]))
        self.say("loaded, %d snapshots, no console errors or exceptions" % len(self.snaps))
        if not self.snaps:
            check(self.selected() is None, "a snapshot is selected in an empty profile")
            says = self.js("[document.querySelector('#graph-empty').checkVisibility(),"
                           " document.querySelector('#graph-empty').textContent,"
                           " document.querySelector('#tree').textContent]")
            check(says[0] and "no snapshots" in says[1] and "no snapshots" in says[2],
                  "no 'no snapshots' message: %s" % says)
            self.say("no snapshot: the graph and the tree say '%s'" % says[1])
            self.png("loaded.png", self.shot("loaded.png"))
            return
        peak = self.snaps[self.prof["peak"]]["snapshot"]
        check(self.selected() == peak, "selected %s, peak %d" % (self.selected(), peak))
        if report_peak is not None:
            check(report_peak == peak, "ms_print's peak %d, JSON's %d" % (report_peak, peak))
        self.say("peak snapshot %d selected (ms_print: %s)" % (
            peak, "%d (peak)" % report_peak if report_peak is not None else "no (peak) mark"))
        if self.snaps[self.prof["peak"]].get("tree"):
            self.check_tree_of(self.prof["peak"])
        self.png("loaded.png", self.shot("loaded.png"))

    def png(self, file, path):
        w, h = png_size(path)
        self.shots.append("%s %dx%d" % (file, w, h))

    def pick_target(self):
        """A snapshot to click: a detailed one other than the peak, else a
        normal one clear of the detailed ones; its point, and its kind."""
        n = len(self.snaps)
        xs = self.js("Array.from({length: %d}, (_, i) => massifPage.pointOf(i))" % n)
        det = [i for i in range(n) if self.snaps[i].get("tree")]

        def clear(i, others, gap):
            return all(abs(xs[i][0] - xs[j][0]) >= gap for j in others if j != i)

        for i in det:
            if i != self.prof["peak"] and clear(i, range(n), 2):
                return i, xs[i]
        for i in range(n):
            if i not in det and clear(i, range(n), 2) and clear(i, det, 7):
                return i, xs[i]
        return None, None

    def click_graph(self):
        i, _ = self.pick_target()
        if i is None:  # a single snapshot: click it again
            i = self.prof["peak"]
        self.js("document.querySelector('#graph').scrollIntoView({block: 'center'})")
        x, y = self.js("massifPage.pointOf(%d)" % i)
        self.page.click(x, y)
        s = self.snaps[i]
        check(self.selected() == s["snapshot"], "clicked snapshot %d, selected %s" % (s["snapshot"], self.selected()))
        if s.get("tree"):
            root = self.check_tree_of(i)
            self.say("clicked %s snapshot %d, tree root %d B = mem_heap_B, %d children by bytes"
                     % ("detailed" if i != self.prof["peak"] else "the only",
                        s["snapshot"], root["bytes"], len(root["kids"])))
            return
        text = self.js("document.querySelector('#tree').textContent")
        check("normal snapshot" in text and "no tree" in text or "no detailed" in text,
              "no 'no tree' message: " + text)
        det = [k for k in range(len(self.snaps)) if self.snaps[k].get("tree")]
        if not det:
            check("has no detailed snapshots" in text, "message: " + text)
            self.say("clicked normal snapshot %d: no tree, no detailed snapshot in the profile" % s["snapshot"])
            return
        near = min(det, key=lambda k: (abs(k - i), k))
        self.page.click_element("#go-detailed")
        check(self.selected() == self.snaps[near]["snapshot"], "the link went to %s, not %d"
              % (self.selected(), self.snaps[near]["snapshot"]))
        root = self.check_tree_of(near)
        self.say("clicked normal snapshot %d: no tree; its link showed detailed snapshot %d, root %d B = mem_heap_B"
                 % (s["snapshot"], self.snaps[near]["snapshot"], root["bytes"]))

    def check_keys(self):
        """Keys on the focused graph: Home the first snapshot, PageDown the
        next detailed one (or ArrowRight the next one), P back to the peak."""
        self.page.click_element("#graph-help")  # away from the graph
        self.js("document.querySelector('#graph').focus()")
        n = len(self.snaps)
        det = [i for i in range(n) if self.snaps[i].get("tree")]
        steps = [("Home", "Home", 36, 0)]
        if det:
            steps.append(("PageDown", "PageDown", 34, next((d for d in det if d > 0), 0)))
        else:
            steps.append(("ArrowRight", "ArrowRight", 39, min(1, n - 1)))
        steps.append(("p", "KeyP", 80, self.prof["peak"]))
        for key, code, vk, want in steps:
            self.page.key(key, code, vk)
            got = self.selected()
            check(got == self.snaps[want]["snapshot"], "key %s selected %s, want %d"
                  % (key, got, self.snaps[want]["snapshot"]))
        self.say("keys on the graph: " + ", ".join(
            "%s -> %d" % (k, self.snaps[w]["snapshot"]) for k, _, _, w in steps))

    def check_tree_keys(self):
        """Keys in the tree: Left closes the root, Right opens it, Down
        goes to its largest child."""
        number = self.selected()
        tree = self.snaps[self.index_of(number)].get("tree") if number is not None else None
        if not tree or not tree.get("children"):
            return
        self.js("document.querySelector('#tree > li > .row').focus()")
        state = "document.querySelector('#tree > li').getAttribute('aria-expanded')"
        self.page.key("ArrowLeft", key_code=37)
        check(self.js(state) == "false", "ArrowLeft left the root open")
        self.page.key("ArrowRight", key_code=39)
        check(self.js(state) == "true", "ArrowRight left the root closed")
        self.page.key("ArrowDown", key_code=40)
        got = self.js("+document.activeElement.dataset.bytes")
        want = max(c["bytes"] for c in tree["children"])
        check(got == want, "ArrowDown went to a row of %s B, the largest child has %d" % (got, want))
        self.say("keys in the tree: Left closes, Right opens, Down goes to the largest child")

    def search(self, text):
        self.page.click_element("#search")
        self.js("document.querySelector('#search').select()")
        self.page.key("Backspace", key_code=8)
        self.page.insert_text(text)
        want_q = text.strip().lower()
        # The count follows the box after a short debounce.
        self.page.wait_for("document.querySelector('#search-count').dataset.query === %s"
                           % json.dumps(want_q))
        count = int(self.js("document.querySelector('#search-count').dataset.count"))
        hits = self.js("""[...document.querySelectorAll('#tree .row.hit')].map(r => ({
            frame: +r.dataset.frame, visible: r.checkVisibility(),
            marked: r.querySelector('mark') ? r.querySelector('mark').textContent : null}))""")
        number = self.selected()
        tree = None if number is None else self.snaps[self.index_of(number)].get("tree")
        want = 0
        if tree:
            want = sum(1 for n, _ in walk(tree) if want_q in self.frames[n["frame"]]["text"].lower())
        check(count == want, "search %r counted %d, the tree has %d" % (text, count, want))
        check(len(hits) == min(want, 500), "search %r highlighted %d of %d" % (text, len(hits), want))
        for h in hits:
            check(want_q in self.frames[h["frame"]]["text"].lower(), "highlighted a row without %r" % text)
            check(h["visible"], "a highlighted row is hidden")
        return count, hits

    def check_search(self, find):
        count, hits = self.search(find)
        if self.selected() is not None and self.snaps[self.index_of(self.selected())].get("tree"):
            check(count > 0, "search %r found nothing" % find)
            check(any(h["marked"] and h["marked"].lower() == find.lower() for h in hits),
                  "no <mark> around %r" % find)
        self.say("search %r: %d matches, highlighted and shown" % (find, count))
        self.js("document.querySelector('.row.hit') && document.querySelector('.row.hit').scrollIntoView({block: 'center'})")
        self.png("search.png", self.shot("search.png", "#tree-section"))
        nothing, _ = self.search(NONSENSE)
        check(nothing == 0, "the nonsense string matched")
        check(self.js("document.querySelector('#search-count').textContent") in ("no match", "no tree to search"),
              "count text for no match")
        self.say("search %r: 0 matches" % NONSENSE)
        # Back to the known name, for the shorten check and the guide.
        self.search(find)

    def flame_dom(self):
        return self.js("""[...document.querySelectorAll('#flame .fl')].map(d => ({
            key: d.dataset.key, bytes: +d.dataset.bytes, depth: +d.dataset.depth,
            left: d.offsetLeft, width: d.getBoundingClientRect().width, text: d.textContent,
            title: d.getAttribute('aria-label')}))""")

    def check_flame(self):
        peak_i = self.prof["peak"]
        if peak_i is None or not any(s.get("tree") for s in self.snaps):
            if self.prof.get("sites"):
                # No peak to draw: the graph of the calls, from the sites.
                state = self.js("[massifPage.flameMetric(), document.querySelector("
                                "'#flame-metrics button[data-metric=\"peak\"]').disabled]")
                check(state == ["calls", True], "a profile without trees: flame graph %s" % state)
                self.say("flame graph: no tree for the peak's (its button is off), the calls' instead")
                return
            info = self.js("document.querySelector('#flame-info').textContent")
            check("no detailed snapshot" in info, "flame message: " + info)
            self.say("flame graph: none, '%s'" % info)
            return
        peak = self.snaps[peak_i]
        check(peak.get("tree"), "the peak has no tree")  # corpus profiles
        check(self.js("massifPage.flameSnapshot()") == peak["snapshot"], "flame is not of the peak")
        for line in FlameChecks(self, peak).run():
            self.say(line)
        dom = self.flame_dom()
        width = self.js("document.querySelector('#flame').clientWidth")
        # Zoom into the widest frame at depth 1 that has callees, then out.
        cands = [d for d in dom if d["depth"] == 1 and any(
            e["depth"] == 2 and d["left"] <= e["left"] < d["left"] + d["width"] for e in dom)]
        if cands:
            target = max(cands, key=lambda d: (d["width"] < width - 2, d["width"]))
            sel = '#flame .fl[data-depth="1"][data-key=%s]' % json.dumps(target["key"])
            self.page.click_element(sel)
            after = self.flame_dom()
            z = [d for d in after if d["depth"] == 1 and d["key"] == target["key"]]
            check(len(z) == 1 and abs(z[0]["width"] - width) < 1.5,
                  "zoomed frame spans %s of %d px" % ([d["width"] for d in z], width))
            check(all(d["depth"] != 1 or d["key"] == target["key"] for d in after), "siblings left after zoom")
            self.page.click_element('#flame .fl[data-depth="0"]')
            again = self.flame_dom()
            check(len(again) == len(dom), "zoom out: %d frames, %d before" % (len(again), len(dom)))
            self.say("flame graph: clicking a frame zooms to it, clicking the root resets")
        # The keys: focus on the root, Down to its widest callee, Enter
        # zooms to it, Escape resets.
        ones = [d for d in dom if d["depth"] == 1]
        if ones:
            widest = max(ones, key=lambda d: d["bytes"])
            self.js("document.querySelector('#flame').focus()")
            self.page.key("ArrowDown", key_code=40)
            at = self.js("[document.activeElement.dataset.depth, document.activeElement.dataset.key]")
            check(at == ["1", widest["key"]], "ArrowDown went to %s, not %r" % (at, widest["key"]))
            self.page.key("Enter", key_code=13)
            z = self.js("document.activeElement.getBoundingClientRect().width")
            check(abs(z - width) < 1.5, "Enter zoomed to %s of %d px" % (z, width))
            self.page.key("Escape", key_code=27)
            check(len(self.flame_dom()) == len(dom), "Escape did not reset the zoom")
            self.say("flame graph keys: Down to the widest callee, Enter zooms, Escape resets")

    def check_shorten(self, full, short):
        """Ticks the toggle; FULL (if in the profile) must show as SHORT."""
        have = [i for i, f in enumerate(self.frames) if f.get("function") == full]
        self.page.click_element("#shorten")
        check(self.js("document.querySelector('#shorten').checked"), "the toggle is not ticked")
        if not have:
            return
        rows = self.js("""[...document.querySelectorAll('#tree .row')].filter(r => %s.includes(+r.dataset.frame))
            .map(r => ({fn: r.querySelector('.fn').textContent, title: r.title}))""" % json.dumps(have))
        check(rows, "no tree row of %r to check" % full)
        for r in rows:
            check(r["fn"] == short, "tree shows %r, want %r" % (r["fn"], short))
            check(full in r["title"], "the tooltip lost the full name")
        keys = {frame_key(self.frames[i]) for i in have}
        fl = [d for d in self.flame_dom() if d["key"] in keys and d["text"]]
        for d in fl:
            check(d["text"] == short, "flame shows %r, want %r" % (d["text"], short))
        self.say("shortened %r to %r (%d tree rows, %d flame frames; full name in the tooltip)"
                 % (full, short, len(rows), len(fl)))


def check_profile(page, path, find, args):
    name = os.path.basename(path)
    out = os.path.join(args.out, os.path.splitext(name)[0])
    os.makedirs(out, exist_ok=True)
    html = os.path.join(out, "page.html")
    run([args.ms_print, "--html", path, "-o", html])
    prof = json.loads(run([args.ms_print, "--format=json", path]))
    # ms_print's report (which, like Valgrind's, dies on a profile of no
    # snapshots) for its "(peak)" mark.
    r = subprocess.run([args.ms_print, path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    report = r.stdout if r.returncode == 0 else b""
    page.console_errors.clear()
    page.exceptions.clear()
    page.navigate("file://" + os.path.abspath(html))
    page.wait_for("window.massifReadyAt !== undefined")
    c = PageChecks(page, name, out, prof)
    c.shots = []
    if args.big:
        c.no_errors("loading")
        peak = prof["snapshots"][prof["peak"]]["snapshot"]
        check(c.selected() == peak, "selected %s, peak %d" % (c.selected(), peak))
        elements = c.js("document.getElementsByTagName('*').length")
        check(elements < 3000, "%d elements in the DOM" % elements)
        c.say("loaded, %d snapshots, no console errors; peak %d selected; %s"
              % (len(prof["snapshots"]), peak,
                 "under 3000 DOM elements" if elements < 3000 else ""))
        return
    c.loaded(peak_in_report(report))
    if prof["snapshots"]:
        c.click_graph()
        c.no_errors("clicking")
        c.png("tree.png", c.shot("tree.png", "#tree-section"))
        c.check_keys()
        c.check_tree_keys()
        c.no_errors("keys")
    if find:
        c.check_search(find)
        c.no_errors("searching")
    if args.shorten:
        c.check_shorten(*args.shorten)
    c.check_flame()
    if args.merged:
        c.say(FlameChecks(c, prof["snapshots"][prof["peak"]]).one_frame(args.merged[0], int(args.merged[1])))
    c.no_errors("the flame graph")
    c.js("document.querySelector('#flame').focus()")
    c.png("flame.png", c.shot("flame.png", "#flame-section"))
    c.say("screenshots: " + ", ".join(c.shots))
    for line in SitesChecks(c).run():
        c.say(line)
    c.no_errors("the site statistics' views")
    if args.docs:
        write_docs(page, path, find, args)
    if args.docs_sites:
        write_sites_docs(page, path, args)


def write_docs(page, path, find, args):
    """The user guide's three screenshots, from this profile."""
    os.makedirs(args.docs, exist_ok=True)
    html = os.path.join(args.out, "docs-page.html")
    run([args.ms_print, "--html", path, "-o", html])
    page.navigate("file://" + os.path.abspath(html))
    page.wait_for("window.massifReadyAt !== undefined")
    page.evaluate("window.scrollTo(0, 0)")
    page.settle(0.05)
    shots = {}
    # The graph, with the tooltip of a detailed snapshot.
    prof = json.loads(run([args.ms_print, "--format=json", path]))
    det = [i for i, s in enumerate(prof["snapshots"]) if s.get("tree") and i != prof["peak"]]
    if det:
        x, y = page.evaluate("massifPage.pointOf(%d)" % det[len(det) // 2])
        page.hover(x, y)
    shots["graph"] = shoot(page, os.path.join(args.docs, "ms_print-html-graph.png"))
    page.hover(1, 1)
    page.click_element("#shorten")
    page.click_element("#search")
    page.insert_text(find)
    page.wait_for("document.querySelector('#search-count').textContent !== ''")
    page.settle(0.25)
    # Under 200 KB: text-heavy, so a little shorter.
    shots["tree"] = shoot(page, os.path.join(args.docs, "ms_print-html-tree.png"), "#tree-section",
                          height=680)
    hover_widest_flame_frame(page)
    # The flame section only (the site statistics' section follows it).
    flame_h = page.evaluate("Math.ceil(document.querySelector('#flame-section').getBoundingClientRect().height) + 16")
    shots["flame"] = shoot(page, os.path.join(args.docs, "ms_print-html-flame.png"), "#flame-section",
                           beyond=True, height=flame_h)
    say_shots(shots)


def hover_widest_flame_frame(page):
    """Scrolls to the flame graph and hovers its widest frame at depth 2,
    so a screenshot shows a tooltip."""
    page.evaluate("document.querySelector('#flame').scrollIntoView()")
    box = page.evaluate("""(() => { const d = [...document.querySelectorAll('#flame .fl[data-depth="2"]')]
        .sort((a, b) => b.offsetWidth - a.offsetWidth)[0]; if (!d) return null;
        const r = d.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()""")
    if box:
        page.hover(box[0], box[1])
    page.settle(0.05)


def say_shots(shots):
    for k, data in shots.items():
        print("docs: ms_print-html-%s.png, %d bytes" % (k, len(data)))


def write_sites_docs(page, path, args):
    """The user guide's screenshots of the site statistics: the top sites
    with one site's figures, and the flame graph of the calls."""
    os.makedirs(args.docs_sites, exist_ok=True)
    html = os.path.join(args.out, "docs-sites.html")
    run([args.ms_print, "--html", path, "-o", html])
    page.navigate("file://" + os.path.abspath(html))
    page.wait_for("window.massifReadyAt !== undefined")
    page.click_element('#sites-table tbody tr:nth-child(1)')
    page.hover(1, 1)
    page.settle(0.1)
    shots = {"sites": shoot(page, os.path.join(args.docs_sites, "ms_print-html-sites.png"), "#sites-section",
                            beyond=True)}
    page.click_element('#flame-metrics button[data-metric="calls"]')
    hover_widest_flame_frame(page)
    shots["flame-calls"] = shoot(page, os.path.join(args.docs_sites, "ms_print-html-flame-calls.png"),
                                 "#flame-section", height=420)
    say_shots(shots)


def main():
    sys.stdout.reconfigure(encoding="utf-8")
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chromium", required=True)
    ap.add_argument("--ms-print", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--shorten", nargs=2, metavar=("FULL", "SHORT"))
    ap.add_argument("--merged", nargs=2, metavar=("FUNCTION", "N"))
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--docs")
    ap.add_argument("--docs-sites")
    ap.add_argument("profiles", nargs="+", metavar="PROFILE[::FIND]")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    status = 0
    with cdp.Browser(args.chromium) as browser:
        page = browser.new_page(WIDTH, HEIGHT)
        for spec in args.profiles:
            path, _, find = spec.partition("::")
            try:
                check_profile(page, path, find, args)
            except (CheckFailed, FlameMismatch, cdp.ProtocolError) as e:
                print("FAIL %s: %s" % (os.path.basename(path), e))
                status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())

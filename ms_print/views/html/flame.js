// The flame graphs: of the peak, its tree inverted (outermost frames at
// the top), and, from the site statistics, of the calls, the temporary
// allocations, the leaked bytes and the bytes asked for over the run, the
// sites' stacks inverted the same way. One graph at a time, the metric
// chosen above it; one absolutely placed <div> per frame of 1 px or more;
// zoom by clicking, tooltips, keys.

// The tree inverted: a node's own bytes (bytes less its children's) go
// to the stack from it up to the root, outermost frame first; bytes the
// root keeps itself (never in Massif's files) go to a frame named after
// it, as in the collapsed export. Massif's tree has a node per call site;
// here sibling frames of one function merge, as in other flame graphs
// (and the collapsed export): their bytes add up and their callees merge
// in turn. A frame keeps its call sites (tree frames, with their bytes)
// for the tooltip.
//
// The sites' graphs merge the same way: a site's frames, outermost first,
// are a path from the top; its figure (calls, ...) goes to every frame on
// it, and its other figures too, for the tooltip. A frame's "bytes" is its
// width's figure whatever the metric: bytes, or calls, or allocations.
const flame = { root: null, zoom: null, els: new Map(), focus: null, total: 0, snap: -1, tipAt: null,
                metric: 'peak', figTree: null };
const ROW_H = 20;
/// Call sites a tooltip lists before "and N more".
const TIP_SITES = 12;

/// What a flame graph's widths can show. value: a site's figure (none for
/// the peak, which is the tree's bytes); bytes: whether it is in bytes.
const METRICS = {
  peak: { label: 'Bytes at the peak', title: 'Flame graph of the peak', bytes: true },
  calls: { label: 'Calls', title: 'Flame graph of the calls to allocation functions', value: (c) => c.calls,
           unit: ['call', 'calls'] },
  temporary: { label: 'Temporary allocations', title: 'Flame graph of the temporary allocations',
               value: (c) => c.temporary, unit: ['temporary allocation', 'temporary allocations'] },
  leaked: { label: 'Leaked bytes', title: 'Flame graph of the leaked bytes', value: (c) => c.leaked_bytes,
            bytes: true },
  bytes: { label: 'Bytes asked for', title: 'Flame graph of the bytes asked for over the run',
           value: (c) => c.bytes, bytes: true },
};
const FIGURES = ['calls', 'bytes', 'temporary', 'temporary_bytes', 'leaked_blocks', 'leaked_bytes'];
const siteStats = profile.sites || null;

/// A metric's figure as text: "1,234 calls", "12.1 KiB (12,345 B)".
function fmtMetric(metric, v) {
  const m = METRICS[metric];
  if (m.bytes) return fmtBytesExact(v);
  return fmtInt(v) + ' ' + m.unit[v === 1 ? 0 : 1];
}

function flameNode(key, frame, parent) {
  return { key, frame, bytes: 0, kids: new Map(), parent, depth: parent ? parent.depth + 1 : 0,
           sites: new Map(), places: 0, nodes: 0, fig: null };
}

/// at's child for frame (a frame index), made when new.
function flameChild(at, frame) {
  const key = frameKey(frame);
  let next = at.kids.get(key);
  if (!next) {
    next = flameNode(key, frame, at);
    at.kids.set(key, next);
  }
  return next;
}

/// Children by bytes, without recursion (trees can be deep); call sites
/// by bytes.
function finishFlame(root) {
  const stack = [root];
  while (stack.length) {
    const f = stack.pop();
    f.list = [...f.kids.values()].sort((a, b) => b.bytes - a.bytes || (a.key < b.key ? -1 : 1));
    f.siteList = [...f.sites].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    for (const c of f.list) stack.push(c);
  }
  return root;
}

function addFigures(to, site) {
  for (const k of FIGURES) to[k] += site[k];
}
const noFigures = () => Object.fromEntries(FIGURES.map((k) => [k, 0]));

/// The flame graph of a site metric (METRICS' value), or with all, of
/// every site whatever its figure (the figures of any stack of functions,
/// for the peak's tooltips). The root has no frame (-1).
function buildSiteFlame(metric, all) {
  const root = flameNode('', -1, null);
  root.fig = noFigures();
  const value = METRICS[metric].value;
  for (const site of siteStats ? siteStats.list : []) {
    const v = value(site);
    if (!v && !all) continue;
    root.bytes += v;
    addFigures(root.fig, site);
    let at = root;
    for (let k = site.frames.length - 1; k >= 0; k--) {
      const frame = site.frames[k];
      const next = flameChild(at, frame);
      next.bytes += v;
      next.sites.set(frame, (next.sites.get(frame) || 0) + v);
      if (!next.fig) next.fig = noFigures();
      addFigures(next.fig, site);
      at = next;
    }
  }
  return finishFlame(root);
}

/// The site statistics of frame f's stack of functions (its keys from the
/// top), from the graph of every site; null when no site has that stack.
function figuresOf(f) {
  if (!siteStats) return null;
  if (!flame.figTree) flame.figTree = buildSiteFlame('calls', true);
  if (f.fig && flame.metric !== 'peak') return f.fig;
  const keys = [];
  for (let p = f; p.parent; p = p.parent) keys.unshift(p.key);
  let at = flame.figTree;
  for (const k of keys) {
    at = at.kids.get(k);
    if (!at) return null;
  }
  return at.fig;
}

function buildFlame(s) {
  prepare(s);
  const root = flameNode('', s.tree.frame, null);
  root.bytes = s.tree.bytes;
  for (const n of s._nodes) {
    let self = n.bytes;
    if (n.children) for (const c of n.children) self -= c.bytes;
    if (self <= 0) continue;
    // The path up to the root's child; the root's own bytes, the root.
    const path = [];
    for (let p = n; p._parent; p = p._parent) path.push(p);
    if (!path.length) path.push(n);
    let at = root;
    for (const p of path) {
      const next = flameChild(at, p.frame);
      next.bytes += self;
      next.sites.set(p.frame, (next.sites.get(p.frame) || 0) + self);
      // A node below the threshold is a leaf: it starts its one stack.
      if (p === n && frames[p.frame].kind === 'insignificant') {
        next.places += frames[p.frame].places || 0;
        next.nodes++;
      }
      at = next;
    }
  }
  return finishFlame(root);
}

/// Several nodes below the threshold merged: their places added up.
function belowLabel(f) {
  const fr = frames[f.frame];
  if (f.nodes < 2) return fr.text;
  const m = /\(([^()]*%)\)$/.exec(fr.text);
  return 'in ' + fmtInt(f.places) + ' places, all below massif\'s threshold' + (m ? ' (' + m[1] + ')' : '');
}

function flameColor(f) {
  const fr = frames[f.frame];
  if (!fr || fr.kind !== 'code') return null;
  let h = 0;
  const name = fr.function;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  const hue = 18 + (h % 40);           // oranges to yellows
  const light = 78 + ((h >>> 8) % 10); // light
  return 'hsl(' + hue + ', 85%, ' + light + '%)';
}

/// The root's label: what the whole graph holds.
function flameRootLabel(f) {
  if (flame.metric === 'peak') return 'all: snapshot ' + snaps[flame.snap].snapshot + ' (' + fmtBytes(f.bytes) + ')';
  return 'all sites: ' + (METRICS[flame.metric].bytes ? fmtBytes(f.bytes) : fmtMetric(flame.metric, f.bytes));
}

function flameLabel(f) {
  if (!f.parent) return flameRootLabel(f);
  const fr = frames[f.frame];
  if (fr.kind === 'insignificant') return belowLabel(f);
  if (fr.kind === 'root') return f.key;
  return frameName(f.frame);
}

function renderFlame() {
  const box = $('flame');
  box.textContent = '';
  flame.els = new Map();
  if (!flame.root) return;
  const width = box.clientWidth;
  const zoom = flame.zoom || flame.root;
  // The zoomed frame's callers (and the root) span the width, dimmed.
  const above = [];
  for (let p = zoom.parent; p; p = p.parent) above.unshift(p);
  let maxDepth = zoom.depth;
  const frag = document.createDocumentFragment();
  const place = (f, left, w, cls) => {
    const d = el('div', 'fl' + (cls ? ' ' + cls : ''), w >= 24 ? flameLabel(f) : '');
    d.style.left = left.toFixed(2) + 'px';
    d.style.width = w.toFixed(2) + 'px';
    d.style.top = (f.depth * ROW_H) + 'px';
    const color = flameColor(f);
    if (color) d.style.background = color;
    if (!f.parent) d.classList.add('root');
    else if (frames[f.frame].kind === 'insignificant') d.classList.add('ins');
    d.tabIndex = -1;
    d.setAttribute('role', 'treeitem');
    d.setAttribute('aria-label', flameLabel(f) + ', ' +
        (METRICS[flame.metric].bytes ? fmtBytes(f.bytes) : fmtMetric(flame.metric, f.bytes)) + ', ' +
        pct(f.bytes, flame.total) +
        (f.parent && frames[f.frame].kind === 'code' && f.sites.size > 1 ? ', ' + fmtInt(f.sites.size) + ' call sites' : ''));
    d.dataset.key = f.key;
    d.dataset.bytes = String(f.bytes);
    d.dataset.depth = String(f.depth);
    d._flame = f;
    flame.els.set(f, d);
    frag.append(d);
  };
  for (const f of above) place(f, 0, width, 'above');
  // The zoomed frame and its callees, widths by bytes; under 1 px dropped.
  const scale = zoom.bytes > 0 ? width / zoom.bytes : 0;
  const stack = [[zoom, 0]];
  while (stack.length) {
    const [f, left] = stack.pop();
    const w = f === zoom ? width : f.bytes * scale;
    if (w < 1) continue;
    place(f, left, w, '');
    if (f.depth > maxDepth) maxDepth = f.depth;
    let x = left;
    for (const c of f.list) {
      stack.push([c, x]);
      x += c.bytes * scale;
    }
  }
  box.append(frag);
  box.style.height = ((maxDepth + 1) * ROW_H + 2) + 'px';
}

/// One call site of a merged frame: its address and file:line (or
/// object), or Massif's text when it has neither.
function siteText(frame) {
  const fr = frames[frame];
  const loc = frameLocation(frame);
  if (fr.kind !== 'code' || !loc) return fr.text;
  return (fr.address ? fr.address + ' ' : '') + loc;
}

/// The site statistics' figures of a frame, for its tooltip.
function figuresText(fig) {
  return fmtInt(fig.calls) + (fig.calls === 1 ? ' call, ' : ' calls, ') + fmtBytes(fig.bytes) + ' asked for; ' +
    fmtInt(fig.temporary) + ' temporary (' + fmtBytes(fig.temporary_bytes) + '); leaked ' +
    fmtBytes(fig.leaked_bytes) + ' in ' + fmtInt(fig.leaked_blocks) + (fig.leaked_blocks === 1 ? ' block' : ' blocks');
}

function showFlameTip(f, d) {
  const tip = $('flame-tip');
  const fr = frames[f.frame];
  const peak = flame.metric === 'peak';
  tip.innerHTML = '';
  // One call site: Massif's line; several: the function, then the sites.
  let title;
  if (!f.parent) title = peak ? 'all (snapshot ' + snaps[flame.snap].snapshot + ')' : 'all sites';
  else if (fr.kind === 'insignificant') title = belowLabel(f);
  else if (f.sites.size > 1) title = f.key;
  else title = fr.text;
  tip.append(el('div', 'mono', title));
  const line = el('div');
  line.append(el('b', '', fmtMetric(flame.metric, f.bytes)),
      document.createTextNode(', ' + pct(f.bytes, flame.total) + (peak ? ' of the snapshot' : ' of all')));
  tip.append(line);
  if (flame.zoom && flame.zoom !== flame.root && f !== flame.zoom)
    tip.append(el('div', '', pct(f.bytes, flame.zoom.bytes) + ' of the zoomed frame'));
  // Over the run, from the site statistics: this stack's figures.
  const fig = figuresOf(f);
  if (fig) {
    const figs = el('div', 'figs', 'Over the run: ' + figuresText(fig));
    for (const k of FIGURES) figs.dataset[k.replace(/_(.)/g, (_, c) => c.toUpperCase())] = String(fig[k]);
    tip.append(figs);
  } else if (siteStats && f.parent) {
    tip.append(el('div', 'figs', 'Over the run: no site has this stack'));
  }
  if (f.parent && f.sites.size > 1) {
    tip.append(el('div', 'sites-head', fr.kind === 'insignificant'
      ? fmtInt(f.nodes) + ' nodes below the threshold, merged:'
      : fmtInt(f.sites.size) + ' call sites, merged:'));
    const ul = el('ul', 'sites mono');
    for (const [frame, bytes] of f.siteList.slice(0, TIP_SITES)) {
      const li = el('li', '', siteText(frame) + ', ' + fmtMetric(flame.metric, bytes));
      li.dataset.frame = String(frame);
      li.dataset.bytes = String(bytes);
      ul.append(li);
    }
    tip.append(ul);
    if (f.siteList.length > TIP_SITES)
      tip.append(el('div', 'sites-more', 'and ' + fmtInt(f.siteList.length - TIP_SITES) + ' more'));
  }
  tip.hidden = false;
  flame.tipAt = d;
  placeFlameTip(d);
}

/// The tip is fixed in the viewport, so that a long list of sites
/// neither makes the page longer nor hangs below its end: under frame d,
/// or over it when it does not fit there.
function placeFlameTip(d) {
  const tip = $('flame-tip');
  const sr = $('flame-section').getBoundingClientRect();
  const r = d.getBoundingClientRect();
  let left = Math.max(r.left, Math.min(r.left + r.width / 2, sr.right - tip.offsetWidth - 8));
  left = Math.max(sr.left, Math.min(left, sr.right - tip.offsetWidth));
  let top = r.bottom + 4;
  if (top + tip.offsetHeight > window.innerHeight && r.top - 4 - tip.offsetHeight >= 0)
    top = r.top - 4 - tip.offsetHeight;
  tip.style.left = left + 'px';
  tip.style.top = top + 'px';
}

function zoomFlame(f) {
  flame.zoom = !f || !f.parent ? null : f;
  renderFlame();
  const target = flame.els.get(f || flame.root);
  if (target) focusFlame(target._flame, false);
}

function focusFlame(f, scroll) {
  const d = flame.els.get(f);
  if (!d) return;
  flame.focus = f;
  d.focus({ preventScroll: !scroll });
}

/// The snapshot the peak's flame graph shows: the peak, else the
/// detailed snapshot with the most heap; -1 when none has a tree.
function flameSnapshot() {
  const peak = peakIndex >= 0 ? peakIndex : -1;
  if (peak >= 0 && hasTree(snaps[peak])) return peak;
  let s = -1;
  for (const d of graph.detailedIdx) if (s < 0 || snaps[d].mem_heap_B > snaps[s].mem_heap_B) s = d;
  return s;
}

/// Shows the flame graph of metric: its title, a line on what it holds,
/// the frames, zoomed out.
function showFlame(metric) {
  const box = $('flame');
  const m = METRICS[metric];
  flame.metric = metric;
  flame.zoom = null;
  flame.focus = null;
  box.dataset.metric = metric;
  $('flame-tip').hidden = true;
  $('flame-title').textContent = m.title;
  for (const b of $('flame-metrics').querySelectorAll('button'))
    b.setAttribute('aria-checked', String(b.dataset.metric === metric));
  const info = $('flame-info');
  if (metric === 'peak') {
    const s = flame.snap;
    if (s < 0) {
      info.textContent = 'No flame graph of the peak: the profile has no detailed snapshot.';
      flame.root = null;
    } else {
      info.textContent = s === peakIndex
        ? 'Snapshot ' + snaps[s].snapshot + ', ' + fmtBytesExact(snaps[s].mem_heap_B) + ' of heap.'
        : 'The peak snapshot has no tree; this is the detailed snapshot with the most heap, snapshot ' +
          snaps[s].snapshot + '.';
      flame.root = buildFlame(snaps[s]);
    }
  } else {
    flame.root = buildSiteFlame(metric, false);
    info.textContent = flame.root.bytes
      ? 'Over the whole run, from the site statistics: ' + fmtMetric(metric, flame.root.bytes) + ' in all.'
      : 'No site has any: ' + fmtMetric(metric, 0) + ' over the whole run.';
  }
  flame.total = flame.root ? flame.root.bytes : 0;
  box.hidden = !flame.root || (metric !== 'peak' && !flame.root.bytes);
  renderFlame();
}

function setupFlame() {
  const box = $('flame');
  flame.snap = flameSnapshot();
  // The metric buttons; those of the site statistics only with them.
  const bar = $('flame-metrics');
  for (const [id, m] of Object.entries(METRICS)) {
    const b = el('button', '', m.label);
    b.type = 'button';
    b.setAttribute('role', 'radio');
    b.dataset.metric = id;
    b.disabled = id === 'peak' ? flame.snap < 0 : !siteStats;
    b.addEventListener('click', () => { if (flame.metric !== id) showFlame(id); });
    bar.append(b);
  }
  if (!siteStats) bar.append(el('span', 'help', 'Calls, temporary allocations, leaks: no site statistics beside this profile.'));
  if (flame.snap < 0 && !siteStats) {
    $('flame-info').textContent = 'No flame graph: the profile has no detailed snapshot.';
    box.hidden = true;
    return;
  }
  showFlame(flame.snap >= 0 ? 'peak' : 'calls');
  box.addEventListener('click', (e) => {
    const d = e.target.closest('.fl');
    if (!d) return;
    const f = d._flame;
    zoomFlame(f === (flame.zoom || flame.root) && f.parent ? f.parent : f);
  });
  box.addEventListener('mouseover', (e) => {
    const d = e.target.closest('.fl');
    if (d) showFlameTip(d._flame, d);
  });
  box.addEventListener('mouseleave', () => { $('flame-tip').hidden = true; });
  // The tip follows its frame when the page moves.
  window.addEventListener('scroll', () => {
    if (!$('flame-tip').hidden && flame.tipAt && flame.tipAt.isConnected) placeFlameTip(flame.tipAt);
  }, { passive: true });
  box.addEventListener('focusin', (e) => {
    const d = e.target.closest('.fl');
    if (d) { flame.focus = d._flame; showFlameTip(d._flame, d); }
  });
  box.addEventListener('focusout', () => { $('flame-tip').hidden = true; });
  box.addEventListener('focus', (e) => {
    if (e.target === box) focusFlame(flame.zoom || flame.root, false);
  });
  box.addEventListener('keydown', (e) => {
    const f = flame.focus || flame.zoom || flame.root;
    const shown = (c) => flame.els.has(c);
    let to = null;
    switch (e.key) {
      case 'ArrowDown': to = f.list.find(shown); break;
      case 'ArrowUp': to = f.parent; break;
      case 'ArrowLeft': case 'ArrowRight': {
        if (!f.parent) break;
        const sib = f.parent.list.filter(shown);
        const k = sib.indexOf(f) + (e.key === 'ArrowLeft' ? -1 : 1);
        to = sib[k];
        break;
      }
      case 'Enter': case ' ': zoomFlame(f); e.preventDefault(); return;
      case 'Escape': zoomFlame(null); e.preventDefault(); return;
      default: return;
    }
    e.preventDefault();
    if (to) focusFlame(to, true);
  });
}

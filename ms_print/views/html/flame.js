// The peak's flame graph: its tree inverted (outermost frames at the
// top), one absolutely placed <div> per frame of 1 px or more; zoom by
// clicking, tooltips, keys.

// The tree inverted: a node's own bytes (bytes less its children's) go
// to the stack from it up to the root, outermost frame first; bytes the
// root keeps itself (never in Massif's files) go to a frame named after
// it, as in the collapsed export. Massif's tree has a node per call site;
// here sibling frames of one function merge, as in other flame graphs
// (and the collapsed export): their bytes add up and their callees merge
// in turn. A frame keeps its call sites (tree frames, with their bytes)
// for the tooltip.
const flame = { root: null, zoom: null, els: new Map(), focus: null, total: 0, snap: -1, tipAt: null };
const ROW_H = 20;
/// Call sites a tooltip lists before "and N more".
const TIP_SITES = 12;

function buildFlame(s) {
  prepare(s);
  const root = { key: '', frame: s.tree.frame, bytes: s.tree.bytes, kids: new Map(), parent: null, depth: 0,
                 sites: new Map(), places: 0, nodes: 0 };
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
      const key = frameKey(p.frame);
      let next = at.kids.get(key);
      if (!next) {
        next = { key, frame: p.frame, bytes: 0, kids: new Map(), parent: at, depth: at.depth + 1,
                 sites: new Map(), places: 0, nodes: 0 };
        at.kids.set(key, next);
      }
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
  // Children by bytes, without recursion (trees can be deep); call sites
  // by bytes.
  const stack = [root];
  while (stack.length) {
    const f = stack.pop();
    f.list = [...f.kids.values()].sort((a, b) => b.bytes - a.bytes || (a.key < b.key ? -1 : 1));
    f.siteList = [...f.sites].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    for (const c of f.list) stack.push(c);
  }
  return root;
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
  if (fr.kind !== 'code') return null;
  let h = 0;
  const name = fr.function;
  for (let i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
  const hue = 18 + (h % 40);           // oranges to yellows
  const light = 78 + ((h >>> 8) % 10); // light
  return 'hsl(' + hue + ', 85%, ' + light + '%)';
}

function flameLabel(f) {
  if (!f.parent) return 'all: snapshot ' + snaps[flame.snap].snapshot + ' (' + fmtBytes(f.bytes) + ')';
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
    d.setAttribute('aria-label', flameLabel(f) + ', ' + fmtBytes(f.bytes) + ', ' + pct(f.bytes, flame.total) +
        (frames[f.frame].kind === 'code' && f.sites.size > 1 ? ', ' + fmtInt(f.sites.size) + ' call sites' : ''));
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

function showFlameTip(f, d) {
  const tip = $('flame-tip');
  const fr = frames[f.frame];
  tip.innerHTML = '';
  // One call site: Massif's line; several: the function, then the sites.
  let title = fr.text;
  if (!f.parent) title = 'all (snapshot ' + snaps[flame.snap].snapshot + ')';
  else if (fr.kind === 'insignificant') title = belowLabel(f);
  else if (f.sites.size > 1) title = f.key;
  tip.append(el('div', 'mono', title));
  const line = el('div');
  line.append(el('b', '', fmtBytesExact(f.bytes)), document.createTextNode(', ' + pct(f.bytes, flame.total) + ' of the snapshot'));
  tip.append(line);
  if (flame.zoom && flame.zoom !== flame.root && f !== flame.zoom)
    tip.append(el('div', '', pct(f.bytes, flame.zoom.bytes) + ' of the zoomed frame'));
  if (f.parent && f.sites.size > 1) {
    tip.append(el('div', 'sites-head', fr.kind === 'insignificant'
      ? fmtInt(f.nodes) + ' nodes below the threshold, merged:'
      : fmtInt(f.sites.size) + ' call sites, merged:'));
    const ul = el('ul', 'sites mono');
    for (const [frame, bytes] of f.siteList.slice(0, TIP_SITES)) {
      const li = el('li', '', siteText(frame) + ', ' + fmtBytesExact(bytes));
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

function setupFlame() {
  const box = $('flame');
  const peak = peakIndex >= 0 ? peakIndex : -1;
  let s = -1;
  if (peak >= 0 && hasTree(snaps[peak])) s = peak;
  if (s < 0) {
    $('flame-info').textContent = !graph.detailedIdx.length
      ? 'No flame graph: the profile has no detailed snapshot.'
      : 'The peak snapshot has no tree; this is the detailed snapshot with the most heap.';
    for (const d of graph.detailedIdx) if (s < 0 || snaps[d].mem_heap_B > snaps[s].mem_heap_B) s = d;
  } else {
    $('flame-info').textContent = 'Snapshot ' + snaps[s].snapshot + ', ' + fmtBytesExact(snaps[s].mem_heap_B) + ' of heap.';
  }
  if (s < 0) { box.hidden = true; return; }
  flame.snap = s;
  flame.root = buildFlame(snaps[s]);
  flame.total = flame.root.bytes;
  renderFlame();
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

// The peak's flame graph: its tree inverted (outermost frames at the
// top), one absolutely placed <div> per frame of 1 px or more; zoom by
// clicking, tooltips, keys.

// The tree inverted: a node's own bytes (bytes less its children's) go
// to the stack from it up to the root, outermost frame first; frames
// merge on their text without the address.
const flame = { root: null, zoom: null, els: new Map(), focus: null, total: 0, snap: -1 };
const ROW_H = 20;

function buildFlame(s) {
  prepare(s);
  const root = { key: '', frame: s.tree.frame, bytes: s.tree.bytes, kids: new Map(), parent: null, depth: 0 };
  for (const n of s._nodes) {
    let self = n.bytes;
    if (n.children) for (const c of n.children) self -= c.bytes;
    if (self <= 0 || !n._parent) continue;
    let at = root;
    for (let p = n; p._parent; p = p._parent) {
      const key = frameKey(p.frame);
      let next = at.kids.get(key);
      if (!next) {
        next = { key, frame: p.frame, bytes: 0, kids: new Map(), parent: at, depth: at.depth + 1 };
        at.kids.set(key, next);
      }
      next.bytes += self;
      at = next;
    }
  }
  // Children by bytes, without recursion (trees can be deep).
  const stack = [root];
  while (stack.length) {
    const f = stack.pop();
    f.list = [...f.kids.values()].sort((a, b) => b.bytes - a.bytes || (a.key < b.key ? -1 : 1));
    for (const c of f.list) stack.push(c);
  }
  return root;
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
  if (fr.kind === 'insignificant') return fr.text;
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
    d.setAttribute('aria-label', flameLabel(f) + ', ' + fmtBytes(f.bytes) + ', ' + pct(f.bytes, flame.total));
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

function showFlameTip(f, d) {
  const tip = $('flame-tip');
  const fr = frames[f.frame];
  tip.innerHTML = '';
  const name = el('div', 'mono', f.parent ? fr.text : 'all (snapshot ' + snaps[flame.snap].snapshot + ')');
  tip.append(name);
  const line = el('div');
  line.append(el('b', '', fmtBytesExact(f.bytes)), document.createTextNode(', ' + pct(f.bytes, flame.total) + ' of the snapshot'));
  tip.append(line);
  if (flame.zoom && flame.zoom !== flame.root && f !== flame.zoom)
    tip.append(el('div', '', pct(f.bytes, flame.zoom.bytes) + ' of the zoomed frame'));
  tip.hidden = false;
  const sec = $('flame-section');
  const sr = sec.getBoundingClientRect();
  const r = d.getBoundingClientRect();
  let left = Math.max(r.left, Math.min(r.left + r.width / 2, sr.right - tip.offsetWidth - 8)) - sr.left;
  left = Math.max(0, Math.min(left, sr.width - tip.offsetWidth));
  tip.style.left = left + 'px';
  tip.style.top = (r.bottom - sr.top + 4) + 'px';
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
  const sec = $('flame-section');
  sec.style.position = 'relative';
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

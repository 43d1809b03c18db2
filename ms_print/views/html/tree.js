// The selected snapshot's tree: children sorted by bytes, a row built for
// a node only once its parent is opened; opening, closing and the keys.

/// Once per snapshot: parent links, children sorted by bytes, a flat list.
function prepare(s) {
  if (s._nodes) return s._nodes;
  const list = [];
  const stack = [s.tree];
  s.tree._parent = null;
  s.tree._depth = 0;
  while (stack.length) {
    const n = stack.pop();
    list.push(n);
    const kids = n.children;
    if (!kids) continue;
    kids.sort((a, b) => b.bytes - a.bytes);
    for (let k = kids.length - 1; k >= 0; k--) {
      kids[k]._parent = n;
      kids[k]._depth = n._depth + 1;
      stack.push(kids[k]);
    }
  }
  s._nodes = list;
  return list;
}

const tree = {
  snap: -1, root: null, total: 0,
  rows: new Map(), // node -> its <li>, for the nodes built so far
  hits: [], hitRows: [], current: -1, query: '',
};

function nearestDetailed(i) {
  let best = -1;
  for (const d of graph.detailedIdx)
    if (best < 0 || Math.abs(d - i) < Math.abs(best - i)) best = d;
  return best;
}

function select(i) {
  if (i === selected || i < 0 || i >= snaps.length) return;
  selected = i;
  drawOverlay();
  document.documentElement.dataset.selected = String(snaps[i].snapshot);
  showSnapshot(i);
}

function showSnapshot(i) {
  const s = snaps[i];
  const info = $('snap-info');
  const k = kindOf(i);
  info.innerHTML = '';
  info.dataset.snapshot = String(s.snapshot);
  const b = el('b', '', 'Snapshot ' + s.snapshot);
  info.append(b, el('span', 'kind ' + k, k === 'peak' ? 'peak' : k === 'normal' ? 'normal' : 'detailed'),
      document.createTextNode('  at ' + fmtTime(s.time) + ', heap ' + fmtBytesExact(s.mem_heap_B) +
      (hasExtra ? ', extra heap ' + fmtBytes(s.mem_heap_extra_B) : '') +
      (hasStacks ? ', stacks ' + fmtBytes(s.mem_stacks_B) : '') + '. '));
  const ul = $('tree');
  ul.textContent = '';
  tree.rows = new Map();
  tree.hits = []; tree.hitRows = []; tree.current = -1;
  if (!hasTree(s)) {
    tree.snap = -1;
    tree.root = null;
    const d = nearestDetailed(i);
    const msg = el('li', 'empty');
    msg.setAttribute('role', 'none');
    if (d < 0) {
      msg.textContent = 'Snapshot ' + s.snapshot + ' is a normal snapshot and this profile has no detailed snapshots: ' +
        'Massif recorded no allocation trees (try --detailed-freq=1 or a peak).';
    } else {
      msg.append('Snapshot ' + s.snapshot + ' is a normal snapshot: Massif recorded no tree for it. ');
      const go = el('button', 'link', 'Show the nearest detailed snapshot, ' + snaps[d].snapshot);
      go.id = 'go-detailed';
      go.type = 'button';
      go.addEventListener('click', () => { select(d); });
      msg.append(go);
    }
    ul.append(msg);
    updateSearchCount();
    return;
  }
  prepare(s);
  tree.snap = i;
  tree.root = s.tree;
  tree.total = s.tree.bytes;
  const li = buildRow(s.tree);
  ul.append(li);
  li.firstChild.tabIndex = 0;
  // Open the root and the heaviest path while it holds most of the bytes.
  let n = s.tree;
  for (let depth = 0; n && depth < 12; depth++) {
    expand(n);
    const kids = n.children;
    if (!kids || !kids.length || kids[0].bytes * 2 < tree.total) break;
    if (depth > 0 && kids.length > 1) break;
    n = kids[0];
  }
  if (tree.query) runSearch();
  else updateSearchCount();
}

function rowLabel(row, f) {
  const fn = row.querySelector('.fn');
  fn.textContent = frameName(f);
}

function buildRow(n) {
  const li = el('li');
  li.setAttribute('role', 'treeitem');
  li.setAttribute('aria-level', String(n._depth + 1));
  const fr = frames[n.frame];
  const row = el('div', 'row' + (fr.kind === 'root' ? ' root' : fr.kind === 'insignificant' ? ' ins' : ''));
  row.tabIndex = -1;
  row.dataset.bytes = String(n.bytes);
  row.dataset.frame = String(n.frame);
  const kids = n.children && n.children.length;
  const tog = el('span', 'tog', kids ? '\u25b8' : '');
  tog.setAttribute('aria-hidden', 'true');
  const bar = el('span', 'bar');
  const fill = el('i');
  fill.style.width = (tree.total > 0 ? Math.min(100, 100 * n.bytes / tree.total) : 0).toFixed(1) + '%';
  bar.append(fill);
  const fn = el('span', 'fn', frameName(n.frame));
  row.title = fr.text + '\n' + fmtBytesExact(n.bytes) + ', ' + pct(n.bytes, tree.total) + ' of the snapshot';
  row.append(tog, bar, el('span', 'pct', pct(n.bytes, tree.total)), el('span', 'bytes', fmtBytes(n.bytes)), fn);
  const loc = frameLocation(n.frame);
  if (loc) row.append(el('span', 'loc', loc));
  // An inlined call: Massif writes it as a caller with the same address.
  if (fr.kind === 'code' && fr.address && kids) {
    const caller = n.children.find((c) => frames[c.frame].address === fr.address);
    if (caller) {
      const badge = el('span', 'badge', 'inlined');
      badge.title = 'inlined into ' + frames[caller.frame].function;
      row.append(badge);
    }
  }
  li.append(row);
  if (kids) li.setAttribute('aria-expanded', 'false');
  li._node = n;
  tree.rows.set(n, li);
  return li;
}

function expand(n) {
  const li = tree.rows.get(n);
  if (!li || !n.children || !n.children.length) return;
  if (li.getAttribute('aria-expanded') === 'true') return;
  let ul = li.querySelector(':scope > ul');
  if (!ul) {
    ul = el('ul');
    ul.setAttribute('role', 'group');
    const frag = document.createDocumentFragment();
    for (const c of n.children) frag.append(buildRow(c));
    ul.append(frag);
    li.append(ul);
  }
  ul.hidden = false;
  li.setAttribute('aria-expanded', 'true');
  li.firstChild.firstChild.textContent = '\u25be';
}

function collapse(n) {
  const li = tree.rows.get(n);
  if (!li || li.getAttribute('aria-expanded') !== 'true') return;
  li.querySelector(':scope > ul').hidden = true;
  li.setAttribute('aria-expanded', 'false');
  li.firstChild.firstChild.textContent = '\u25b8';
}

const isOpen = (n) => tree.rows.get(n) && tree.rows.get(n).getAttribute('aria-expanded') === 'true';

/// Builds and opens the path from the root down to n's parent.
function reveal(n) {
  const path = [];
  for (let p = n._parent; p; p = p._parent) path.push(p);
  for (let k = path.length - 1; k >= 0; k--) expand(path[k]);
}

function focusNode(n) {
  const li = tree.rows.get(n);
  if (!li) return;
  for (const r of $('tree').querySelectorAll('.row[tabindex="0"]')) r.tabIndex = -1;
  li.firstChild.tabIndex = 0;
  li.firstChild.focus({ preventScroll: true });
  li.firstChild.scrollIntoView({ block: 'nearest' });
}

function nextVisible(n) {
  if (n.children && n.children.length && isOpen(n)) return n.children[0];
  for (let c = n; c._parent; c = c._parent) {
    const sib = c._parent.children;
    const k = sib.indexOf(c);
    if (k + 1 < sib.length) return sib[k + 1];
  }
  return null;
}
function prevVisible(n) {
  if (!n._parent) return null;
  const sib = n._parent.children;
  const k = sib.indexOf(n);
  if (k === 0) return n._parent;
  let c = sib[k - 1];
  while (c.children && c.children.length && isOpen(c)) c = c.children[c.children.length - 1];
  return c;
}

function setupTreeEvents() {
  const ul = $('tree');
  ul.addEventListener('click', (e) => {
    const row = e.target.closest('.row');
    if (!row) return;
    const n = row.parentNode._node;
    if (isOpen(n)) collapse(n); else expand(n);
    focusNode(n);
  });
  ul.addEventListener('keydown', (e) => {
    const row = e.target.closest('.row');
    if (!row) return;
    const n = row.parentNode._node;
    let to = null;
    switch (e.key) {
      case 'ArrowDown': to = nextVisible(n); break;
      case 'ArrowUp': to = prevVisible(n); break;
      case 'ArrowRight':
        if (n.children && n.children.length) { if (isOpen(n)) to = n.children[0]; else expand(n); }
        break;
      case 'ArrowLeft': if (isOpen(n)) collapse(n); else to = n._parent; break;
      case 'Enter': case ' ': if (isOpen(n)) collapse(n); else expand(n); break;
      case 'Home': to = tree.root; break;
      case 'End': { let c = tree.root; while (c.children && c.children.length && isOpen(c)) c = c.children[c.children.length - 1]; to = c; break; }
      default: return;
    }
    e.preventDefault();
    if (to) focusNode(to);
  });
  $('expand-all').addEventListener('click', () => {
    if (!tree.root) return;
    // Everything, but not past a few thousand rows.
    let built = 0;
    for (const n of snaps[tree.snap]._nodes) {
      if (built > 5000) break;
      if (n.children && n.children.length) { expand(n); built += n.children.length; }
    }
    if (tree.query) runSearch();
  });
  $('collapse-all').addEventListener('click', () => {
    if (!tree.root) return;
    for (const n of tree.rows.keys()) if (n !== tree.root) collapse(n);
    expand(tree.root);
  });
}

// The allocation sites: heaptrack's figures over the run, from the site
// statistics beside the profile (profile.sites; null without them), and
// the bytes of each stack at the peak, from its tree. A table of the top
// sites by calls, temporary allocations, leaked bytes, bytes asked for or
// bytes at the peak (one tab each); a site's figures and stack on a
// click; the calls by size asked for.
//
// A site is a stack as the trees cut it, its frames innermost first. The
// sites' frames and the trees' share indexes (they share texts), so a
// site and a stack of the peak's tree with the same frames are one.

const SITE_TOP = 20;
const sitesView = { tab: null, rows: [], detail: null };
const siteList = siteStats ? siteStats.list : [];

const stackKey = (frameIndexes) => frameIndexes.join(',');

/// The stacks of the flame graph's snapshot (the peak, or the detailed
/// one with the most heap): every node with own bytes, its frames from
/// the root's child down, in file order.
function peakStacks() {
  const out = [];
  if (flame.snap < 0) return out;
  const s = snaps[flame.snap];
  prepare(s);
  for (const n of s._nodes) {
    let self = n.bytes;
    if (n.children) for (const c of n.children) self -= c.bytes;
    if (self <= 0 || !n._parent) continue;
    const path = [];
    for (let p = n; p._parent; p = p._parent) path.unshift(p.frame);
    out.push({ frames: path, bytes: self });
  }
  return out;
}
// Filled by setupSites, once the flame graph has chosen its snapshot.
let peakRows = [];
let peakBytesOf = new Map();
let siteOfKey = new Map();

/// The tabs: a site figure (value, then tie, then the file's order), or
/// the peak's stacks.
const SITE_TABS = [
  { id: 'calls', label: 'Calls', value: (s) => s.calls, tie: (s) => s.bytes, total: 'calls' },
  { id: 'temporary', label: 'Temporary allocations', value: (s) => s.temporary, tie: (s) => s.temporary_bytes,
    total: 'temporary' },
  { id: 'leaked', label: 'Leaked bytes', value: (s) => s.leaked_bytes, tie: (s) => s.leaked_blocks,
    total: 'leaked_bytes', bytes: true },
  { id: 'bytes', label: 'Bytes asked for', value: (s) => s.bytes, tie: () => 0, total: 'bytes', bytes: true },
  { id: 'peak', label: 'Bytes at the peak', bytes: true },
];

/// Rows of a tab: {site: index or -1, frames, value}, largest first.
function tabRows(tab) {
  if (tab.id === 'peak') {
    return peakRows.map((r, k) => ({ site: siteOfKey.has(stackKey(r.frames)) ? siteOfKey.get(stackKey(r.frames)) : -1,
                                     frames: r.frames, value: r.bytes, k }))
      .sort((a, b) => b.value - a.value || a.k - b.k);
  }
  const rows = [];
  siteList.forEach((s, i) => {
    if (tab.value(s) || tab.tie(s)) rows.push({ site: i, frames: s.frames, value: tab.value(s), tie: tab.tie(s) });
  });
  return rows.sort((a, b) => b.value - a.value || b.tie - a.tie || a.site - b.site);
}

function tabTotal(tab) {
  if (tab.id === 'peak') return flame.snap < 0 ? 0 : snaps[flame.snap].mem_heap_B;
  return siteStats.total[tab.total];
}

const fmtCount = (n) => fmtInt(n);

/// The site column: the innermost frame's function and location, then
/// its callers' functions.
function stackCell(frameIndexes) {
  const td = el('td', 'stack');
  const first = frameIndexes[0];
  td.append(el('span', 'fn', frameName(first)));
  const loc = frameLocation(first);
  if (loc) td.append(' ', el('span', 'loc', loc));
  const callers = frameIndexes.slice(1, 4).map((f) => {
    const name = frameName(f);
    return name.length > 48 ? name.slice(0, 47) + '\u2026' : name;
  });
  if (callers.length)
    td.append(el('span', 'callers', ' \u2190 ' + callers.join(' \u2190 ') + (frameIndexes.length > 4 ? ' \u2190 \u2026' : '')));
  td.title = frameIndexes.map((f) => frames[f].text).join('\n');
  return td;
}

function figureCell(v, bytes, sorted) {
  const td = el('td', 'num' + (sorted ? ' sorted' : ''), v === null ? '\u2013' : bytes ? fmtBytes(v) : fmtCount(v));
  if (v !== null && bytes) td.title = fmtBytesExact(v);
  return td;
}

function showTab(id) {
  const tab = SITE_TABS.find((t) => t.id === id);
  sitesView.tab = tab;
  for (const b of $('sites-tabs').querySelectorAll('button')) {
    b.setAttribute('aria-selected', String(b.dataset.tab === id));
    b.tabIndex = b.dataset.tab === id ? 0 : -1;
  }
  const table = $('sites-table');
  table.dataset.tab = id;
  const head = table.tHead;
  const body = table.tBodies[0];
  head.textContent = '';
  body.textContent = '';
  const cols = [['#', 'rank'], ['share', 'share'], ['calls', 'calls'], ['temporary', 'temporary'],
                ['leaked', 'leaked'], ['asked for', 'bytes'], ['at the peak', 'peak'], ['site', 'site']];
  const hr = el('tr');
  for (const [name, key] of cols) {
    const th = el('th', key === tab.id ? 'sorted' : '', name);
    th.scope = 'col';
    hr.append(th);
  }
  head.append(hr);
  const rows = tabRows(tab);
  sitesView.rows = rows;
  const total = tabTotal(tab);
  rows.slice(0, SITE_TOP).forEach((r, k) => {
    const tr = el('tr');
    tr.tabIndex = k === 0 ? 0 : -1;
    tr.dataset.site = String(r.site);
    tr.dataset.value = String(r.value);
    tr.dataset.row = String(k);
    const s = r.site >= 0 ? siteList[r.site] : null;
    const peakBytes = peakBytesOf.get(stackKey(r.frames));
    tr.append(el('td', 'num rank', String(k + 1)), el('td', 'num share', pct(r.value, total)),
      figureCell(s ? s.calls : null, false, tab.id === 'calls'),
      figureCell(s ? s.temporary : null, false, tab.id === 'temporary'),
      figureCell(s ? s.leaked_bytes : null, true, tab.id === 'leaked'),
      figureCell(s ? s.bytes : null, true, tab.id === 'bytes'),
      figureCell(peakBytes === undefined ? (flame.snap < 0 ? null : 0) : peakBytes, true, tab.id === 'peak'),
      stackCell(r.frames));
    body.append(tr);
  });
  const more = $('sites-more');
  const what = tab.id === 'peak' ? 'stacks of the peak' : 'sites';
  if (!rows.length)
    more.textContent = tab.id === 'peak' ? 'The peak has no tree.' : 'No site has any.';
  else if (rows.length > SITE_TOP)
    more.textContent = 'The top ' + SITE_TOP + ' of ' + fmtInt(rows.length) + ' ' + what + '; the flame graph shows them all.';
  else
    more.textContent = fmtInt(rows.length) + ' ' + (rows.length === 1 ? what.replace(/s( |$)/, '$1') : what) + '.';
}

/// The detail of row r of the shown tab: the site's figures and stack.
function showSiteDetail(r) {
  const box = $('site-detail');
  sitesView.detail = r;
  box.textContent = '';
  box.hidden = false;
  box.dataset.site = String(r.site);
  const s = r.site >= 0 ? siteList[r.site] : null;
  const title = el('h3', '', s ? 'Site ' : 'Stack of the peak ');
  title.append(el('span', 'fn', frameName(r.frames[0])));
  const loc = frameLocation(r.frames[0]);
  if (loc) title.append(' ', el('span', 'loc', loc));
  box.append(title);
  const dl = el('dl', 'figs');
  const add = (key, name, value, text) => {
    const dd = el('dd', '', text);
    dd.dataset.key = key;
    if (value !== null) dd.dataset.value = String(value);
    dl.append(el('dt', '', name), dd);
  };
  const peakBytes = peakBytesOf.get(stackKey(r.frames));
  if (s) {
    const t = siteStats.total;
    add('calls', 'Calls', s.calls, fmtInt(s.calls) + ' (' + pct(s.calls, t.calls) + ' of all calls)');
    add('bytes', 'Bytes asked for', s.bytes, fmtBytesExact(s.bytes) + ' (' + pct(s.bytes, t.bytes) + ' of all)');
    add('temporary', 'Temporary allocations', s.temporary,
        fmtInt(s.temporary) + ' (' + pct(s.temporary, s.calls) + ' of its calls)');
    add('temporary_bytes', 'Temporary bytes', s.temporary_bytes, fmtBytesExact(s.temporary_bytes));
    add('leaked_blocks', 'Leaked blocks', s.leaked_blocks, fmtInt(s.leaked_blocks));
    add('leaked_bytes', 'Leaked bytes', s.leaked_bytes,
        fmtBytesExact(s.leaked_bytes) + (t.leaked_bytes ? ' (' + pct(s.leaked_bytes, t.leaked_bytes) + ' of all leaks)' : ''));
  } else {
    const below = frames[r.frames[r.frames.length - 1]].kind === 'insignificant';
    box.append(el('p', 'note', below
      ? 'The places below Massif\'s threshold, merged in the tree: no site of their own.'
      : siteStats ? 'No site of the site statistics has this stack.' : 'No site statistics beside this profile.'));
  }
  if (flame.snap >= 0) {
    const snap = snaps[flame.snap];
    add('peak_bytes', 'At the peak', peakBytes === undefined ? 0 : peakBytes, peakBytes === undefined
      ? 'none in snapshot ' + snap.snapshot + '\'s tree (freed by then, not yet allocated, or below the threshold)'
      : fmtBytesExact(peakBytes) + ' (' + pct(peakBytes, snap.mem_heap_B) + ' of snapshot ' + snap.snapshot + '\'s heap)');
  }
  box.append(dl);
  // The stack, innermost first; an inlined call has its caller's address.
  const ol = el('ol', 'stack mono');
  r.frames.forEach((f, k) => {
    const li = el('li', '', frames[f].text);
    const next = r.frames[k + 1];
    if (next !== undefined && frames[f].address && frames[next].address === frames[f].address)
      li.append(' ', el('span', 'badge', 'inlined'));
    ol.append(li);
  });
  box.append(ol);
}

function fmtPow2(n) {
  if (n < 1024) return fmtInt(n) + ' B';
  let k = 0;
  while (n >= 1024 && k < BYTE_UNITS.length - 1) { n /= 1024; k++; }
  return fmtInt(n) + ' ' + BYTE_UNITS[k];
}

/// The calls by size asked for, from the first bucket with calls.
function fillSizes() {
  const box = $('sizes');
  box.textContent = '';
  const sizes = siteStats ? siteStats.sizes : [];
  const first = sizes.findIndex((b) => b.calls > 0);
  if (first < 0) {
    box.append(el('p', 'empty', siteStats ? 'No allocation calls.' : 'No site statistics beside this profile.'));
    return;
  }
  const all = sizes.reduce((a, b) => a + b.calls, 0);
  const most = Math.max(...sizes.map((b) => b.calls));
  for (const b of sizes.slice(first)) {
    const row = el('div', 'size-row');
    row.setAttribute('role', 'row');
    row.dataset.min = String(b.min);
    row.dataset.max = String(b.max);
    row.dataset.calls = String(b.calls);
    const label = b.min === b.max ? fmtPow2(b.min) : fmtPow2(b.min) + ' to < ' + fmtPow2(b.max + 1);
    const bar = el('span', 'size-bar');
    const fill = el('i');
    fill.style.width = (100 * b.calls / most).toFixed(2) + '%';
    bar.append(fill);
    const cells = [el('span', 'size-label', label), bar, el('span', 'num', fmtInt(b.calls)),
                   el('span', 'num muted', b.calls ? pct(b.calls, all) : '')];
    for (const c of cells) c.setAttribute('role', 'cell');
    row.title = fmtInt(b.min) + (b.min === b.max ? '' : ' to ' + fmtInt(b.max)) + ' bytes: ' + fmtInt(b.calls) +
      (b.calls === 1 ? ' call' : ' calls');
    row.append(...cells);
    box.append(row);
  }
}

function fillSitesFacts() {
  const facts = $('sites-facts');
  const info = $('sites-info');
  if (!siteStats) {
    info.textContent = 'No site statistics beside this profile (massif-native writes them beside each massif.out ' +
      'file, as massif.sites.PID; Valgrind\'s Massif does not): no calls, temporary allocations or leaks to show. ' +
      (flame.snap >= 0 ? 'The stacks of the peak are below.' : '');
    info.classList.add('empty');
    return;
  }
  const t = siteStats.total;
  info.textContent = 'heaptrack\'s figures over the whole run, from the site statistics beside the profile.';
  const add = (k, v) => { facts.append(el('dt', '', k), el('dd', '', v)); };
  add('Calls to allocation functions', fmtInt(t.calls) + ', asking for ' + fmtBytesExact(t.bytes));
  add('Temporary allocations', fmtInt(t.temporary) + ' (' + pct(t.temporary, t.calls) + ' of the calls), ' +
      fmtBytesExact(t.temporary_bytes));
  add('Leaked (live at the end)', fmtBytesExact(t.leaked_bytes) + ' in ' + fmtInt(t.leaked_blocks) +
      (t.leaked_blocks === 1 ? ' block' : ' blocks'));
  add('Sites', fmtInt(siteList.length));
}

function setupSites() {
  peakRows = peakStacks();
  peakBytesOf = new Map(peakRows.map((r) => [stackKey(r.frames), r.bytes]));
  siteOfKey = new Map(siteList.map((s, i) => [stackKey(s.frames), i]));
  fillSitesFacts();
  fillSizes();
  const bar = $('sites-tabs');
  for (const tab of SITE_TABS) {
    const b = el('button', '', tab.label);
    b.type = 'button';
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-controls', 'sites-panel');
    b.dataset.tab = tab.id;
    b.disabled = tab.id === 'peak' ? flame.snap < 0 : !siteStats;
    b.addEventListener('click', () => showTab(tab.id));
    bar.append(b);
  }
  bar.addEventListener('keydown', (e) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
    const on = [...bar.querySelectorAll('button:not([disabled])')];
    const k = on.findIndex((b) => b.dataset.tab === sitesView.tab.id);
    const to = on[(k + (e.key === 'ArrowLeft' ? on.length - 1 : 1)) % on.length];
    showTab(to.dataset.tab);
    to.focus();
    e.preventDefault();
  });
  if (!siteStats && flame.snap < 0) {
    $('sites-panel').hidden = true;
    return;
  }
  showTab(siteStats ? 'calls' : 'peak');
  const body = $('sites-table').tBodies[0];
  const pick = (tr) => {
    for (const r of body.querySelectorAll('tr.current')) r.classList.remove('current');
    tr.classList.add('current');
    showSiteDetail(sitesView.rows[+tr.dataset.row]);
  };
  body.addEventListener('click', (e) => {
    const tr = e.target.closest('tr');
    if (tr) { pick(tr); tr.focus({ preventScroll: true }); }
  });
  body.addEventListener('keydown', (e) => {
    const tr = e.target.closest('tr');
    if (!tr) return;
    let to = null;
    if (e.key === 'ArrowDown') to = tr.nextElementSibling;
    else if (e.key === 'ArrowUp') to = tr.previousElementSibling;
    else if (e.key === 'Enter' || e.key === ' ') { pick(tr); e.preventDefault(); return; }
    else return;
    e.preventDefault();
    if (to) {
      tr.tabIndex = -1;
      to.tabIndex = 0;
      to.focus();
    }
  });
}

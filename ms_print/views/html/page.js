// The page's script: reads the profile's JSON (parsed once) and draws the
// memory graph (two canvases), the selected snapshot's tree (its DOM built
// only for expanded nodes), and the peak's flame graph. Plain JS, nothing
// loaded. When everything is drawn it sets window.massifReadyAt (ms since
// navigation start) and <html data-ready="true">; massifStartAt and
// massifParsedAt time the script's start and the JSON's parse.
'use strict';
(function () {
  window.massifStartAt = performance.now();
  const $ = (id) => document.getElementById(id);
  const profile = JSON.parse($('profile').textContent);
  window.massifParsedAt = performance.now();
  const frames = profile.frames || [];
  const snaps = profile.snapshots || [];
  const unit = profile.time_unit;
  const peakIndex = profile.peak === null || profile.peak === undefined ? -1 : profile.peak;

  // ---------------------------------------------------------------- Text.
  const intFormat = new Intl.NumberFormat('en-US');
  const fmtInt = (n) => intFormat.format(n);
  const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

  /// Bytes in B/KiB/MiB/GiB with three significant digits.
  function fmtBytes(n) {
    if (n < 1024) return fmtInt(n) + ' B';
    let k = 0;
    while (n >= 1024 && k < BYTE_UNITS.length - 1) { n /= 1024; k++; }
    return (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2)) + ' ' + BYTE_UNITS[k];
  }
  const fmtBytesExact = (n) => n < 1024 ? fmtInt(n) + ' B' : fmtBytes(n) + ' (' + fmtInt(n) + ' B)';

  const UNIT_NAMES = { i: 'instructions', ms: 'milliseconds', B: 'bytes allocated and freed' };
  function fmtTime(t) {
    if (unit === 'B') return fmtBytesExact(t);
    return fmtInt(t) + ' ' + unit;
  }
  /// A short time for an axis label.
  function fmtTimeShort(t) {
    if (unit === 'B') return fmtBytes(t);
    if (unit === 'ms' && t >= 10000) return trimNum(t / 1000) + ' s';
    if (t >= 1e9) return trimNum(t / 1e9) + 'G';
    if (t >= 1e6) return trimNum(t / 1e6) + 'M';
    if (t >= 1e4) return trimNum(t / 1e3) + 'k';
    return fmtInt(t) + (unit === 'ms' ? ' ms' : '');
  }
  const trimNum = (x) => String(Number(x.toPrecision(4)));
  const pct = (part, whole) => whole > 0 ? (100 * part / whole).toFixed(2) + '%' : '0.00%';
  const total = (s) => s.mem_heap_B + s.mem_heap_extra_B + s.mem_stacks_B;
  const hasTree = (s) => !!s.tree;
  const kindOf = (i) => snaps[i].heap_tree === 'empty' ? 'normal' : snaps[i].heap_tree;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // ------------------------------------------------------ C++ names, short.
  let shortNames = false;

  /// Index of the bracket closing the one at s[i] ('<' or '('), or -1.
  function closing(s, i) {
    const want = [];
    for (let j = i; j < s.length; j++) {
      const c = s[j];
      if (c === '<' || c === '(') want.push(c === '<' ? '>' : ')');
      else if (c === '-' && s[j + 1] === '>') j++;
      else if ((c === '>' || c === ')') && want[want.length - 1] === c) {
        want.pop();
        if (!want.length) return j;
      }
    }
    return -1;
  }

  /// Template arguments to <…>, parameter lists to (…). "operator<",
  /// "operator()", "(anonymous namespace)" and a leading "(below main)"
  /// stay as they are.
  function shortenCxx(s) {
    let out = '';
    let i = 0;
    while (i < s.length) {
      const c = s[i];
      if (c === 'o' && s.startsWith('operator', i) && !/[\w$]/.test(s[i - 1] || '') &&
          !/[\w$]/.test(s[i + 8] || '')) {
        let j = i + 8;
        while (s[j] === ' ') j++;
        if (s.startsWith('()', j) || s.startsWith('[]', j)) j += 2;
        else while (j < s.length && '<>=!+-*/%^&|~,'.includes(s[j])) j++;
        out += s.slice(i, j);
        i = j;
        continue;
      }
      if (c === '<' || c === '(') {
        const end = closing(s, i);
        if (end < 0) return out + s.slice(i);
        const inner = s.slice(i + 1, end);
        if (inner === '' || (c === '(' && (i === 0 || inner === 'anonymous namespace')))
          out += s.slice(i, end + 1);
        else
          out += c + '\u2026' + (c === '<' ? '>' : ')');
        i = end + 1;
        continue;
      }
      out += c;
      i++;
    }
    return out;
  }

  // Per frame: its display name (both ways), location, search text.
  const shortCache = new Map();
  function frameName(f) {
    const fr = frames[f];
    if (fr.kind !== 'code') return fr.text;
    if (!shortNames) return fr.function;
    let s = shortCache.get(f);
    if (s === undefined) { s = shortenCxx(fr.function); shortCache.set(f, s); }
    return s;
  }
  function frameLocation(f) {
    const fr = frames[f];
    if (fr.kind !== 'code') return '';
    if (fr.file) return fr.file + ':' + fr.line;
    if (fr.object) return 'in ' + fr.object;
    return '';
  }
  const lowerText = [];
  function frameSearchText(f) {
    let s = lowerText[f];
    if (s === undefined) s = lowerText[f] = frames[f].text.toLowerCase();
    return s;
  }
  /// The text without the address: what the flame graph merges on.
  const frameKey = (f) => frames[f].text.replace(/^0x[0-9A-Fa-f]+: /, '');

  // ------------------------------------------------------------ Header.
  function fillHeader() {
    document.title = 'Massif: ' + (profile.cmd || 'profile');
    $('head-cmd').textContent = profile.cmd;
    const facts = $('facts');
    const add = (k, v) => { facts.append(el('dt', '', k), el('dd', '', v)); };
    const detailed = snaps.filter(hasTree).length;
    add('Command', profile.cmd);
    add('Massif arguments', profile.desc);
    add('Time unit', unit + (UNIT_NAMES[unit] ? ' (' + UNIT_NAMES[unit] + ')' : ''));
    add('Snapshots', fmtInt(snaps.length) + ' (' + fmtInt(detailed) + ' detailed, ' +
        fmtInt(snaps.length - detailed) + ' normal)');
    if (peakIndex >= 0) {
      const p = snaps[peakIndex];
      add('Peak', 'snapshot ' + p.snapshot + ' at ' + fmtTime(p.time) + ': ' + fmtBytesExact(total(p)) +
          ' (heap ' + fmtBytes(p.mem_heap_B) + ', extra heap ' + fmtBytes(p.mem_heap_extra_B) +
          ', stacks ' + fmtBytes(p.mem_stacks_B) + ')');
    } else {
      add('Peak', 'none (no snapshots)');
    }
  }

  // ------------------------------------------------------------- Graph.
  const COLORS = {
    heap: '#9cc3ec', heapEdge: '#3f7cc4', extra: '#f6cf8f', extraEdge: '#d39a3a',
    stacks: '#aedba9', stacksEdge: '#4f9a48', normal: '#7d8794', detailed: '#1f5fa8',
    peak: '#d9412b', axis: '#8b95a3', grid: '#e8ecf1', text: '#4a5260', select: '#1d2430', hover: '#9aa3ae',
  };
  const M = { left: 78, right: 18, top: 14, bottom: 38 };
  const graph = {
    w: 0, h: 0, x0: 0, x1: 1, yMax: 1,
    xs: new Float64Array(snaps.length),
    detailedIdx: [], // indexes of snapshots with a tree, ascending
  };
  for (let i = 0; i < snaps.length; i++) if (hasTree(snaps[i])) graph.detailedIdx.push(i);
  const hasExtra = snaps.some((s) => s.mem_heap_extra_B > 0);
  const hasStacks = snaps.some((s) => s.mem_stacks_B > 0);

  function legendMark(svgInner, w) {
    return '<svg width="' + (w || 14) + '" height="14" viewBox="0 0 ' + (w || 14) + ' 14" aria-hidden="true">' + svgInner + '</svg>';
  }
  function fillLegend() {
    const parts = [];
    const swatch = (fill, edge) => legendMark('<rect x="1" y="2" width="12" height="10" rx="2" fill="' + fill + '" stroke="' + edge + '"/>');
    parts.push('<span>' + swatch(COLORS.heap, COLORS.heapEdge) + 'heap</span>');
    if (hasExtra) parts.push('<span>' + swatch(COLORS.extra, COLORS.extraEdge) + 'extra heap (admin, alignment)</span>');
    if (hasStacks) parts.push('<span>' + swatch(COLORS.stacks, COLORS.stacksEdge) + 'stacks</span>');
    parts.push('<span>' + legendMark('<rect x="6" y="6" width="3" height="3" fill="' + COLORS.normal + '"/>') + 'normal snapshot <code>:</code></span>');
    parts.push('<span>' + legendMark('<circle cx="7" cy="7" r="4" fill="' + COLORS.detailed + '" stroke="#fff"/>') + 'detailed snapshot <code>@</code></span>');
    parts.push('<span>' + legendMark('<path d="M7 1 L13 7 L7 13 L1 7 Z" fill="' + COLORS.peak + '" stroke="#fff"/>') + 'peak <code>#</code></span>');
    parts.push('<span>' + legendMark('<line x1="7" y1="0" x2="7" y2="14" stroke="' + COLORS.select + '" stroke-width="2"/>') + 'selected</span>');
    $('legend').innerHTML = parts.join('');
  }

  /// About n "nice" ticks over [lo, hi]: multiples of 1, 2 or 5 x 10^k,
  /// or for bytes of 1, 2, 4 ... x 1024^k. With cover, the last tick is at
  /// or past hi.
  function ticks(lo, hi, n, binary, cover) {
    const span = hi - lo;
    if (!(span > 0)) return [lo];
    let step;
    if (binary) {
      let base = 1;
      while (span / base >= 1024 * n / 4 && base < 1024 ** 5) base *= 1024;
      const raw = span / n / base;
      const cands = [1, 2, 4, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];
      step = base * (cands.find((c) => c >= raw) || 1024);
    } else {
      const raw = span / n;
      const mag = 10 ** Math.floor(Math.log10(raw));
      const f = raw / mag;
      step = mag * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
    }
    const out = [];
    for (let k = Math.ceil(lo / step); k * step <= hi + step * 1e-9; k++) out.push(k * step);
    if (cover && out[out.length - 1] < hi) out.push(out[out.length - 1] + step);
    return out;
  }

  function setupCanvas(c, w, h) {
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
    const g = c.getContext('2d');
    g.setTransform(dpr, 0, 0, dpr, 0, 0);
    return g;
  }

  const xOf = (t) => M.left + (graph.x1 === graph.x0 ? 0.5 : (t - graph.x0) / (graph.x1 - graph.x0)) * (graph.w - M.left - M.right);
  const yOf = (b) => graph.h - M.bottom - (b / graph.yMax) * (graph.h - M.top - M.bottom);

  function drawGraph() {
    const wrap = $('graph-wrap');
    graph.w = wrap.clientWidth;
    graph.h = wrap.clientHeight;
    const g = setupCanvas($('graph'), graph.w, graph.h);
    setupCanvas($('graph-over'), graph.w, graph.h);
    if (!snaps.length) {
      $('graph-empty').hidden = false;
      $('graph-empty').textContent = 'The profile has no snapshots.';
      return;
    }
    let x0 = Infinity, x1 = -Infinity, yMax = 0;
    for (const s of snaps) {
      if (s.time < x0) x0 = s.time;
      if (s.time > x1) x1 = s.time;
      const t = total(s);
      if (t > yMax) yMax = t;
    }
    graph.x0 = x0; graph.x1 = x1;
    const yTicks = ticks(0, Math.max(yMax, 1) * 1.04, 5, true, true);
    graph.yMax = Math.max(yTicks[yTicks.length - 1], 1);
    const n = snaps.length;
    const xs = graph.xs;
    for (let i = 0; i < n; i++) xs[i] = xOf(snaps[i].time);
    const plotBottom = graph.h - M.bottom;

    // Grid and axes.
    g.font = '11px system-ui, sans-serif';
    g.fillStyle = COLORS.text;
    g.strokeStyle = COLORS.grid;
    g.lineWidth = 1;
    g.textAlign = 'right';
    g.textBaseline = 'middle';
    for (const v of yTicks) {
      const y = Math.round(yOf(v)) + 0.5;
      g.beginPath(); g.moveTo(M.left, y); g.lineTo(graph.w - M.right, y); g.stroke();
      g.fillText(fmtBytes(v), M.left - 6, y);
    }
    g.textAlign = 'center';
    g.textBaseline = 'top';
    const xTicks = ticks(x0, x1, Math.max(2, Math.floor((graph.w - M.left - M.right) / 110)), unit === 'B');
    for (const v of xTicks) {
      const x = Math.round(xOf(v)) + 0.5;
      g.strokeStyle = COLORS.grid;
      g.beginPath(); g.moveTo(x, M.top); g.lineTo(x, plotBottom); g.stroke();
      g.fillText(fmtTimeShort(v), x, plotBottom + 5);
    }
    g.fillText('time (' + unit + ')', (M.left + graph.w - M.right) / 2, plotBottom + 21);
    g.save();
    g.translate(14, (M.top + plotBottom) / 2);
    g.rotate(-Math.PI / 2);
    g.fillText('memory (bytes)', 0, -6);
    g.restore();
    g.strokeStyle = COLORS.axis;
    g.beginPath();
    g.moveTo(M.left + 0.5, M.top); g.lineTo(M.left + 0.5, plotBottom + 0.5); g.lineTo(graph.w - M.right, plotBottom + 0.5);
    g.stroke();

    // The stacked bands, each one path: heap, extra heap, stacks.
    const lows = new Float64Array(n);
    const band = (value, fill, edge) => {
      const highs = new Float64Array(n);
      for (let i = 0; i < n; i++) highs[i] = lows[i] + value(snaps[i]);
      g.beginPath();
      g.moveTo(xs[0], yOf(highs[0]));
      for (let i = 1; i < n; i++) g.lineTo(xs[i], yOf(highs[i]));
      for (let i = n - 1; i >= 0; i--) g.lineTo(xs[i], yOf(lows[i]));
      g.closePath();
      g.fillStyle = fill;
      g.fill();
      g.beginPath();
      g.moveTo(xs[0], yOf(highs[0]));
      for (let i = 1; i < n; i++) g.lineTo(xs[i], yOf(highs[i]));
      g.strokeStyle = edge;
      g.lineWidth = 1.25;
      g.stroke();
      lows.set(highs);
    };
    band((s) => s.mem_heap_B, COLORS.heap, COLORS.heapEdge);
    if (hasExtra) band((s) => s.mem_heap_extra_B, COLORS.extra, COLORS.extraEdge);
    if (hasStacks) band((s) => s.mem_stacks_B, COLORS.stacks, COLORS.stacksEdge);

    // Markers on the total: normal ':' small squares, detailed '@' dots,
    // the peak '#' a diamond.
    g.fillStyle = COLORS.normal;
    for (let i = 0; i < n; i++)
      if (!hasTree(snaps[i])) g.fillRect(xs[i] - 1.25, yOf(total(snaps[i])) - 1.25, 2.5, 2.5);
    g.fillStyle = COLORS.detailed;
    g.strokeStyle = '#ffffff';
    g.lineWidth = 1;
    for (const i of graph.detailedIdx) {
      if (i === peakIndex) continue;
      g.beginPath();
      g.arc(xs[i], yOf(total(snaps[i])), 3.5, 0, 2 * Math.PI);
      g.fill();
      g.stroke();
    }
    if (peakIndex >= 0) {
      const x = xs[peakIndex], y = yOf(total(snaps[peakIndex]));
      g.beginPath();
      g.moveTo(x, y - 7); g.lineTo(x + 7, y); g.lineTo(x, y + 7); g.lineTo(x - 7, y); g.closePath();
      g.fillStyle = COLORS.peak;
      g.fill();
      g.lineWidth = 1.5;
      g.stroke();
    }
    drawOverlay();
  }

  let selected = -1;
  let hovered = -1;

  function drawOverlay() {
    const c = $('graph-over');
    const g = c.getContext('2d');
    g.clearRect(0, 0, graph.w, graph.h);
    const line = (i, color, width) => {
      const x = Math.round(graph.xs[i]) + 0.5;
      g.strokeStyle = color;
      g.lineWidth = width;
      g.beginPath(); g.moveTo(x, M.top); g.lineTo(x, graph.h - M.bottom); g.stroke();
      g.beginPath();
      g.arc(graph.xs[i], yOf(total(snaps[i])), 9, 0, 2 * Math.PI);
      g.stroke();
    };
    if (hovered >= 0 && hovered !== selected) line(hovered, COLORS.hover, 1);
    if (selected >= 0) line(selected, COLORS.select, 2);
  }

  /// The snapshot under x: the nearest one, or a detailed one within 5 px
  /// of it (there are ten normal snapshots for each detailed one).
  function pickAt(x) {
    let best = -1, bestD = Infinity, bestDet = -1, bestDetD = Infinity;
    const xs = graph.xs;
    for (let i = 0; i < snaps.length; i++) {
      const d = Math.abs(xs[i] - x);
      if (d < bestD) { bestD = d; best = i; }
      if (d < bestDetD && hasTree(snaps[i])) { bestDetD = d; bestDet = i; }
    }
    if (best >= 0 && !hasTree(snaps[best]) && bestDet >= 0 && bestDetD <= 5) return bestDet;
    return best;
  }

  function showGraphTip(i, px, py) {
    const tip = $('graph-tip');
    const s = snaps[i];
    const k = kindOf(i);
    tip.innerHTML = '';
    const line = (label, value) => {
      const d = el('div');
      d.append(el('b', '', label + ' '), el('span', 'mono', value));
      tip.append(d);
    };
    line('Snapshot', s.snapshot + ' (' + (k === 'peak' ? 'peak' : k) + (i === peakIndex && k !== 'peak' ? ', the largest' : '') + ')');
    line('Time', fmtTime(s.time));
    line('Total', fmtBytesExact(total(s)));
    line('Heap', fmtBytesExact(s.mem_heap_B));
    if (hasExtra) line('Extra heap', fmtBytesExact(s.mem_heap_extra_B));
    if (hasStacks) line('Stacks', fmtBytesExact(s.mem_stacks_B));
    tip.hidden = false;
    const wrapW = graph.w;
    const tw = tip.offsetWidth;
    let left = px + 14;
    if (left + tw > wrapW - 4) left = Math.max(4, px - tw - 14);
    tip.style.left = left + 'px';
    tip.style.top = Math.max(4, Math.min(py - 10, graph.h - tip.offsetHeight - 4)) + 'px';
  }

  function setupGraphEvents() {
    const c = $('graph');
    c.setAttribute('aria-label', 'Memory over time: ' + snaps.length + ' snapshots');
    c.addEventListener('mousemove', (e) => {
      if (!snaps.length) return;
      const r = c.getBoundingClientRect();
      const i = pickAt(e.clientX - r.left);
      if (i !== hovered) { hovered = i; drawOverlay(); }
      if (i >= 0) showGraphTip(i, e.clientX - r.left, e.clientY - r.top);
    });
    c.addEventListener('mouseleave', () => {
      hovered = -1;
      $('graph-tip').hidden = true;
      drawOverlay();
    });
    c.addEventListener('click', (e) => {
      if (!snaps.length) return;
      const r = c.getBoundingClientRect();
      const i = pickAt(e.clientX - r.left);
      if (i >= 0) select(i);
    });
    c.addEventListener('keydown', (e) => {
      if (!snaps.length) return;
      let i = selected < 0 ? 0 : selected;
      const det = graph.detailedIdx;
      switch (e.key) {
        case 'ArrowLeft': i = Math.max(0, i - 1); break;
        case 'ArrowRight': i = Math.min(snaps.length - 1, i + 1); break;
        case 'PageUp': { const p = det.filter((d) => d < i); if (p.length) i = p[p.length - 1]; break; }
        case 'PageDown': { const p = det.find((d) => d > i); if (p !== undefined) i = p; break; }
        case 'Home': i = 0; break;
        case 'End': i = snaps.length - 1; break;
        case 'p': case 'P': if (peakIndex >= 0) i = peakIndex; break;
        default: return;
      }
      e.preventDefault();
      select(i);
      const y = yOf(total(snaps[i]));
      showGraphTip(i, graph.xs[i], y);
    });
    c.addEventListener('blur', () => { $('graph-tip').hidden = true; });
  }

  // -------------------------------------------------------------- Trees.
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

  // ------------------------------------------------------------- Search.
  const MAX_SHOWN_HITS = 500;

  function clearHits() {
    for (const li of tree.hitRows) {
      const row = li.firstChild;
      row.classList.remove('hit', 'current');
      for (const m of row.querySelectorAll('mark')) m.replaceWith(m.textContent);
      row.normalize();
    }
    tree.hitRows = [];
    tree.hits = [];
    tree.current = -1;
  }

  function markText(span, q) {
    const text = span.textContent;
    const at = text.toLowerCase().indexOf(q);
    if (at < 0) return;
    span.textContent = '';
    const m = el('mark', '', text.slice(at, at + q.length));
    span.append(text.slice(0, at), m, text.slice(at + q.length));
  }

  function runSearch() {
    clearHits();
    const q = tree.query;
    if (!q || !tree.root) { updateSearchCount(); return; }
    for (const n of snaps[tree.snap]._nodes)
      if (frameSearchText(n.frame).includes(q)) tree.hits.push(n);
    for (const n of tree.hits.slice(0, MAX_SHOWN_HITS)) {
      reveal(n);
      const li = tree.rows.get(n);
      li.firstChild.classList.add('hit');
      for (const span of li.firstChild.querySelectorAll('.fn, .loc')) markText(span, q);
      tree.hitRows.push(li);
    }
    updateSearchCount();
  }

  function updateSearchCount() {
    const out = $('search-count');
    const n = tree.hits.length;
    out.dataset.count = String(n);
    out.dataset.query = tree.query;
    out.classList.toggle('none', !!tree.query && n === 0);
    if (!tree.query) out.textContent = '';
    else if (!tree.root) out.textContent = 'no tree to search';
    else out.textContent = n === 0 ? 'no match' : n === 1 ? '1 match' : fmtInt(n) + ' matches' +
      (n > MAX_SHOWN_HITS ? ' (first ' + MAX_SHOWN_HITS + ' shown)' : '');
  }

  function gotoHit(step) {
    const shown = tree.hitRows.length;
    if (!shown) return;
    if (tree.current >= 0) tree.hitRows[tree.current].firstChild.classList.remove('current');
    tree.current = ((tree.current + step) % shown + shown) % shown;
    const row = tree.hitRows[tree.current].firstChild;
    row.classList.add('current');
    row.scrollIntoView({ block: 'center' });
  }

  function setupSearch() {
    const box = $('search');
    let timer = 0;
    const apply = () => {
      timer = 0;
      const q = box.value.trim().toLowerCase();
      if (q === tree.query) return;
      tree.query = q;
      runSearch();
    };
    box.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(apply, 120);
    });
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        if (timer) { clearTimeout(timer); apply(); }
        gotoHit(e.shiftKey ? -1 : 1);
      } else if (e.key === 'Escape') {
        box.value = '';
        clearTimeout(timer);
        apply();
      }
    });
  }

  // -------------------------------------------------------- Flame graph.
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

  // ------------------------------------------------------------ Toggle.
  function setupShorten() {
    const box = $('shorten');
    box.checked = false;
    box.addEventListener('change', () => {
      shortNames = box.checked;
      document.documentElement.dataset.short = String(shortNames);
      for (const row of $('tree').querySelectorAll('.row')) rowLabel(row, +row.dataset.frame);
      if (tree.query) runSearch();
      renderFlame();
    });
  }

  // ------------------------------------------------------------- Start.
  fillHeader();
  fillLegend();
  setupGraphEvents();
  setupTreeEvents();
  setupSearch();
  setupShorten();
  drawGraph();
  if (snaps.length) {
    select(peakIndex >= 0 ? peakIndex : 0);
  } else {
    const li = el('li', 'empty', 'The profile has no snapshots.');
    $('tree').append(li);
  }
  setupFlame();
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { drawGraph(); renderFlame(); }, 100);
  });
  // For tests and the load benchmark.
  window.massifPage = {
    selected: () => selected < 0 ? null : snaps[selected].snapshot,
    /// The viewport point of snapshot index i on the graph.
    pointOf: (i) => {
      const r = $('graph').getBoundingClientRect();
      return [r.left + graph.xs[i], r.top + yOf(total(snaps[i]))];
    },
    flameSnapshot: () => flame.snap < 0 ? null : snaps[flame.snap].snapshot,
    shortenCxx,
  };
  window.massifReadyAt = performance.now();
  document.documentElement.dataset.ready = 'true';
})();

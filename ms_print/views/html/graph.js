// The memory graph: one canvas for the stacked totals (heap, extra heap,
// stacks), the axes and the snapshot markers, and an overlay canvas for
// the selected and hovered snapshots; hover, click and keys.

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
  // the peak '#' a diamond. Crowded markers shrink; normal ones less than
  // 3 px apart on average are left out (the line shows them).
  const plotW = graph.w - M.left - M.right;
  if (plotW / n >= 3) {
    g.fillStyle = COLORS.normal;
    for (let i = 0; i < n; i++)
      if (!hasTree(snaps[i])) g.fillRect(xs[i] - 1.25, yOf(total(snaps[i])) - 1.25, 2.5, 2.5);
  }
  const roomy = plotW / Math.max(1, graph.detailedIdx.length) >= 8;
  g.fillStyle = COLORS.detailed;
  g.strokeStyle = '#ffffff';
  g.lineWidth = 1;
  for (const i of graph.detailedIdx) {
    if (i === peakIndex) continue;
    g.beginPath();
    g.arc(xs[i], yOf(total(snaps[i])), roomy ? 3.5 : 1.6, 0, 2 * Math.PI);
    g.fill();
    if (roomy) g.stroke();
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

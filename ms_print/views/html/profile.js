// The profile (the page's JSON, parsed once) and its text: numbers,
// bytes, times and percentages as the page writes them; frame names, with
// C++ names shortened on demand; the header.

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
/// What the flame graph merges sibling frames on, the frame names of the
/// collapsed and pprof exports (StackWalk.h): a code frame's function,
/// whatever its address and line; "???" keeps its object; the places
/// below Massif's threshold are "(below threshold)"; the root is its
/// first group, "(heap allocation functions)".
function frameKey(f) {
  const fr = frames[f];
  if (fr.kind === 'insignificant') return '(below threshold)';
  if (fr.kind === 'root') {
    const group = /^\([^)]*\)/.exec(fr.text);
    return group ? group[0] : fr.text;
  }
  if (fr.kind !== 'code') return fr.text;
  if (fr.function === '???' && fr.object) return '??? (in ' + fr.object + ')';
  return fr.function;
}

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

// The tree's search box: every node whose text holds the string is
// counted; the first MAX_SHOWN_HITS are highlighted and their callers
// opened.

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

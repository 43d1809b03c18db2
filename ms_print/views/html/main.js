// The "Shorten C++ names" toggle and the start: everything is drawn, the
// peak selected, then the page says it is ready (window.massifReadyAt, ms
// since navigation start, and <html data-ready="true">). massifPage is
// for the tests.

function setupShorten() {
  const box = $('shorten');
  box.checked = false;
  box.addEventListener('change', () => {
    shortNames = box.checked;
    document.documentElement.dataset.short = String(shortNames);
    for (const row of $('tree').querySelectorAll('.row')) rowLabel(row, +row.dataset.frame);
    if (tree.query) runSearch();
    renderFlame();
    if (sitesView.tab) showTab(sitesView.tab.id);
    if (sitesView.detail) showSiteDetail(sitesView.detail);
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
setupSites();
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
  flameMetric: () => flame.metric,
  shortenCxx,
};
window.massifReadyAt = performance.now();
document.documentElement.dataset.ready = 'true';

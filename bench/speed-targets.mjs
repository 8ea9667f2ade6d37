/**
 * Issue 28's speed targets in one table, from the figures of one bench run side by side:
 * - cold CLI: per image, Tracelab's CLI process time over VTracer's native binding's (the main
 *   table's `time ms`, fresh processes); median per kind, target ≤ 1.5×;
 * - warm library: bench/warm.mjs rows (decode + trace + SVG in one process, interleaved image by
 *   image with VTracer's binding); total ratio ≤ 1.0× and every kind's median ratio ≤ 1.3×; the
 *   garbage collector's share of Tracelab's warm time (goal under 5 %);
 * - batch: the CLI over the folder on every core against the binding image by image, ≤ 0.6×;
 * - Chromium: bench/browser.mjs rows, per-kind median of Tracelab over vtracer-wasm, ≤ 0.5×.
 * The playground's figures have their own table (bench/playground.mjs).
 * In: rows as those scripts return them (absent parts are left out). Out: Markdown lines.
 */

const median = (values) => {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

const ratio = (v) => (Number.isFinite(v) ? `${v.toFixed(2)}×` : 'n/a');
const mark = (v, goal) => (Number.isFinite(v) ? (v <= goal ? '✓' : '✗') : '');
const kindsOf = (rows) => [...new Set(rows.map((r) => r.category))];

/** Per kind, the median over its images of Tracelab's time over the peer's ({ kind, images, ratio }). */
export function kindRatios(rows, tracelab, peer) {
  return kindsOf(rows).map((kind) => {
    const rs = rows.filter((r) => r.category === kind && Number.isFinite(tracelab(r)) && Number.isFinite(peer(r)) && peer(r) > 0);
    return { kind, images: rs.length, ratio: median(rs.map((r) => tracelab(r) / peer(r))) };
  }).filter((k) => k.images > 0);
}

/** Cold CLI rows from the main table's per-image rows ({ tracer, file, category, time_ms }). */
export function coldRows(rows) {
  const byFile = new Map();
  for (const r of rows) {
    if (r.time_ms === null || r.time_ms === undefined || r.status === 'failed') continue;
    const entry = byFile.get(r.file) ?? { file: r.file, category: r.category };
    entry[r.tracer] = r.time_ms;
    byFile.set(r.file, entry);
  }
  return [...byFile.values()];
}

/**
 * @param {{ cold?: object[], warm?: object[], batch?: { images: number, tracelabS: number, nativeS: number }, browser?: object[] }} parts
 */
export function speedTargetsTable({ cold = [], warm = [], batch, browser = [] }) {
  const md = ['### Issue 28 speed targets (this run, side by side)', ''];
  md.push('| target | measured | goal | holds |', '| --- | --- | --- | --- |');
  const perKind = (ks) => ks.map((k) => `${k.kind} ${ratio(k.ratio)}`).join(', ');
  const worst = (ks) => Math.max(...ks.map((k) => k.ratio));
  if (cold.length > 0) {
    const ks = kindRatios(cold, (r) => r.tracelab, (r) => r['vtracer-native']);
    if (ks.length > 0) md.push(`| cold CLI / native VTracer, per-kind median | ${perKind(ks)} | ≤ 1.5× every kind | ${mark(worst(ks), 1.5)} |`);
  }
  if (warm.length > 0) {
    const total = warm.reduce((s, r) => s + r.tracelab, 0) / warm.reduce((s, r) => s + r['vtracer-native'], 0);
    md.push(`| warm library / VTracer's binding, total | ${ratio(total)} over ${warm.length} images | ≤ 1.0× | ${mark(total, 1)} |`);
    const ks = kindRatios(warm, (r) => r.tracelab, (r) => r['vtracer-native']);
    md.push(`| warm library / VTracer's binding, per-kind median | ${perKind(ks)} | ≤ 1.3× every kind | ${mark(worst(ks), 1.3)} |`);
    const gc = median(warm.map((r) => r.gcShare));
    if (Number.isFinite(gc)) md.push(`| GC share of a warm trace (median image) | ${(gc * 100).toFixed(0)} % | under 5 % | ${mark(gc, 0.05 - 1e-9)} |`);
  }
  if (batch) {
    const b = batch.tracelabS / batch.nativeS;
    md.push(`| batch CLI (every core) / the binding image by image | ${ratio(b)} (${batch.images} images: ${batch.tracelabS.toFixed(1)} s vs ${batch.nativeS.toFixed(1)} s) | ≤ 0.6× | ${mark(b, 0.6)} |`);
  }
  if (browser.length > 0) {
    const ks = kindRatios(browser, (r) => r.tracelab, (r) => r.vtracer);
    md.push(`| Chromium / vtracer-wasm, per-kind median | ${perKind(ks)} | ≤ 0.5× every kind | ${mark(worst(ks), 0.5)} |`);
  }
  md.push('');
  return md;
}

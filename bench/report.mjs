/**
 * Per-image report of a bench run: Tracelab's bytes against VTracer's and against the original
 * artwork's SVG, the worst image of each kind, the lowest pixel-art SSIM, seams per image, and the
 * per-kind targets of the shapes issue (median SSIM ≥ the best peer's, ΔE00 ≤ 0.8 × the best
 * peer's, gzip ≤ VTracer's, gap 0.000 %; every image gzip ≤ 2× VTracer's and ≤ 2× the original
 * SVG's; every pixel-art SSIM ≥ 0.95).
 *
 * In: the bench's rows (objects with the CSV's columns) and the corpus folder (for *.ref.svg).
 * Out: Markdown lines. `node bench/report.mjs [latest.csv] [corpus]` prints it for a finished run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const CATEGORIES = ['clipart', 'icon', 'lineart_bw', 'pixel', 'photo', 'jpeg'];
const PEERS = ['vtracer-native', 'vtracer-wasm', 'imagetracerjs', 'potrace'];

function median(values) {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

const fmt = (v, digits = 2) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const kb = (v) => (Number.isFinite(v) ? `${(v / 1000).toFixed(1)} k` : 'n/a');

/** gzip -9 size of each image's reference SVG, by image file name (absent when none). */
export function referenceSizes(images, corpusDir) {
  const sizes = new Map();
  for (const im of images) {
    if (!im.reference_svg) continue;
    const file = join(corpusDir, im.reference_svg);
    if (existsSync(file)) sizes.set(im.file, gzipSync(readFileSync(file), { level: 9 }).length);
  }
  return sizes;
}

/**
 * Adds `gzip_vs_vtracer` and `gzip_vs_ref` to Tracelab's rows (ratios; empty when the other side
 * is missing) and returns the per-image records the report uses.
 */
export function annotateRows(rows, refSizes) {
  const byKey = new Map(rows.map((r) => [`${r.tracer}|${r.file}`, r]));
  const records = [];
  for (const r of rows) {
    if (r.tracer !== 'tracelab' || r.status !== 'ok') continue;
    const vt = byKey.get(`vtracer-native|${r.file}`);
    const ref = refSizes.get(r.file);
    r.gzip_vs_vtracer = vt?.status === 'ok' ? r.gzip_bytes / vt.gzip_bytes : '';
    r.gzip_vs_ref = ref ? r.gzip_bytes / ref : '';
    records.push({ row: r, vtracer: vt?.status === 'ok' ? vt : undefined, refGzip: ref });
  }
  return records;
}

/** Median per kind for one tracer. */
function kindMedians(rows, tracer, category) {
  const rs = rows.filter((r) => r.tracer === tracer && r.category === category && r.status === 'ok');
  if (rs.length === 0) return undefined;
  return {
    ssim: median(rs.map((r) => r.ssim)),
    de: median(rs.map((r) => r.de2000)),
    gap: median(rs.map((r) => r.gap_pct)),
    gzip: median(rs.map((r) => r.gzip_bytes)),
  };
}

export function imageReport(rows, images, corpusDir) {
  const records = annotateRows(rows, referenceSizes(images, corpusDir));
  const md = [];
  const cats = CATEGORIES.filter((c) => records.some((x) => x.row.category === c));
  if (records.length === 0) return md;

  md.push('### Targets per kind (Tracelab medians against the best peer)', '');
  md.push('| kind | SSIM (best peer) | ΔE00 (≤ 0.8 × best peer) | gzip (VTracer) | gap % (0) | images ≤ 2× VTracer | images ≤ 2× original SVG |');
  md.push('| --- | --- | --- | --- | --- | --- | --- |');
  for (const c of cats) {
    const ours = kindMedians(rows, 'tracelab', c);
    const peers = PEERS.map((p) => kindMedians(rows, p, c)).filter(Boolean);
    const bestSsim = Math.max(...peers.map((p) => p.ssim));
    const bestDe = Math.min(...peers.map((p) => p.de));
    const vt = kindMedians(rows, 'vtracer-native', c);
    const inKind = records.filter((x) => x.row.category === c);
    const withVt = inKind.filter((x) => x.vtracer);
    const withRef = inKind.filter((x) => x.refGzip);
    const mark = (ok) => (ok ? '✓' : '✗');
    md.push(
      `| ${c} | ${fmt(ours.ssim, 4)} ${peers.length ? mark(ours.ssim >= bestSsim) : ''} (${fmt(bestSsim, 4)}) | ${fmt(ours.de)} ${peers.length ? mark(ours.de <= 0.8 * bestDe) : ''} (≤ ${fmt(0.8 * bestDe)}) | ${kb(ours.gzip)} ${vt ? mark(ours.gzip <= vt.gzip) : ''} (${vt ? kb(vt.gzip) : 'n/a'}) | ${fmt(ours.gap, 3)} ${mark(ours.gap === 0)} | ${withVt.filter((x) => x.row.gzip_vs_vtracer <= 2).length}/${withVt.length} | ${withRef.length ? `${withRef.filter((x) => x.row.gzip_vs_ref <= 2).length}/${withRef.length}` : 'n/a'} |`,
    );
  }
  md.push('');

  md.push('### Worst image of each kind (Tracelab)', '');
  md.push('| kind | largest gzip vs VTracer | largest gzip vs original SVG | lowest SSIM | most seams (gap %) |');
  md.push('| --- | --- | --- | --- | --- |');
  const worst = (list, key, pick) => list.filter((x) => Number.isFinite(key(x))).sort((a, b) => pick * (key(b) - key(a)))[0];
  for (const c of cats) {
    const inKind = records.filter((x) => x.row.category === c);
    const vt = worst(inKind, (x) => (x.row.gzip_vs_vtracer === '' ? NaN : x.row.gzip_vs_vtracer), 1);
    const ref = worst(inKind, (x) => (x.row.gzip_vs_ref === '' ? NaN : x.row.gzip_vs_ref), 1);
    const ssim = worst(inKind, (x) => x.row.ssim, -1);
    const gap = worst(inKind, (x) => x.row.gap_pct, 1);
    md.push(
      `| ${c} | ${vt ? `${vt.row.id} ${fmt(vt.row.gzip_vs_vtracer)}×` : 'n/a'} | ${ref ? `${ref.row.id} ${fmt(ref.row.gzip_vs_ref)}×` : 'n/a'} | ${ssim ? `${ssim.row.id} ${fmt(ssim.row.ssim, 4)}` : 'n/a'} | ${gap ? `${gap.row.id} ${fmt(gap.row.gap_pct, 3)}` : 'n/a'} |`,
    );
  }
  const pixel = records.filter((x) => x.row.category === 'pixel');
  if (pixel.length) {
    const low = worst(pixel, (x) => x.row.ssim, -1);
    md.push('', `Lowest pixel-art SSIM: ${low.row.id} ${fmt(low.row.ssim, 4)} (target ≥ 0.95 for every pixel-art image: ${pixel.filter((x) => x.row.ssim >= 0.95).length}/${pixel.length}).`);
  }
  md.push('');

  md.push('### Tracelab per image', '');
  md.push('| image | kind | SSIM | ΔE00 | gap % | gzip | vs VTracer | vs original SVG |');
  md.push('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const c of cats) {
    for (const x of records.filter((y) => y.row.category === c)) {
      const r = x.row;
      md.push(
        `| ${r.id} | ${c} | ${fmt(r.ssim, 4)} | ${fmt(r.de2000)} | ${fmt(r.gap_pct, 3)} | ${kb(r.gzip_bytes)} | ${r.gzip_vs_vtracer === '' ? 'n/a' : `${fmt(r.gzip_vs_vtracer)}×`} | ${r.gzip_vs_ref === '' ? 'n/a' : `${fmt(r.gzip_vs_ref)}×`} |`,
      );
    }
  }
  md.push('');
  return md;
}

/** Minimal CSV reader for the bench's own CSV (quoted cells may hold commas). */
export function readCsv(text) {
  const lines = text.split('\n').filter(Boolean);
  const split = (line) => {
    const cells = [];
    let cur = '';
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (quoted) {
        if (ch === '"' && line[i + 1] === '"') {
          cur += '"';
          i++;
        } else if (ch === '"') quoted = false;
        else cur += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ',') {
        cells.push(cur);
        cur = '';
      } else cur += ch;
    }
    cells.push(cur);
    return cells;
  };
  const head = split(lines[0]);
  const numeric = new Set(['ssim', 'psnr', 'de2000', 'gap_pct', 'bytes', 'gzip_bytes', 'paths', 'nodes', 'time_ms', 'rss_mb', 'width', 'height']);
  return lines.slice(1).map((line) => {
    const cells = split(line);
    const row = {};
    head.forEach((h, i) => (row[h] = numeric.has(h) && cells[i] !== '' ? Number(cells[i]) : cells[i]));
    return row;
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const bench = dirname(fileURLToPath(import.meta.url));
  const csvFile = process.argv[2] ?? join(bench, 'results', 'latest.csv');
  const corpus = resolve(process.argv[3] ?? process.env.TRACELAB_CORPUS ?? join(bench, '..', '..', 'shared', 'corpus'));
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
  process.stdout.write(imageReport(readCsv(readFileSync(csvFile, 'utf8')), manifest.images, corpus).join('\n') + '\n');
}

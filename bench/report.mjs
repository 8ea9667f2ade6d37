/**
 * Per-image report of a bench run: Tracelab's bytes against VTracer's and against the original
 * artwork's SVG, the worst image of each kind, the lowest pixel-art SSIM, seams per image, and the
 * per-kind targets of the shapes issue (median SSIM ≥ the best peer's, ΔE00 ≤ 0.8 × the best
 * peer's, gzip ≤ VTracer's, gap 0.000 %; every image gzip ≤ 2× VTracer's and ≤ 2× the original
 * SVG's; every pixel-art SSIM ≥ 0.95). Then the targets of the gradients extension
 * (`tracelab-gradients` = Tracelab with tracelab.gradients=true, `tracelab` = with it off), see
 * gradientSection. Then the targets of issue 27 (1-bit and anti-aliased line art against potrace and
 * VTracer, photos of every size: profile, primitives, gzip), see issue27Section. Then the stroke
 * kind's rows (issue 38: stroke widths written against the artist's), see strokeSection.
 *
 * In: the bench's rows (objects with the CSV's columns) and the corpus folder (for *.ref.svg).
 * Out: Markdown lines. `node bench/report.mjs [latest.csv] [corpus]` prints it for a finished run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { CATEGORIES } from './corpus.mjs';
import { countGradients } from './svgstats.mjs';
import { median } from './median.mjs';

const PEERS = ['vtracer-native', 'vtracer-wasm', 'imagetracerjs', 'potrace'];
/** Tracelab with the gradients extension on (the `tracelab` row has it off, the default). */
const ON = 'tracelab-gradients';
/** Kinds of flat art: no gradient wanted there, with the extension on or off. */
export const FLAT_KINDS = ['clipart', 'icon', 'lineart_bw', 'pixel'];


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

/** Gradient elements of each image's reference SVG, by image file name (absent when none). */
export function referenceGradients(images, corpusDir) {
  const counts = new Map();
  for (const im of images) {
    if (!im.reference_svg) continue;
    const file = join(corpusDir, im.reference_svg);
    if (existsSync(file)) counts.set(im.file, countGradients(readFileSync(file, 'utf8')));
  }
  return counts;
}

/**
 * Adds `gzip_vs_vtracer` and `gzip_vs_ref` to Tracelab's rows, with the gradients extension off
 * and on (ratios; empty when the other side is missing), and returns the per-image records of
 * `tracelab` (extension off) the report uses.
 */
export function annotateRows(rows, refSizes) {
  const byKey = new Map(rows.map((r) => [`${r.tracer}|${r.file}`, r]));
  const records = [];
  for (const r of rows) {
    if ((r.tracer !== 'tracelab' && r.tracer !== ON) || r.status !== 'ok') continue;
    const vt = byKey.get(`vtracer-native|${r.file}`);
    const ref = refSizes.get(r.file);
    r.gzip_vs_vtracer = vt?.status === 'ok' ? r.gzip_bytes / vt.gzip_bytes : '';
    r.gzip_vs_ref = ref ? r.gzip_bytes / ref : '';
    if (r.tracer === 'tracelab') records.push({ row: r, vtracer: vt?.status === 'ok' ? vt : undefined, refGzip: ref });
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

/**
 * The report's Markdown lines: Tracelab's targets, worst images and per-image rows (extension
 * off), then the gradients extension's targets (gradientSection).
 */
export function imageReport(rows, images, corpusDir) {
  const refSizes = referenceSizes(images, corpusDir);
  return [...tracelabReport(rows, refSizes), ...gradientSection(rows, images, refSizes, referenceGradients(images, corpusDir)), ...bandSection(rows), ...issue27Section(rows), ...strokeSection(rows, refSizes)];
}

/** Tracers of the band table: Tracelab both ways and VTracer. */
export const BAND_TRACERS = ['tracelab', 'tracelab-gradients', 'vtracer-native'];

/**
 * Band edges in smooth areas (issue 39: smooth means smooth), per kind and tracer: the median
 * of the per-image `band_px` (metrics.mjs bandEdges: px of visible colour step in the render
 * where the input is smooth), how many images have none, and the worst image.
 */
export function bandRecords(rows) {
  const out = [];
  const kinds = [...new Set(rows.map((r) => r.category))];
  for (const kind of kinds) {
    for (const tracer of BAND_TRACERS) {
      const mine = rows.filter((r) => r.category === kind && r.tracer === tracer && r.status === 'ok' && Number.isFinite(r.band_px));
      if (mine.length === 0) continue;
      const worst = mine.reduce((a, r) => (r.band_px > a.band_px ? r : a));
      out.push({ kind, tracer, n: mine.length, median: median(mine.map((r) => r.band_px)), none: mine.filter((r) => r.band_px === 0).length, worst: { id: worst.id, bandPx: worst.band_px } });
    }
  }
  return out;
}

export function bandSection(rows) {
  const records = bandRecords(rows);
  if (records.length === 0) return [];
  const lines = ['## Band edges in smooth areas (issue 39)', '',
    'px of visible colour step (neighbouring rendered pixels > ΔE00 2 apart) where the input is smooth (no slope over 4 sRGB units/px after a σ 1.5 px blur within 2 px): bands in a sky or a painted gradient; 0 is smooth. Gradients off, bands stay by design.', '',
    '| kind | tracer | images | median band px | images with none | worst image |', '| --- | --- | ---: | ---: | ---: | --- |'];
  for (const r of records) lines.push(`| ${r.kind} | ${r.tracer} | ${r.n} | ${Math.round(r.median)} | ${r.none} | ${r.worst.id} (${Math.round(r.worst.bandPx)}) |`);
  lines.push('');
  return lines;
}

function tracelabReport(rows, refSizes) {
  const records = annotateRows(rows, refSizes);
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

// ---------------------------------------------------------------------------------------------
// The gradients extension's targets

const okRow = (byKey, tracer, file) => {
  const r = byKey.get(`${tracer}|${file}`);
  return r?.status === 'ok' ? r : undefined;
};
const rowIndex = (rows) => new Map(rows.map((r) => [`${r.tracer}|${r.file}`, r]));
const mark = (v) => (v === null ? '–' : v ? '✓' : '✗');
const times = (v) => (Number.isFinite(v) ? `${fmt(v)}×` : 'n/a');
/** The element of `list` with the largest finite `key` (undefined when none has one). */
const largest = (list, key) => list.filter((x) => Number.isFinite(key(x))).reduce((a, x) => (a === undefined || key(x) > key(a) ? x : a), undefined);

/**
 * One record per image of the gradient kind (or `kind`: the layered kind has the same targets): the rows of the extension off (`tracelab`) and on
 * (`tracelab-gradients`), VTracer's and the artist's (absent when not ok), the artist's gzip (of
 * the reference SVG, else of the artist row), the ratios on/artist and off/VTracer, and four
 * targets, each true, false or null (a side is missing):
 * onGzip gzip(on) ≤ 1.5 × the artist's; onSsim SSIM(on) ≥ SSIM(off);
 * offGzip gzip(off) ≤ VTracer's; offSsim SSIM(off) ≥ VTracer's.
 */
export function gradientArtRecords(rows, refGzip, kind = 'gradient') {
  const byKey = rowIndex(rows);
  const files = [...new Set(rows.filter((r) => r.category === kind).map((r) => r.file))];
  return files.map((file) => {
    const off = okRow(byKey, 'tracelab', file);
    const on = okRow(byKey, ON, file);
    const vt = okRow(byKey, 'vtracer-native', file);
    const artist = okRow(byKey, 'artist', file);
    const artistGzip = refGzip.get(file) ?? artist?.gzip_bytes;
    const onVsArtist = on && artistGzip ? on.gzip_bytes / artistGzip : NaN;
    const offVsVt = off && vt ? off.gzip_bytes / vt.gzip_bytes : NaN;
    return {
      id: rows.find((r) => r.file === file).id, file, off, on, vt, artist, artistGzip, onVsArtist, offVsVt,
      targets: {
        onGzip: Number.isFinite(onVsArtist) ? onVsArtist <= 1.5 : null,
        onSsim: on && off ? on.ssim >= off.ssim : null,
        offGzip: Number.isFinite(offVsVt) ? offVsVt <= 1 : null,
        offSsim: off && vt ? off.ssim >= vt.ssim : null,
      },
    };
  });
}

/** The targets of gradientArtRecords: [key, label, worst record's value, how the value reads]. */
const ART_TARGETS = [
  ['onGzip', 'on: gzip ≤ 1.5× artist', (x) => x.onVsArtist, (v) => `${fmt(v)}×`],
  ['onSsim', 'on: SSIM ≥ off', (x) => (x.on && x.off ? x.off.ssim - x.on.ssim : NaN), (v) => `SSIM on − off ${fmt(-v, 4)}`],
  ['offGzip', 'off: gzip ≤ VTracer', (x) => x.offVsVt, (v) => `${fmt(v)}×`],
  ['offSsim', 'off: SSIM ≥ VTracer', (x) => (x.off && x.vt ? x.vt.ssim - x.off.ssim : NaN), (v) => `SSIM off − VTracer ${fmt(-v, 4)}`],
];

/**
 * Photos with the extension on, medians over the kind, over its smooth photos (manifest note
 * "smooth photo") and over the smooth_photo kind: ΔE00 against 0.8 × the best peer's median, gzip against 0.6 × VTracer's
 * median; the median of the per-image gzip ratios; the worst image for each (largest gzip on /
 * VTracer, largest ΔE00 on / the image's best peer ΔE00). Groups without `tracelab-gradients`
 * rows are left out.
 */
export function photoTargets(rows, images) {
  const notes = new Map(images.map((im) => [im.file, im.note]));
  const byKey = rowIndex(rows);
  const groups = [['photo', 'photo', () => true], ['smooth photo', 'photo', (file) => notes.get(file) === 'smooth photo'], ['smooth_photo kind', 'smooth_photo', () => true]];
  const out = [];
  for (const [label, kind, pick] of groups) {
    const mine = (tracer) => rows.filter((r) => r.tracer === tracer && r.category === kind && r.status === 'ok' && pick(r.file));
    const on = mine(ON);
    if (on.length === 0) continue;
    const peers = PEERS.map((p) => [p, median(mine(p).map((r) => r.de2000))]).filter(([, de]) => Number.isFinite(de));
    const best = peers.reduce((a, x) => (a === undefined || x[1] < a[1] ? x : a), undefined);
    const de = median(on.map((r) => r.de2000));
    const gzip = median(on.map((r) => r.gzip_bytes));
    const vtGzip = median(mine('vtracer-native').map((r) => r.gzip_bytes));
    const perImage = on.map((r) => {
      const vt = okRow(byKey, 'vtracer-native', r.file);
      const peerDe = PEERS.map((p) => okRow(byKey, p, r.file)?.de2000).filter(Number.isFinite);
      return { id: r.id, gzipRatio: vt ? r.gzip_bytes / vt.gzip_bytes : NaN, deRatio: peerDe.length ? r.de2000 / Math.min(...peerDe) : NaN };
    });
    out.push({
      label, n: on.length, de, bestPeer: best?.[0], bestDe: best?.[1] ?? NaN, gzip, vtGzip,
      medianRatio: median(perImage.map((x) => x.gzipRatio)),
      deOk: best ? de <= 0.8 * best[1] : null,
      gzipOk: Number.isFinite(vtGzip) ? gzip <= 0.6 * vtGzip : null,
      worstGzip: largest(perImage, (x) => x.gzipRatio),
      worstDe: largest(perImage, (x) => x.deRatio),
    });
  }
  return out;
}

/**
 * Flat kinds with the extension on against off, per kind: the images compared (both rows ok, and
 * the artist's SVG, where there is one, without gradients: Tango icons in `icon` are shaded and
 * left out, counted in `skipped`), those where the extension wrote a gradient, and the largest
 * |bytes(on) / bytes(off) − 1|. ok: no gradient and that deviation ≤ 1 %.
 */
export function flatTargets(rows, refGradients) {
  const byKey = rowIndex(rows);
  const out = [];
  for (const kind of FLAT_KINDS) {
    const offs = rows.filter((r) => r.tracer === 'tracelab' && r.category === kind && r.status === 'ok');
    const pairs = [];
    let skipped = 0;
    for (const off of offs) {
      if ((refGradients.get(off.file) ?? 0) > 0) {
        skipped++;
        continue;
      }
      const on = okRow(byKey, ON, off.file);
      if (on) pairs.push({ id: off.id, on, off, deviation: Math.abs(on.bytes / off.bytes - 1) });
    }
    if (pairs.length === 0) continue;
    const withGradient = pairs.filter((x) => x.on.gradients > 0);
    const worst = largest(pairs, (x) => x.deviation);
    out.push({ kind, n: pairs.length, skipped, withGradient, worst, ok: withGradient.length === 0 && worst.deviation <= 0.01 });
  }
  return out;
}

/**
 * "Gradients extension" section: gradient art per image (gzip and SSIM of the extension off and
 * on, VTracer and the artist's SVG; the ratios; ✓/✗ per target; how many images meet each; the
 * worst image per target), photos with the extension on (medians), flat kinds (gradients written
 * and byte changes). Empty when the run has no `tracelab-gradients` rows.
 */
export function gradientSection(rows, images, refGzip, refGradients) {
  if (!rows.some((r) => r.tracer === ON)) return [];
  const md = ['### Gradients extension (tracelab.gradients): targets', '',
    'on = `tracelab-gradients` (Tracelab with `--param tracelab.gradients=true`), off = `tracelab` (the default); '
    + 'VTracer = vtracer-native; artist = the original SVG. gzip = gzip -9 size in kB.', ''];
  for (const [kind, title] of [['gradient', 'Gradient art'], ['layered', 'Layered art']]) {
    const art = gradientArtRecords(rows, refGzip, kind);
    if (art.length === 0) continue;
    md.push(`#### ${title}, every image`, '');
    md.push(`| image | gzip off | gzip on | gzip VTracer | gzip artist | on / artist | off / VTracer | SSIM off | SSIM on | SSIM VTracer | SSIM artist | ${ART_TARGETS.map((t) => t[1]).join(' | ')} |`);
    md.push(`| --- | ${Array(10).fill('---:').join(' | ')} | ${ART_TARGETS.map(() => ':---:').join(' | ')} |`);
    const ssim = (r) => (r ? fmt(r.ssim, 4) : 'n/a');
    const gz = (r) => (r ? kb(r.gzip_bytes) : 'n/a');
    for (const x of art) {
      md.push(`| ${x.id} | ${gz(x.off)} | ${gz(x.on)} | ${gz(x.vt)} | ${kb(x.artistGzip)} | ${times(x.onVsArtist)} | ${times(x.offVsVt)} | ${ssim(x.off)} | ${ssim(x.on)} | ${ssim(x.vt)} | ${ssim(x.artist)} | ${ART_TARGETS.map(([k]) => mark(x.targets[k])).join(' | ')} |`);
    }
    const met = ART_TARGETS.map(([k]) => {
      const known = art.filter((x) => x.targets[k] !== null);
      return known.length ? `${known.filter((x) => x.targets[k]).length}/${known.length}` : 'n/a';
    });
    md.push(`| **images meeting the target** | | | | | | | | | | | ${met.join(' | ')} |`, '');
    const worst = ART_TARGETS.map(([, label, key, show]) => {
      const w = largest(art, key);
      return `${label}: ${w ? `${w.id} (${show(key(w))})` : 'n/a'}`;
    });
    md.push(`Worst ${title.toLowerCase()} image per target — ${worst.join('; ')}.`, '');
  }
  const photos = photoTargets(rows, images);
  if (photos.length) {
    md.push('#### Photos, extension on (medians)', '');
    md.push('| images | n | ΔE00 on | best peer ΔE00 | ΔE00 ≤ 0.8× best peer | gzip on | gzip VTracer | gzip ≤ 0.6× VTracer | per-image gzip on / VTracer (median) | worst gzip on / VTracer | worst ΔE00 on / image\'s best peer |');
    md.push('| --- | ---: | ---: | ---: | :---: | ---: | ---: | :---: | ---: | --- | --- |');
    for (const p of photos) {
      md.push(`| ${p.label} | ${p.n} | ${fmt(p.de)} | ${p.bestPeer ? `${fmt(p.bestDe)} (${p.bestPeer})` : 'n/a'} | ${mark(p.deOk)} (≤ ${fmt(0.8 * p.bestDe)}) | ${kb(p.gzip)} | ${kb(p.vtGzip)} | ${mark(p.gzipOk)} (≤ ${kb(0.6 * p.vtGzip)}) | ${times(p.medianRatio)} | ${p.worstGzip ? `${p.worstGzip.id} ${times(p.worstGzip.gzipRatio)}` : 'n/a'} | ${p.worstDe ? `${p.worstDe.id} ${times(p.worstDe.deRatio)}` : 'n/a'} |`);
    }
    md.push('');
  }
  const flat = flatTargets(rows, refGradients);
  if (flat.length) {
    md.push('#### Flat kinds, extension on against off', '');
    md.push('| kind | images | with a gradient (on) | largest bytes change on / off (≤ 1 %) | target | left out (artist\'s SVG has gradients) |');
    md.push('| --- | ---: | --- | --- | :---: | ---: |');
    for (const f of flat) {
      const ids = f.withGradient.map((x) => x.id);
      const listed = ids.length ? ` (${ids.slice(0, 5).join(', ')}${ids.length > 5 ? ', …' : ''})` : '';
      md.push(`| ${f.kind} | ${f.n} | ${ids.length}${listed} | ${f.worst.id} ${fmt(100 * f.worst.deviation, 2)} % | ${mark(f.ok)} | ${f.skipped} |`);
    }
    md.push('');
  }
  return md;
}

// ---------------------------------------------------------------------------------------------
// Issue 27: line art (1-bit and anti-aliased) and photos of every size

/** SSIM slack of the 1-bit line art against potrace: Tracelab ≥ potrace − this. */
export const BILEVEL_SSIM_SLACK = 0.005;
/** The primitive families issue 27 wants none of on photos (circles and ellipses may stay). */
export const PHOTO_FORBIDDEN = ['rectangle', 'quadrilateral', 'bullet', 'triangle', 'star'];
const FAMILY_SHORT = { rectangle: 'rect', quadrilateral: 'quad', bullet: 'bullet', triangle: 'tri', star: 'star' };

const num = (v) => (v === '' || v === null || v === undefined ? NaN : Number(v));
/** ok when the value is known (a finite number) and passes; null when unknown. */
const check = (v, pass) => (Number.isFinite(v) ? pass(v) : null);
/** A target of Tracelab against a peer: false when Tracelab failed, null when the peer's side is missing. */
const against = (ours, theirs, value, pass) => (!theirs ? null : !ours ? false : check(value, pass));

/**
 * The 1-bit line art (kind lineart_bilevel), per image: Tracelab's and potrace's SSIM at 1× (against
 * the anti-aliased original) and at 4× (against the artist's SVG; absent without one), gzip, and
 * three targets, each true, false or null (a side is missing): ssim1 / ssim4 Tracelab ≥ potrace −
 * 0.005; gzip Tracelab ≤ 1.2 × potrace.
 */
export function bilevelRecords(rows) {
  const byKey = rowIndex(rows);
  const files = [...new Set(rows.filter((r) => r.category === 'lineart_bilevel').map((r) => r.file))];
  return files.map((file) => {
    const any = rows.find((r) => r.file === file);
    const tl = okRow(byKey, 'tracelab', file);
    const po = okRow(byKey, 'potrace', file);
    const ssim1 = tl && po ? tl.ssim - po.ssim : NaN;
    const ssim4 = tl && po ? num(tl.ssim_4x) - num(po.ssim_4x) : NaN;
    const gzip = tl && po ? tl.gzip_bytes / po.gzip_bytes : NaN;
    const ok = (d) => d >= -BILEVEL_SSIM_SLACK - 1e-12;
    const has4x = Number.isFinite(num(po?.ssim_4x));
    return {
      id: any.id, file, subkind: any.subkind || 'drawing', blackPct: num(any.black_pct), tl, po, ssim1, ssim4, gzip,
      targets: {
        ssim1: against(tl, po, ssim1, ok),
        ssim4: has4x ? against(tl, po, ssim4, ok) : null,
        gzip: against(tl, po, gzip, (v) => v <= 1.2),
      },
    };
  });
}

/**
 * The anti-aliased line art (kind lineart_bw), per image: gzip of Tracelab, VTracer and potrace,
 * Tracelab / VTracer, gap %, and the targets gzipVt (≤ 1.5 × VTracer) and gap (0.000 % as the
 * bench prints it); and for the kind, medians over the images both traced: Tracelab's gzip ≤
 * potrace's.
 */
export function lineArtRecords(rows) {
  const byKey = rowIndex(rows);
  const files = [...new Set(rows.filter((r) => r.category === 'lineart_bw' && r.tracer !== 'artist').map((r) => r.file))];
  const images = files.map((file) => {
    const tl = okRow(byKey, 'tracelab', file);
    const vt = okRow(byKey, 'vtracer-native', file);
    const po = okRow(byKey, 'potrace', file);
    const gzipVt = tl && vt ? tl.gzip_bytes / vt.gzip_bytes : NaN;
    return {
      id: rows.find((r) => r.file === file).id, file, tl, vt, po, gzipVt,
      targets: { gzipVt: against(tl, vt, gzipVt, (v) => v <= 1.5), gap: tl ? tl.gap_pct < 0.0005 : false },
    };
  });
  const both = images.filter((x) => x.tl && x.po);
  const tlMedian = median(both.map((x) => x.tl.gzip_bytes));
  const poMedian = median(both.map((x) => x.po.gzip_bytes));
  return { images, medians: { n: both.length, tracelab: tlMedian, potrace: poMedian, ok: both.length ? tlMedian <= poMedian : null } };
}

/**
 * Photos of every size (kinds photo and photo_small), per image: long side, Tracelab's profile, its
 * primitives by family (CSV shapes_*) and the SVG's <rect>/<polygon> elements, gzip against VTracer;
 * targets profile (not "pixel"), shapes (no rectangle, quadrilateral, bullet, triangle or star, and
 * no <rect> or <polygon>) and gzipVt (≤ 1.5 × VTracer). profile and shapes are null when the
 * in-process trace gave nothing.
 */
export function photoRecords(rows) {
  const byKey = rowIndex(rows);
  const files = [...new Set(rows.filter((r) => r.category === 'photo' || r.category === 'photo_small').map((r) => r.file))];
  return files.map((file) => {
    const any = rows.find((r) => r.file === file);
    const tl = okRow(byKey, 'tracelab', file);
    const vt = okRow(byKey, 'vtracer-native', file);
    const profile = tl?.profile || '';
    const forbidden = Object.fromEntries(PHOTO_FORBIDDEN.map((f) => [f, num(tl?.[`shapes_${f}`])]));
    const known = profile !== '' && PHOTO_FORBIDDEN.every((f) => Number.isFinite(forbidden[f]));
    const shapes = known ? PHOTO_FORBIDDEN.reduce((n, f) => n + forbidden[f], 0) + num(tl.svg_rect || 0) + num(tl.svg_polygon || 0) : NaN;
    const gzipVt = tl && vt ? tl.gzip_bytes / vt.gzip_bytes : NaN;
    return {
      id: any.id, file, kind: any.category, long: Math.max(num(any.width), num(any.height)), tl, vt, profile, forbidden,
      round: tl ? num(tl.shapes_circle) + num(tl.shapes_ellipse) : NaN, shapes, gzipVt,
      targets: {
        profile: !tl ? false : profile ? profile !== 'pixel' : null,
        shapes: !tl ? false : check(shapes, (v) => v === 0),
        gzipVt: against(tl, vt, gzipVt, (v) => v <= 1.5),
      },
    };
  });
}

/**
 * One summary line per group and target: how many images hold (of those with a known result) and
 * the worst image by `badness` (largest first; finite values only), shown with `show`.
 */
export function targetSummary(records, key, badness, show) {
  const known = records.filter((x) => x.targets[key] !== null);
  const worst = largest(records, badness);
  return { holds: known.filter((x) => x.targets[key]).length, n: known.length, worst: worst ? `${worst.id} (${show(worst)})` : 'n/a' };
}

const BILEVEL_TARGETS = [
  ['ssim1', `SSIM 1× vs anti-aliased original ≥ potrace − ${BILEVEL_SSIM_SLACK}`, (x) => -x.ssim1,
    (x) => `${fmt(x.tl?.ssim, 4)} vs potrace ${fmt(x.po?.ssim, 4)}`],
  ['ssim4', `SSIM 4× vs artist's SVG ≥ potrace − ${BILEVEL_SSIM_SLACK}`, (x) => (x.targets.ssim4 === null ? NaN : -x.ssim4),
    (x) => `${fmt(num(x.tl?.ssim_4x), 4)} vs potrace ${fmt(num(x.po?.ssim_4x), 4)}`],
  ['gzip', 'gzip ≤ 1.2× potrace (same 1-bit picture)', (x) => x.gzip, (x) => `${kb(x.tl?.gzip_bytes)} vs potrace ${kb(x.po?.gzip_bytes)}, ${times(x.gzip)}`],
];
const LINEART_TARGETS = [
  ['gzipVt', 'every image gzip ≤ 1.5× VTracer', (x) => x.gzipVt, (x) => `${kb(x.tl?.gzip_bytes)} vs VTracer ${kb(x.vt?.gzip_bytes)}, ${times(x.gzipVt)}`],
  ['gap', 'gap 0.000 %', (x) => (x.tl ? x.tl.gap_pct : NaN), (x) => `gap ${fmt(x.tl?.gap_pct, 3)} %`],
];
const forbiddenText = (x) => PHOTO_FORBIDDEN.filter((f) => x.forbidden[f] > 0).map((f) => `${x.forbidden[f]} ${FAMILY_SHORT[f]}`)
  .concat(num(x.tl?.svg_rect) > 0 ? [`${x.tl.svg_rect} <rect>`] : [], num(x.tl?.svg_polygon) > 0 ? [`${x.tl.svg_polygon} <polygon>`] : []).join(', ') || 'none';
const PHOTO_TARGETS = [
  ['profile', 'profile not "pixel"', (x) => (x.targets.profile === false ? 1 : x.targets.profile ? 0 : NaN), (x) => `profile ${x.profile || 'n/a'}`],
  ['shapes', 'no star, triangle, quadrilateral, bullet or rectangle', (x) => x.shapes, (x) => forbiddenText(x)],
  ['gzipVt', 'gzip ≤ 1.5× VTracer', (x) => x.gzipVt, (x) => `${kb(x.tl?.gzip_bytes)} vs VTracer ${kb(x.vt?.gzip_bytes)}, ${times(x.gzipVt)}`],
];

/**
 * "Issue 27 targets": a summary (per kind and group, per target: holds n/N and the worst image with
 * its figures), then one row per image with a ✓/✗ per target (– when a side is missing) for the
 * 1-bit line art, the anti-aliased line art and the photos of every size. Empty without such rows.
 */
export function issue27Section(rows) {
  const bilevel = bilevelRecords(rows);
  const lineArt = lineArtRecords(rows);
  const photos = photoRecords(rows);
  if (!bilevel.length && !lineArt.images.length && !photos.length) return [];
  const md = ['### Issue 27 targets', '',
    'Tracelab = `tracelab` (default output); potrace on the PBM of the same picture; VTracer = vtracer-native. '
    + 'gzip = gzip -9 size in kB. Each target is checked per image unless it says medians; holds = images meeting it / images where it could be checked.', '',
    '| kind | target | holds | worst image |', '| --- | --- | ---: | --- |'];
  const summary = (label, records, targets) => {
    for (const [key, text, badness, show] of targets) {
      if (!records.length) continue;
      const s = targetSummary(records, key, badness, show);
      md.push(`| ${label} | ${text} | ${s.n ? `${s.holds}/${s.n} ${mark(s.holds === s.n)}` : 'n/a'} | ${s.worst} |`);
    }
  };
  for (const sub of ['drawing', 'text', 'scan']) summary(`lineart_bilevel: ${sub}s`, bilevel.filter((x) => x.subkind === sub), BILEVEL_TARGETS);
  if (new Set(bilevel.map((x) => x.subkind)).size > 1) summary('lineart_bilevel: all', bilevel, BILEVEL_TARGETS);
  summary('lineart_bw', lineArt.images, LINEART_TARGETS);
  if (lineArt.medians.n) {
    const m = lineArt.medians;
    md.push(`| lineart_bw | median gzip ≤ potrace's (medians over ${m.n} images) | ${m.ok ? '1/1' : '0/1'} ${mark(m.ok)} | Tracelab ${kb(m.tracelab)} vs potrace ${kb(m.potrace)} |`);
  }
  summary('photo', photos.filter((x) => x.kind === 'photo'), PHOTO_TARGETS);
  for (const long of [...new Set(photos.filter((x) => x.kind === 'photo_small').map((x) => x.long))].sort((a, b) => a - b)) {
    summary(`photo_small, ${long} px`, photos.filter((x) => x.kind === 'photo_small' && x.long === long), PHOTO_TARGETS);
  }
  if (new Set(photos.map((x) => x.kind)).size > 1) summary('all photos', photos, PHOTO_TARGETS);
  md.push('');

  const ssim = (r, col = 'ssim') => (r && Number.isFinite(num(r[col])) ? fmt(num(r[col]), 4) : 'n/a');
  const gz = (r) => (r ? kb(r.gzip_bytes) : 'n/a');
  if (bilevel.length) {
    md.push('#### 1-bit line art (lineart_bilevel), every image', '',
      `| image | subkind | black % | SSIM 1× Tracelab | SSIM 1× potrace | 1× ≥ potrace − ${BILEVEL_SSIM_SLACK} | SSIM 4× Tracelab | SSIM 4× potrace | 4× ≥ potrace − ${BILEVEL_SSIM_SLACK} | gzip Tracelab | gzip potrace | Tracelab / potrace | ≤ 1.2× |`,
      '| --- | --- | ---: | ---: | ---: | :---: | ---: | ---: | :---: | ---: | ---: | ---: | :---: |');
    for (const x of bilevel) {
      md.push(`| ${x.id} | ${x.subkind} | ${fmt(x.blackPct, 2)} | ${ssim(x.tl)} | ${ssim(x.po)} | ${mark(x.targets.ssim1)} | ${ssim(x.tl, 'ssim_4x')} | ${ssim(x.po, 'ssim_4x')} | ${mark(x.targets.ssim4)} | ${gz(x.tl)} | ${gz(x.po)} | ${times(x.gzip)} | ${mark(x.targets.gzip)} |`);
    }
    md.push('', 'black %: the 1-bit copy\'s black pixels, % of all (near 0: the lines are lighter than the threshold and mostly vanished, so both tracers traced an almost blank picture). '
      + 'SSIM 1×: the render of the traced 1-bit copy against the anti-aliased original at its size; 4×: both the traced SVG and the artist\'s SVG rendered at 4× the width (– without an artist\'s SVG).', '');
  }
  if (lineArt.images.length) {
    md.push('#### Anti-aliased line art (lineart_bw), every image', '',
      '| image | gzip Tracelab | gzip VTracer | gzip potrace | Tracelab / VTracer | ≤ 1.5× VTracer | gap % | gap 0.000 |',
      '| --- | ---: | ---: | ---: | ---: | :---: | ---: | :---: |');
    for (const x of lineArt.images) {
      md.push(`| ${x.id} | ${gz(x.tl)} | ${gz(x.vt)} | ${gz(x.po)} | ${times(x.gzipVt)} | ${mark(x.targets.gzipVt)} | ${x.tl ? fmt(x.tl.gap_pct, 3) : 'n/a'} | ${mark(x.targets.gap)} |`);
    }
    md.push('');
  }
  if (photos.length) {
    md.push('#### Photos of every size (photo, photo_small), every image', '',
      '| image | kind | long side | profile | not pixel | circles + ellipses | rect / quad / bullet / tri / star | SVG rect / polygon | none of those | gzip Tracelab | gzip VTracer | Tracelab / VTracer | ≤ 1.5× |',
      '| --- | --- | ---: | --- | :---: | ---: | ---: | ---: | :---: | ---: | ---: | ---: | :---: |');
    const n = (v) => (Number.isFinite(v) ? String(v) : 'n/a');
    for (const x of photos) {
      md.push(`| ${x.id} | ${x.kind} | ${x.long} | ${x.profile || 'n/a'} | ${mark(x.targets.profile)} | ${n(x.round)} | ${PHOTO_FORBIDDEN.map((f) => n(x.forbidden[f])).join(' / ')} | ${n(num(x.tl?.svg_rect))} / ${n(num(x.tl?.svg_polygon))} | ${mark(x.targets.shapes)} | ${gz(x.tl)} | ${gz(x.vt)} | ${times(x.gzipVt)} | ${mark(x.targets.gzipVt)} |`);
    }
    md.push('', 'Profile and primitives from a second, in-process trace through the CLI\'s pipeline with the same params (bench/tracelab-facts.mjs; the CSV note says so if its SVG differed from the CLI\'s). Triangles, quadrilaterals, bullets and stars are written as <path>s, so they are counted from the trace, not the SVG. '
      + 'An SVG <rect> is any loop the SVG writer finds to be four straight sides at right angles (detectPrimitive in src/formats/plan.ts), whether or not the engine fitted a rectangle.', '');
  }
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
  const numeric = new Set(['ssim', 'psnr', 'de2000', 'gap_pct', 'band_px', 'bytes', 'gzip_bytes', 'paths', 'nodes', 'gradients', 'time_ms', 'rss_mb', 'width', 'height', 'ssim_4x', 'black_pct', 'artist_stroke_px', 'stroke_width_px', 'stroke_width_err']);
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

/** The rows of the stroke kind's section: the default, the strokes rows, VTracer, the artist's SVG. */
export const STROKE_SECTION_TRACERS = ['tracelab', 'tracelab-strokes', 'tracelab-centerline', 'vtracer-native', 'artist'];

/**
 * Per tracer, over the stroke kind's images it traced: how many, the median SSIM, the median of
 * the per-image gzip / the artist's gzip (refGzip: by file), on how many images it wrote strokes
 * (stroke_width_px set), the median relative error of the written stroke width against the
 * artist's (stroke_width_err, over those images) and the worst image for each.
 */
export function strokeRecords(rows, refGzip) {
  const out = [];
  for (const tracer of STROKE_SECTION_TRACERS) {
    const rs = rows.filter((r) => r.category === 'stroke' && r.tracer === tracer && r.status === 'ok');
    if (rs.length === 0) continue;
    const ratio = (r) => (refGzip.get(r.file) ? r.gzip_bytes / refGzip.get(r.file) : NaN);
    const stroked = rs.filter((r) => Number.isFinite(r.stroke_width_err));
    out.push({
      tracer,
      n: rs.length,
      ssim: median(rs.map((r) => r.ssim)),
      gzipVsArtist: median(rs.map(ratio)),
      worstGzip: largest(rs, ratio),
      worstGzipRatio: largest(rs, ratio) ? ratio(largest(rs, ratio)) : NaN,
      withStrokes: stroked.length,
      widthErr: median(stroked.map((r) => r.stroke_width_err)),
      worstWidth: largest(stroked, (r) => r.stroke_width_err),
    });
  }
  return out;
}

/** Markdown for strokeRecords: one row per tracer, then the per-image stroke widths. */
export function strokeSection(rows, refGzip) {
  const records = strokeRecords(rows, refGzip);
  if (records.length === 0) return [];
  const pct = (v) => (Number.isFinite(v) ? `${(v * 100).toFixed(1)} %` : 'n/a');
  const md = ['### Stroke kind (issue 38): stroke widths', '',
    'Images an artist drew with strokes of one width (the manifest\'s `stroke_width_px`). Written width = the median '
    + '`stroke-width` of the SVG\'s stroked elements (inherited from groups, in the input\'s pixels; Tracelab\'s gap filler, '
    + '`vector-effect="non-scaling-stroke"`, is not a stroke); width error = |written − artist| / artist, median over the '
    + 'images where strokes were written. gzip / artist: median of the per-image ratios.', '',
    '| row | images | SSIM | gzip / artist | worst gzip / artist | images with strokes | width error (median) | worst width error |',
    '| --- | ---: | ---: | ---: | --- | ---: | ---: | --- |'];
  for (const x of records) {
    md.push(`| ${x.tracer} | ${x.n} | ${fmt(x.ssim, 4)} | ${times(x.gzipVsArtist)} | ${x.worstGzip ? `${x.worstGzip.id} ${times(x.worstGzipRatio)}` : 'n/a'} | ${x.withStrokes} | ${pct(x.widthErr)} | ${x.worstWidth ? `${x.worstWidth.id} ${pct(x.worstWidth.stroke_width_err)}` : 'n/a'} |`);
  }
  md.push('');
  return md;
}

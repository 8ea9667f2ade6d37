#!/usr/bin/env node
// `npm run bench`: compare Tracelab with peer tracers on the public corpus.
// See bench/README.md for the options and the meaning of each metric.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import {
  existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync,
} from 'node:fs';
import { dirname, join, resolve, basename, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import { CATEGORIES } from './corpus.mjs';
import { compareImages, flattenOver, ssim } from './metrics.mjs';
import { drawnElements, medianStrokePx, svgStats } from './svgstats.mjs';
import { imageReport } from './report.mjs';
import { DERIVED_KINDS, PHOTO_SIZES, bilevelPbm, deriveImages, pngReader } from './derived.mjs';
import { FAMILIES, tracelabFacts } from './tracelab-facts.mjs';
import { coldRows, speedTargetsTable } from './speed-targets.mjs';

const BENCH = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(BENCH, '..');
const CORPUS = process.env.TRACELAB_CORPUS
  ? resolve(process.cwd(), process.env.TRACELAB_CORPUS)
  : resolve(ROOT, '../shared/corpus');
const OUT = join(BENCH, 'out');
const RESULTS = join(BENCH, 'results');
const REPEAT = Math.max(1, parseInt(process.env.BENCH_REPEAT ?? '1', 10) || 1);
const TIMEOUT_MS = Math.max(1000, parseInt(process.env.BENCH_TIMEOUT_MS ?? '120000', 10) || 120000);
const ONLY = listEnv('BENCH_ONLY');
const ONLY_TRACERS = listEnv('BENCH_TRACERS');
const TRACELAB_PARAMS = (process.env.TRACELAB_PARAMS ?? '').split(/\s+/).filter(Boolean);
const IS_ROOT = typeof process.getuid === 'function' && process.getuid() === 0;

function listEnv(name) {
  const v = process.env[name];
  if (!v || !v.trim()) return null;
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

function log(msg) {
  process.stderr.write(`${msg}\n`);
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

// ------------------------------------------------------------ setup

/** Reason why bench/node_modules must be (re)installed, or null if it is up to date. */
function depsStale() {
  const pkgFile = join(BENCH, 'package.json');
  const nm = join(BENCH, 'node_modules');
  if (!existsSync(nm)) return 'bench/node_modules is missing';
  const installed = join(nm, '.package-lock.json');
  if (!existsSync(installed)) return 'bench/node_modules has no .package-lock.json';
  if (statSync(pkgFile).mtimeMs > statSync(installed).mtimeMs) return 'bench/package.json is newer than the install';
  const pkg = readJson(pkgFile);
  for (const [name, spec] of Object.entries(pkg.dependencies ?? {})) {
    const p = join(nm, name, 'package.json');
    if (!existsSync(p)) return `${name} is not installed`;
    const v = readJson(p).version;
    if (/^\d+\.\d+\.\d+$/.test(spec) && v !== spec) return `${name} is ${v}, want ${spec}`;
  }
  return null;
}

function ensureDeps() {
  const why = depsStale();
  if (!why) return;
  log(`bench: ${why}; running npm install in bench/ ...`);
  // `npm install`, not `npm ci`: @neplex/vectorizer 0.1.0 lists optional platform
  // packages that were never published, which makes `npm ci` fail.
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: BENCH, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    log('bench: npm install failed');
    process.exit(1);
  }
}

function commandWorks(cmd, args) {
  const r = spawnSync(cmd, args, { stdio: 'ignore' });
  return !r.error && r.status === 0;
}

function aptInstall(pkg) {
  if (!IS_ROOT || process.env.BENCH_NO_APT) return false;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () => spawnSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: ['ignore', 2, 2], env }).status === 0;
  log(`bench: apt-get install ${pkg} ...`);
  if (install()) return true;
  spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 2, 2], env });
  return install();
}

/** Ensure a Debian-packaged tool is present; returns a note when it is not. */
function ensureTool(check, pkg) {
  if (check()) return null;
  if (aptInstall(pkg) && check()) return null;
  return IS_ROOT ? `apt-get install ${pkg} failed` : `${pkg} is not installed (not root, so the bench did not apt-get install it)`;
}

// ------------------------------------------------------------ tracers

const nodeBin = process.execPath;
const peer = (name) => join(BENCH, 'peers', `${name}.mjs`);

/** Tracelab's CLI with `extra` params, then TRACELAB_PARAMS (so TRACELAB_PARAMS can override them). */
const tracelabCmd = (extra) => (inp, out) => [nodeBin, [join(ROOT, 'bin/tracelab.js'), 'vectorize', inp, '-o', out,
  ...[...extra, ...TRACELAB_PARAMS].flatMap((p) => ['--param', p])]];

/** The params of the `tracelab-gradients` row: the gradients extension on. */
export const GRADIENT_PARAMS = ['tracelab.gradients=true'];
/**
 * The strokes rows (issue 38): Tracelab with `tracelab.strokes=auto` (lines and outlines as
 * stroked paths) and `=centerline` (centre-lines only, for plotters and cutters). They run on the
 * kinds with lines (STROKE_ROW_KINDS), and only when the CLI accepts the param (probeParams):
 * a build without the option skips them with a note instead of failing every image.
 */
export const STROKES_ROWS = { 'tracelab-strokes': ['tracelab.strokes=auto'], 'tracelab-centerline': ['tracelab.strokes=centerline'] };
const STROKE_ROW_KINDS = ['stroke', 'icon', 'clipart', 'lineart_bw'];

export function makeTracers() {
  return [
    {
      name: 'tracelab',
      cmd: tracelabCmd([]),
      cwd: ROOT,
      // the CLI then prints one `tracelab-timings {...}` JSON line (ms per stage) on stderr
      env: { TRACELAB_TIMINGS: '1' },
      timings: true,
    },
    {
      name: 'tracelab-gradients',
      cmd: tracelabCmd(GRADIENT_PARAMS),
      cwd: ROOT,
      env: { TRACELAB_TIMINGS: '1' },
      timings: true,
    },
    ...Object.entries(STROKES_ROWS).map(([name, params]) => ({
      name,
      cmd: tracelabCmd(params),
      cwd: ROOT,
      env: { TRACELAB_TIMINGS: '1' },
      timings: true,
      probeParams: params,
      categories: STROKE_ROW_KINDS,
      naNote: `the strokes rows run on ${STROKE_ROW_KINDS.join(', ')} only.`,
    })),
    // Not a tracer: the artist's own SVG (the manifest's reference_svg), measured and scored like
    // a traced one, for the images that have one; nothing is run or timed.
    { name: 'artist', artist: true },
    { name: 'vtracer-native', cmd: (inp, out) => [nodeBin, [peer('vtracer-native'), inp, out]], cwd: BENCH },
    { name: 'vtracer-wasm', cmd: (inp, out) => [nodeBin, [peer('vtracer-wasm'), inp, out]], cwd: BENCH },
    { name: 'imagetracerjs', cmd: (inp, out) => [nodeBin, [peer('imagetracerjs'), inp, out]], cwd: BENCH },
    {
      name: 'potrace',
      categories: ['lineart_bw', 'lineart_bilevel'],
      naNote: 'potrace is a bi-level tracer: run on lineart_bw and its 1-bit copies (lineart_bilevel) only (input thresholded to a PBM at luma < 128).',
      // input is thresholded to a PBM before the timed run (a no-op on the 1-bit copies: the same
      // black pixels); potrace itself is timed
      prepare: (img, file) => {
        const pbm = join(OUT, 'potrace', `${basename(file, '.png')}.pbm`);
        writeFileSync(pbm, bilevelPbm(img));
        return pbm;
      },
      cmd: (inp, out) => ['potrace', ['-s', inp, '-o', out]],
      cwd: BENCH,
    },
  ];
}

// ------------------------------------------------------------ running

/**
 * Whether Tracelab's CLI accepts `params` (a trace of `file` with them exits 0): null when it
 * does, else the first line of its error (e.g. an unknown parameter, error 1019).
 */
function probeParams(params, file) {
  const out = join(OUT, '.probe.svg');
  const r = spawnSync(nodeBin, [join(ROOT, 'bin/tracelab.js'), 'vectorize', file, '-o', out, ...params.flatMap((p) => ['--param', p])], { cwd: ROOT, encoding: 'utf8', timeout: TIMEOUT_MS });
  rmSync(out, { force: true });
  return r.status === 0 ? null : (`${r.stderr ?? ''}`.trim().split('\n')[0] || `exit ${r.status}`).slice(0, 200);
}

/**
 * Run one command in a fresh process (own process group), with wall time from
 * process.hrtime and peak RSS from GNU time (%M, KiB) or, as a fallback, from the
 * child's own report (BENCH_RSS_OUT, JS runners only).
 */
function runOnce(cmd, args, { cwd, useTime, rssFile, env: extraEnv, timings: wantTimings }) {
  return new Promise((resolveRun) => {
    rmSync(rssFile, { force: true });
    const env = { ...process.env, ...extraEnv, BENCH_RSS_OUT: rssFile };
    const [file, argv] = useTime ? ['/usr/bin/time', ['-f', '%M', '-o', rssFile, cmd, ...args]] : [cmd, args];
    let stderr = '';
    let timedOut = false;
    const t0 = process.hrtime.bigint();
    let child;
    try {
      child = spawn(file, argv, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      resolveRun({ ok: false, error: String(e.message ?? e), ms: 0, rssMB: null });
      return;
    }
    child.stdout.on('data', () => {});
    child.stderr.on('data', (d) => {
      stderr += d;
      if (stderr.length > 8192) stderr = stderr.slice(-4096);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }, TIMEOUT_MS);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolveRun({ ok: false, error: String(e.message ?? e), ms: 0, rssMB: null });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      let rssMB = null;
      if (existsSync(rssFile)) {
        // GNU time writes "Command exited with non-zero status N" before %M on failure
        const lines = readFileSync(rssFile, 'utf8').trim().split('\n');
        const kb = parseInt(lines[lines.length - 1], 10);
        if (Number.isFinite(kb)) rssMB = kb / 1024;
      }
      if (timedOut) {
        resolveRun({ ok: false, error: `timeout after ${TIMEOUT_MS / 1000} s`, ms, rssMB });
      } else if (code !== 0) {
        const lines = stderr.split('\n').map((l) => l.trim()).filter(Boolean);
        const msg = lines.find((l) => /\b(error|ERR_[A-Z_]+)\b/i.test(l)) ?? lines[lines.length - 1] ?? '';
        resolveRun({ ok: false, error: `exit ${code ?? signal}${msg ? `: ${msg}` : ''}`, ms, rssMB });
      } else {
        resolveRun({ ok: true, ms, rssMB, ...(wantTimings ? { timings: parseTimings(stderr) } : {}) });
      }
    });
  });
}

/** Stage names of `tracelab-timings`, in pipeline order (`trace` = the whole engine call, resize … shapes). */
export const STAGES = ['decode', 'resize', 'profile', 'palette', 'label', 'regions', 'shading', 'boundary', 'fit', 'shapes', 'trace', 'write'];

/** The last `tracelab-timings {...}` line of a stderr text → { stage: ms }, or null when there is none. */
export function parseTimings(stderr) {
  const lines = String(stderr).split('\n').filter((l) => l.startsWith('tracelab-timings '));
  if (lines.length === 0) return null;
  try {
    const obj = JSON.parse(lines[lines.length - 1].slice('tracelab-timings '.length));
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return null;
    const out = {};
    for (const [k, v] of Object.entries(obj)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
    return out;
  } catch {
    return null;
  }
}

/** Kinds whose Tracelab rows get the in-process profile and primitive counts (tracelab-facts.mjs). */
const FACT_KINDS = ['photo', 'photo_small'];
/** Drawn elements counted per SVG into the CSV's svg_<tag> columns (Tracelab's parameterized shapes, and polygons). */
const SVG_ELEMENT_COLUMNS = ['circle', 'ellipse', 'rect', 'polygon'];

/** CSV column of a stage. */
export const stageColumn = (stage) => `stage_${stage}_ms`;

export function median(values) {
  const v = values.filter((x) => x !== null && x !== undefined && !Number.isNaN(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = v.length >> 1;
  if (v.length % 2) return v[m];
  if (v[m - 1] === v[m]) return v[m]; // also Infinity + Infinity
  return (v[m - 1] + v[m]) / 2;
}

/**
 * Render an SVG string at exactly width×height over white (pads/crops if the aspect differs).
 * Without system fonts unless `systemFonts` (traced SVGs hold no text).
 */
export function renderSvg(Resvg, svg, width, height, systemFonts = false) {
  const r = new Resvg(svg, {
    fitTo: { mode: 'width', value: width },
    background: 'white',
    font: { loadSystemFonts: systemFonts },
  }).render();
  const note = r.width !== width || r.height !== height ? `rendered ${r.width}x${r.height}, padded/cropped` : '';
  // resvg-js's `pixels` getter copies the whole buffer on every read: read it once
  let data = r.pixels;
  if (note) {
    const pixels = data;
    const out = new Uint8ClampedArray(width * height * 4).fill(255);
    for (let y = 0; y < Math.min(height, r.height); y++) {
      const w = Math.min(width, r.width);
      out.set(pixels.subarray(y * r.width * 4, (y * r.width + w) * 4), y * width * 4);
    }
    data = out;
  }
  return { image: { width, height, data }, note };
}

// ------------------------------------------------------------ report

const COLS = [
  ['SSIM ↑', 'ssim', (v) => v.toFixed(4)],
  ['PSNR dB ↑', 'psnr', (v) => (v === Infinity ? 'inf' : v.toFixed(2))],
  ['ΔE00 ↓', 'de2000', (v) => v.toFixed(2)],
  ['gap % ↓', 'gap_pct', (v) => v.toFixed(3)],
  ['band px ↓', 'band_px', (v) => String(Math.round(v))],
  ['bytes', 'bytes', (v) => String(Math.round(v))],
  ['gzip', 'gzip_bytes', (v) => String(Math.round(v))],
  ['paths', 'paths', (v) => String(Math.round(v))],
  ['nodes', 'nodes', (v) => String(Math.round(v))],
  ['gradients', 'gradients', (v) => String(Math.round(v))],
  ['time ms', 'time_ms', (v) => String(Math.round(v))],
  ['RSS MB', 'rss_mb', (v) => v.toFixed(1)],
];

function tableFor(title, rows, tracers, category, footnotes) {
  const lines = [`### ${title}`, '', `| tracer | ok | ${COLS.map((c) => c[0]).join(' | ')} |`,
    `| --- | --- | ${COLS.map(() => '---:').join(' | ')} |`];
  for (const t of tracers) {
    const mine = rows.filter((r) => r.tracer === t.name);
    // the artist's row: only in a kind's table, and only where some image has the artist's SVG
    if (t.artist && (mine.length === 0 || !category)) continue;
    const note = (text) => {
      let i = footnotes.indexOf(text);
      if (i < 0) { footnotes.push(text); i = footnotes.length - 1; }
      return `[^${i + 1}]`;
    };
    if (mine.length === 0) {
      const why = t.skipNote ?? (category && t.categories && !t.categories.includes(category) ? t.naNote : null);
      const mark = why ? note(why) : '';
      lines.push(`| ${t.name}${mark} | n/a | ${COLS.map(() => 'n/a').join(' | ')} |`);
      continue;
    }
    const ok = mine.filter((r) => r.status === 'ok');
    let mark = '';
    const failed = mine.filter((r) => r.status !== 'ok');
    if (failed.length) {
      // group identical messages: "message (id1, id2, ...)"
      const byMsg = new Map();
      for (const r of failed) {
        const msg = r.error.length > 240 ? `${r.error.slice(0, 237)}...` : r.error;
        byMsg.set(msg, [...(byMsg.get(msg) ?? []), r.id]);
      }
      const parts = [...byMsg].slice(0, 3).map(([msg, ids]) => `${msg} (${ids.length === mine.length ? 'all' : ids.join(', ')})`);
      mark = note(`${t.name} failed: ${parts.join('; ')}${byMsg.size > 3 ? '; ...' : ''}`);
    }
    const cells = COLS.map(([, key, fmt]) => {
      const m = median(ok.map((r) => r[key]));
      return m === null ? 'n/a' : fmt(m);
    });
    lines.push(`| ${t.name}${mark} | ${ok.length}/${mine.length} | ${cells.join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

/** Columns of the per-stage table: [header, value of a row]. `trace` is shown as "engine total". */
const STAGE_COLS = [
  ...['decode', 'resize', 'profile', 'palette', 'label', 'regions', 'shading', 'boundary', 'fit', 'shapes', 'write']
    .map((s) => [s, (r) => r[stageColumn(s)]]),
  ['engine total', (r) => r[stageColumn('trace')]],
  ['process total', (r) => r.time_ms],
];

/**
 * "Tracelab time per stage" table: one row per category (then all categories when there are several), each cell
 * the median over that category's successfully traced images that reported timings. Empty when none did.
 */
export function stageTable(rows, categories) {
  const withTimings = rows.filter((r) => r.tracer === 'tracelab' && r.status === 'ok' && r[stageColumn('trace')] != null);
  if (withTimings.length === 0) return [];
  const fmt = (v) => (v === null ? 'n/a' : v >= 1000 ? String(Math.round(v)) : v.toFixed(1));
  const lines = ['### Tracelab time per stage (ms, medians per category)', '',
    `| category | ${STAGE_COLS.map((c) => c[0]).join(' | ')} |`,
    `| --- | ${STAGE_COLS.map(() => '---:').join(' | ')} |`];
  const groups = categories.map((c) => [c, withTimings.filter((r) => r.category === c)]);
  // all categories: the corpus's own (the derived kinds are copies of its images)
  if (categories.filter((c) => !DERIVED_KINDS[c]).length > 1) groups.push(['all categories', withTimings.filter((r) => !DERIVED_KINDS[r.category])]);
  for (const [label, mine] of groups) {
    if (mine.length === 0) continue;
    lines.push(`| ${label} (${mine.length}) | ${STAGE_COLS.map(([, get]) => fmt(median(mine.map(get)))).join(' | ')} |`);
  }
  lines.push('', 'Stages as timed inside the CLI (`TRACELAB_TIMINGS=1`): decode = image bytes → RGBA; resize … shapes = '
    + 'the engine stages; write = SVG serialisation; engine total = the whole engine call (resize through shapes); '
    + 'process total = wall time of the whole process (the "time ms" column: Node start-up, module loading, '
    + 'reading the file and writing the SVG included). Each column is its own median, so the columns do not add up.', '');
  return lines;
}

function csvCell(v) {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') {
    if (v === Infinity) return 'inf';
    return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
  }
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function pkgVersion(name) {
  try { return readJson(join(BENCH, 'node_modules', name, 'package.json')).version; } catch { return '?'; }
}

function tracelabVersion() {
  let v = '?';
  try { v = readJson(join(ROOT, 'package.json')).version; } catch { /* ignore */ }
  const g = spawnSync('git', ['-C', ROOT, 'describe', '--always', '--dirty'], { encoding: 'utf8' });
  const rev = g.status === 0 ? g.stdout.trim() : 'no git';
  const cli = existsSync(join(ROOT, 'bin/tracelab.js')) ? '' : ', bin/tracelab.js missing';
  return `${v} (${rev}${cli})`;
}

function potraceVersion() {
  const r = spawnSync('potrace', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0].replace(/\. Copyright.*/, '') : 'not installed';
}

// ------------------------------------------------------------ main

async function main() {
  const started = Date.now();
  ensureDeps();
  const require = createRequire(join(BENCH, 'package.json'));
  const { Resvg } = require('@resvg/resvg-js');
  const { PNG } = require('pngjs');

  const timeNote = ensureTool(() => existsSync('/usr/bin/time') && commandWorks('/usr/bin/time', ['-f', '%M', 'true']), 'time');
  // BENCH_NO_GNU_TIME=1 forces the fallback (children report their own maxRSS), for testing
  const useTime = timeNote === null && !process.env.BENCH_NO_GNU_TIME;
  if (!useTime) log(`bench: /usr/bin/time unavailable (${timeNote}); peak RSS comes from the JS children themselves`);

  const manifestFile = join(CORPUS, 'manifest.json');
  if (!existsSync(manifestFile)) {
    log(`bench: no corpus manifest at ${manifestFile} (set TRACELAB_CORPUS)`);
    process.exit(1);
  }
  const manifest = readJson(manifestFile);
  // BENCH_ONLY entries: a category, an image id or an image file name (with or without .png)
  const images = manifest.images.filter((im) => !ONLY
    || [im.category, im.id, im.file, basename(im.file, '.png')].some((key) => ONLY.includes(key)));
  // Derived kinds (bench/derived.mjs: 1-bit copies of the line art, small copies of the photos), made
  // from the whole manifest and picked by BENCH_ONLY as a kind, their own id or file name, or their
  // original's id or file name (not the original's kind: BENCH_ONLY=photo stays the photos alone).
  const readPng = pngReader(PNG);
  // BENCH_DERIVED=0 leaves them out.
  const derived = (process.env.BENCH_DERIVED === '0' ? [] : deriveImages(CORPUS, manifest.images, join(OUT, 'derived'), readPng)).filter((im) => !ONLY
    || [im.category, im.id, im.file, basename(im.file, '.png'), im.derived_from, basename(im.derived_from, '.png')].some((key) => ONLY.includes(key))
    || manifest.images.some((o) => o.file === im.derived_from && ONLY.includes(o.id)));
  const allImages = [...images, ...derived];
  if (allImages.length === 0) {
    log(`bench: no images match BENCH_ONLY=${process.env.BENCH_ONLY}`);
    process.exit(1);
  }

  let tracers = makeTracers();
  if (ONLY_TRACERS) {
    const unknown = ONLY_TRACERS.filter((n) => !tracers.some((t) => t.name === n));
    if (unknown.length) log(`bench: unknown tracer(s) in BENCH_TRACERS: ${unknown.join(', ')}`);
    tracers = tracers.filter((t) => ONLY_TRACERS.includes(t.name));
  }
  const potrace = tracers.find((t) => t.name === 'potrace');
  if (potrace && allImages.some((im) => potrace.categories.includes(im.category))) {
    const note = ensureTool(() => commandWorks('potrace', ['--version']), 'potrace');
    if (note) potrace.skipNote = `potrace skipped: ${note}`;
  }

  for (const t of tracers.filter((t) => t.probeParams)) {
    const first = allImages.find((im) => t.categories.includes(im.category));
    if (!first) continue;
    const note = probeParams(t.probeParams, first.path ?? join(CORPUS, first.file));
    if (note) {
      t.skipNote = `${t.name} skipped: this build does not accept ${t.probeParams.join(' ')} (${note})`;
      log(`bench: ${t.skipNote}`);
    }
  }
  for (const t of tracers) if (!t.artist) mkdirSync(join(OUT, t.name), { recursive: true });
  mkdirSync(RESULTS, { recursive: true });
  const rssFile = join(OUT, '.rss.tmp');

  const jobs = [];
  for (const im of allImages) {
    for (const t of tracers) {
      if (t.categories && !t.categories.includes(im.category)) continue;
      if (DERIVED_KINDS[im.category] && !DERIVED_KINDS[im.category].tracers.includes(t.name)) continue;
      if (t.skipNote) continue;
      if (t.artist && !im.reference_svg) continue;
      jobs.push([im, t]);
    }
  }

  const rows = [];
  const decoded = new Map();
  let k = 0;
  for (const [im, t] of jobs) {
    k++;
    const file = im.path ?? join(CORPUS, im.file);
    const row = {
      category: im.category, id: im.id, file: im.file, width: im.width, height: im.height, tracer: t.name,
      status: 'error', error: '', ssim: null, psnr: null, de2000: null, gap_pct: null, bytes: null,
      gzip_bytes: null, paths: null, nodes: null, gradients: null, time_ms: null, rss_mb: null, runs: 0, note: '',
      artist_stroke_px: im.stroke_width_px ?? null, stroke_width_px: null, stroke_width_err: null,
      derived_from: im.derived_from ?? '', subkind: im.subkind ?? '', black_pct: im.black_pct ?? null, ssim_4x: null,
    };
    rows.push(row);
    // not CSV columns: where the input and the output are (for the in-process facts below)
    Object.defineProperty(row, 'paths_', { value: { input: file, svg: join(OUT, t.name, `${basename(im.file, '.png')}.svg`) } });
    try {
      if (!decoded.has(im.file)) {
        const png = readPng(file);
        if (png.width !== im.width || png.height !== im.height) {
          log(`bench: ${im.file} is ${png.width}x${png.height}, manifest says ${im.width}x${im.height}`);
        }
        decoded.clear(); // images are processed one at a time; keep memory flat
        // what the render is scored against: the input itself, or (1-bit copies) the anti-aliased original
        decoded.set(im.file, { img: png, target: im.compare_to ? readPng(im.compare_to) : png, ref4x: null });
      }
      const entry = decoded.get(im.file);
      const img = entry.img;
      const outSvg = t.artist ? join(CORPUS, im.reference_svg) : join(OUT, t.name, `${basename(im.file, '.png')}.svg`);
      const input = t.prepare ? t.prepare(img, file) : file;
      const times = [];
      const rss = [];
      const stageRuns = [];
      let failure = null;
      for (let r = 0; r < (t.artist ? 0 : REPEAT); r++) {
        rmSync(outSvg, { force: true });
        const [cmd, args] = t.cmd(input, outSvg);
        const res = await runOnce(cmd, args, { cwd: t.cwd, useTime, rssFile, env: t.env, timings: t.timings });
        row.runs++;
        if (!res.ok) { failure = res.error; times.push(res.ms); break; }
        if (!existsSync(outSvg) || statSync(outSvg).size === 0) { failure = 'exited 0 but wrote no SVG'; break; }
        times.push(res.ms);
        rss.push(res.rssMB);
        if (res.timings) stageRuns.push(res.timings);
      }
      row.time_ms = median(times);
      row.rss_mb = median(rss);
      // per-stage ms (Tracelab): median over the runs, like time and RSS
      for (const stage of new Set(stageRuns.flatMap((tm) => Object.keys(tm)))) {
        row[stageColumn(stage)] = median(stageRuns.map((tm) => tm[stage]));
      }
      if (failure) throw new Error(failure);
      const svgBuf = readFileSync(outSvg);
      row.bytes = svgBuf.length;
      row.gzip_bytes = gzipSync(svgBuf, { level: 9 }).length;
      const svg = svgBuf.toString('utf8');
      Object.assign(row, svgStats(svg));
      const elements = drawnElements(svg);
      for (const tag of SVG_ELEMENT_COLUMNS) row[`svg_${tag}`] = elements[tag];
      // The stroke kind: the width this SVG's strokes are written with against the artist's.
      if (im.stroke_width_px) {
        row.stroke_width_px = medianStrokePx(svg, img.width);
        row.stroke_width_err = row.stroke_width_px === null ? null : Math.abs(row.stroke_width_px - im.stroke_width_px) / im.stroke_width_px;
      }
      let rendered;
      try {
        // The artist's SVG may hold <text> (the corpus's text images): drawn with the system's fonts.
        rendered = renderSvg(Resvg, svg, img.width, img.height, Boolean(t.artist));
      } catch (e) {
        throw new Error(`render failed: ${e.message ?? e}`);
      }
      row.note = [rendered.note, t.artist && /<text\b/.test(svg) ? 'text drawn with the system fonts' : ''].filter(Boolean).join('; ');
      const m = compareImages(entry.target, rendered.image);
      row.ssim = m.ssim;
      row.psnr = m.psnr;
      row.de2000 = m.deltaE2000;
      row.gap_pct = m.gapPct;
      row.band_px = m.bandPx;
      if (im.ref4x) {
        // at 4× against the artist's SVG, where a staircase of the traced outline shows
        const [w4, h4] = [4 * img.width, 4 * img.height];
        entry.ref4x ??= flattenOver(renderSvg(Resvg, readFileSync(im.ref4x, 'utf8'), w4, h4, true).image);
        row.ssim_4x = ssim(entry.ref4x, flattenOver(renderSvg(Resvg, svg, w4, h4).image));
      }
      row.status = 'ok';
    } catch (e) {
      row.error = String(e.message ?? e).replace(/\s+/g, ' ').trim();
    }
    const tail = row.status === 'ok'
      ? `${row.time_ms === null ? 'not run' : `${Math.round(row.time_ms)} ms  ${row.rss_mb?.toFixed(1) ?? '?'} MB`}  ssim ${row.ssim.toFixed(4)}  ΔE ${row.de2000.toFixed(2)}  gap ${row.gap_pct.toFixed(3)}%`
      : `FAILED: ${row.error.slice(0, 160)}`;
    log(`[${k}/${jobs.length}] ${t.name.padEnd(14)} ${im.file.padEnd(34)} ${tail}`);
  }
  rmSync(rssFile, { force: true });

  // Tracelab's profile and fitted primitives on the photos (bench/tracelab-facts.mjs: the CLI does
  // not print them), from a second, in-process trace with the same params.
  const factRows = rows.filter((r) => r.tracer === 'tracelab' && r.status === 'ok' && FACT_KINDS.includes(r.category));
  if (factRows.length) {
    log(`bench: Tracelab's profile and primitives of ${factRows.length} photos (in process) ...`);
    const facts = await tracelabFacts(TRACELAB_PARAMS);
    for (const r of factRows) {
      try {
        const f = await facts(r.paths_.input);
        r.profile = f.profile;
        for (const fam of FAMILIES) r[`shapes_${fam}`] = f.shapes[fam];
        if (!f.svg.equals(readFileSync(r.paths_.svg))) {
          r.note = [r.note, 'the in-process trace (profile, shapes_*) wrote other bytes than the CLI'].filter(Boolean).join('; ');
        }
      } catch (e) {
        r.note = [r.note, `profile/shapes: ${String(e.message ?? e)}`].filter(Boolean).join('; ');
      }
    }
  }

  // Per-image ratios (vs VTracer, vs the original SVG), worst images and targets; this also adds
  // the gzip_vs_vtracer / gzip_vs_ref columns to Tracelab's rows.
  const report = imageReport(rows, allImages, CORPUS);

  // ---- CSV
  // Tracelab's stage columns (stage_<name>_ms, empty for the other tracers): the known stages, then any other the
  // CLI reported
  const extraStages = [...new Set(rows.flatMap((r) => Object.keys(r)).filter((k) => /^stage_.+_ms$/.test(k)))]
    .filter((k) => !STAGES.map(stageColumn).includes(k));
  const csvCols = ['category', 'id', 'file', 'width', 'height', 'tracer', 'status', 'error', 'ssim', 'psnr',
    'de2000', 'gap_pct', 'band_px', 'bytes', 'gzip_bytes', 'gzip_vs_vtracer', 'gzip_vs_ref', 'paths', 'nodes', 'gradients', 'time_ms', 'rss_mb', 'runs', 'note',
    ...STAGES.map(stageColumn), ...extraStages,
    'derived_from', 'subkind', 'black_pct', 'ssim_4x', 'artist_stroke_px', 'stroke_width_px', 'stroke_width_err', 'profile', ...FAMILIES.map((f) => `shapes_${f}`), ...SVG_ELEMENT_COLUMNS.map((t) => `svg_${t}`)];
  const csv = [csvCols.join(','), ...rows.map((r) => csvCols.map((c) => csvCell(r[c])).join(','))].join('\n') + '\n';

  // ---- Markdown
  const cpus = os.cpus();
  const totalS = (Date.now() - started) / 1000;
  const md = [];
  md.push('# Tracelab benchmark', '');
  md.push(`- date: ${new Date().toISOString()}`);
  md.push(`- machine: ${os.availableParallelism?.() ?? cpus.length} CPUs (nproc; ${cpus[0]?.model?.trim() ?? '?'}), `
    + `${(os.totalmem() / 2 ** 30).toFixed(0)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}, node ${process.version}`);
  md.push(`- corpus: ${manifest.images.length} images in \`${relative(ROOT, CORPUS)}\`${ONLY ? ` (BENCH_ONLY=${ONLY.join(',')}: ${images.length} images)` : ''}`);
  if (derived.length) {
    md.push(`- derived kinds (bench/derived.mjs, ${derived.length} images): `
      + `lineart_bilevel = a 1-bit copy (luma < 128 over white) of each lineart_bw image, traced by ${DERIVED_KINDS.lineart_bilevel.tracers.join(', ')} and scored against the anti-aliased original (and, in the issue-27 section, at 4× against the artist's SVG); `
      + `photo_small = each photo area-averaged to long side ${PHOTO_SIZES.join(', ')} px (sizes below the original's). Not in the all-categories table.`);
  }
  md.push(`- runs: ${REPEAT} per tracer and image (median time/RSS), each in a fresh process, timeout ${TIMEOUT_MS / 1000} s; `
    + `peak RSS ${useTime ? 'from GNU time %M' : 'reported by the child (process.resourceUsage().maxRSS; n/a for non-JS tracers)'}; `
    + `full run took ${totalS.toFixed(0)} s`);
  md.push('- tracers:');
  const ver = {
    tracelab: `Tracelab ${tracelabVersion()}: \`node bin/tracelab.js vectorize IN -o OUT.svg\`${TRACELAB_PARAMS.length ? ` with ${TRACELAB_PARAMS.map((p) => `\`--param ${p}\``).join(' ')}` : ', default params'}`,
    'tracelab-gradients': `the same CLI with the gradients extension on: ${[...GRADIENT_PARAMS, ...TRACELAB_PARAMS].map((p) => `\`--param ${p}\``).join(' ')}`,
    ...Object.fromEntries(Object.entries(STROKES_ROWS).map(([name, params]) => [name, `the same CLI with ${[...params, ...TRACELAB_PARAMS].map((p) => `\`--param ${p}\``).join(' ')} (${STROKE_ROW_KINDS.join(', ')} only)`])),
    artist: 'not a tracer: the artist\'s original SVG (the manifest\'s reference_svg), for the images that have one, rendered and scored like the traced SVGs (its <text>, if any, with the system fonts); nothing is run, so no time or RSS',
    'vtracer-native': `@neplex/vectorizer ${pkgVersion('@neplex/vectorizer')} (VTracer, native napi addon), vtracer CLI defaults: colour, stacked, spline, filter_speckle 4, color_precision 6, layer_difference 16, corner 60, length 4, splice 45, max_iterations 10, path_precision 2`,
    'vtracer-wasm': `vtracer-wasm ${pkgVersion('vtracer-wasm')} (VTracer compiled to WebAssembly, what a browser runs), same settings as vtracer-native (its raw config wants colorPrecision 2 = bits dropped, filterSpeckle 16 = area, corner/splice thresholds in radians)`,
    imagetracerjs: `imagetracerjs ${pkgVersion('imagetracerjs')} (pure JS), 'default' options`,
    potrace: `${potraceVersion()} (Debian), \`potrace -s\` defaults on a PBM thresholded at luma < 128; lineart_bw and lineart_bilevel only`,
  };
  for (const t of tracers) md.push(`  - **${t.name}**: ${ver[t.name]}`);
  md.push(`- rendering: @resvg/resvg-js ${pkgVersion('@resvg/resvg-js')} at the input's width×height over white; values are medians over the category's successfully traced images ("ok" = traced/attempted).`);
  md.push('');
  const footnotes = [];
  const cats = CATEGORIES.filter((c) => images.some((im) => im.category === c));
  const kinds = [...new Set([...cats, ...images.map((im) => im.category)])];
  for (const c of kinds) {
    const n = images.filter((im) => im.category === c).length;
    md.push(...tableFor(`${c} (${n} images)`, rows.filter((r) => r.category === c), tracers, c, footnotes));
  }
  const derivedKinds = Object.keys(DERIVED_KINDS).filter((c) => derived.some((im) => im.category === c));
  for (const c of derivedKinds) {
    const n = derived.filter((im) => im.category === c).length;
    const what = c === 'lineart_bilevel' ? '1-bit copies of lineart_bw, scored against the anti-aliased originals' : 'photos area-averaged to long side 96–256 px';
    md.push(...tableFor(`${c} (${n} images; ${what})`, rows.filter((r) => r.category === c),
      tracers.filter((t) => DERIVED_KINDS[c].tracers.includes(t.name)), c, footnotes));
  }
  if (cats.length > 1) {
    md.push(...tableFor(`all categories (${images.length} images; potrace: lineart_bw only)`, rows.filter((r) => !DERIVED_KINDS[r.category]), tracers, null, footnotes));
  }
  md.push(...stageTable(rows, [...kinds, ...derivedKinds]));
  md.push(...report);
  // Thread scaling on 4-megapixel inputs (bench/threads.mjs); BENCH_THREADS=0 skips it.
  if (images.length && process.env.BENCH_THREADS !== '0' && (!ONLY_TRACERS || ONLY_TRACERS.includes('tracelab'))) {
    const { runThreadBench, threadTable } = await import('./threads.mjs');
    md.push(threadTable(runThreadBench()), '');
  }
  // Warm timings (engine called repeatedly in one process) and the batch figure (bench/warm.mjs);
  // BENCH_WARM=0 skips them.
  // Issue 28's speed targets side by side (bench/speed-targets.mjs) from the rows below.
  const speed = { cold: coldRows(rows.filter((r) => !DERIVED_KINDS[r.category])) };
  if (images.length && process.env.BENCH_WARM !== '0' && (!ONLY_TRACERS || ONLY_TRACERS.includes('tracelab'))) {
    const { runWarmBench, runBatchBench, warmTable } = await import('./warm.mjs');
    speed.warm = await runWarmBench(CORPUS, images);
    speed.batch = await runBatchBench(CORPUS, images);
    md.push(warmTable(speed.warm, speed.batch), '');
  }
  // Browser timings in Chromium against vtracer-wasm (bench/browser.mjs); BENCH_BROWSER=0 skips them.
  if (images.length && process.env.BENCH_BROWSER !== '0' && existsSync('/usr/bin/chromium') && (!ONLY_TRACERS || ONLY_TRACERS.includes('tracelab'))) {
    const { runBrowserBench, browserTable } = await import('./browser.mjs');
    speed.browser = await runBrowserBench(CORPUS, images);
    md.push(browserTable(speed.browser), '');
  }
  md.push(...speedTargetsTable(speed));
  // Playground timings in the built app (bench/playground.mjs); BENCH_PLAYGROUND=0 skips them.
  if (images.length && process.env.BENCH_PLAYGROUND !== '0' && existsSync('/usr/bin/chromium') && (!ONLY_TRACERS || ONLY_TRACERS.includes('tracelab'))) {
    const { runPlaygroundBench, playgroundTable } = await import('./playground.mjs');
    md.push(playgroundTable(await runPlaygroundBench()), '');
  }
  // Hostile inputs timed and weighed (bench/guards.mjs; the unit tests check only their answers); BENCH_GUARDS=0 skips them.
  if (process.env.BENCH_GUARDS !== '0' && (!ONLY_TRACERS || ONLY_TRACERS.includes('tracelab'))) {
    const { runGuardBench, guardTable } = await import('./guards.mjs');
    md.push(guardTable(await runGuardBench()), '');
  }
  for (let i = 0; i < footnotes.length; i++) md.push(`[^${i + 1}]: ${footnotes[i].replace(/\|/g, '\\|')}`);
  if (footnotes.length) md.push('');
  md.push('Per-image values: `bench/results/latest.csv`; SVGs: `bench/out/<tracer>/`. Metric definitions: `bench/README.md`.', '');
  const mdText = md.join('\n');

  for (const [name, text] of [['latest.csv', csv], ['latest.md', mdText]]) {
    const tmp = join(RESULTS, `${name}.tmp`);
    writeFileSync(tmp, text);
    renameSync(tmp, join(RESULTS, name));
  }
  process.stdout.write(mdText);
  log(`bench: wrote bench/results/latest.md and latest.csv in ${totalS.toFixed(0)} s`);
}

// `node bench/run.mjs` runs the bench; importing the file (tests) only loads the helpers above.
if (process.argv[1] && realpathSync(resolve(process.argv[1])) === realpathSync(fileURLToPath(import.meta.url))) await main();

/**
 * Builds the validation set: images of the corpus's six kinds from public sources the corpus
 * does not use (or other files of the same packages), so the engine can be tuned on the corpus
 * and reported on images it was never tuned on.
 *
 * In: Debian packages, fetched with `apt-get download` (not installed) into
 * node_modules/.cache/tracelab-validation and unpacked there with `dpkg-deb -x`.
 * Out: bench/validation/out/*.png (opaque RGB over white, like the corpus), *.ref.svg where the
 * source is an SVG, and manifest.json in the corpus's format, so `TRACELAB_CORPUS=bench/validation/out npm run bench` runs on it unchanged.
 *
 * Every choice is deterministic: files are picked by fixed rules from sorted lists of one
 * package version, and the synthetic variants (scans, dithering, upscales, JPEG) use fixed
 * parameters and a seeded generator. Not part of CI (it downloads ~110 MB).
 *
 * Usage: node bench/validation/build.mjs   (or npm run bench:validation)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Resvg } from '@resvg/resvg-js';
import { decode as decodePng, encode as encodePng } from 'fast-png';
import jpeg from 'jpeg-js';

const here = dirname(fileURLToPath(import.meta.url));
// Package downloads live with the other tool caches (not under bench/, where `node --test bench/`
// would walk them).
const cache = join(here, '..', '..', 'node_modules', '.cache', 'tracelab-validation');
const root = join(cache, 'x');
const out = join(here, 'out');

const PACKAGES = {
  'openclipart-svg': 'Openclipart: public domain (Creative Commons PD dedication), see openclipart-svg copyright',
  'tango-icon-theme': 'Tango Desktop Project: public domain, see tango-icon-theme copyright',
  'papirus-icon-theme': 'Papirus: GPL-3, see papirus-icon-theme copyright',
  'python3-skimage': 'scikit-image data: see python3-skimage copyright (CC0 / public domain / per-image terms)',
  'crawl-tiles-data': 'Dungeon Crawl Stone Soup tiles: CC0 (tiles) / GPL-2+, see crawl-tiles-data copyright',
  'pingus-data': 'Pingus: GPL-3+, see pingus-data copyright',
  'fonts-dejavu-core': 'DejaVu fonts: Bitstream Vera licence (free), see fonts-dejavu-core copyright',
};

/** The corpus's own source files: never picked again. */
const CORPUS_FILES = new Set([
  'debian_nuskool_joel_leht_01.svg', 'lemon_whole_ganson.svg', 'uk_wales.svg', 'baseball_glove_ganson.svg',
  'rubik_s_cube_petri_lumme_01.svg', 'recycling_box_a.j._ashto_01.svg', 'dancer_sketch_erich_schu_01.svg',
  'france_brittany.svg', 'owl_on_branch_ganson.svg', 'astronaut.png', 'coffee.png', 'rocket.jpg',
  'main.png', 'floor.png', 'title_peileppe_bloax_eye.png', 'title_froggy_jiyva_felid.png', 'bridger_walk.png',
]);

function fetchPackages() {
  mkdirSync(root, { recursive: true });
  mkdirSync(cache, { recursive: true });
  for (const name of Object.keys(PACKAGES)) {
    let deb = readdirSync(cache).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
    if (!deb) {
      console.log(`validation: apt-get download ${name}`);
      try {
        execFileSync('apt-get', ['download', name], { cwd: cache, stdio: 'inherit' });
      } catch {
        execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
        execFileSync('apt-get', ['download', name], { cwd: cache, stdio: 'inherit' });
      }
      deb = readdirSync(cache).find((f) => f.startsWith(`${name}_`) && f.endsWith('.deb'));
    }
    const stamp = join(root, `.${name}`);
    if (!existsSync(stamp)) {
      execFileSync('dpkg-deb', ['-x', join(cache, deb), root]);
      writeFileSync(stamp, deb);
    }
  }
}

function walk(dir) {
  const files = [];
  for (const entry of readdirSync(dir).sort()) {
    const p = join(dir, entry);
    if (statSync(p).isDirectory()) files.push(...walk(p));
    else files.push(p);
  }
  return files;
}

// ----------------------------------------------------------------------------------------------
// Pixels

/** RGBA image {width, height, data: Uint8Array}. */
function readPng(path) {
  const p = decodePng(readFileSync(path));
  const n = p.width * p.height;
  const data = new Uint8Array(n * 4);
  const shift = p.depth === 16 ? 8 : 0;
  const ch = p.channels;
  const palette = p.palette;
  for (let i = 0; i < n; i++) {
    if (palette) {
      const c = palette[p.data[i]];
      data.set([c[0], c[1], c[2], c.length > 3 ? c[3] : 255], i * 4);
      continue;
    }
    for (let k = 0; k < 3; k++) data[i * 4 + k] = p.data[i * ch + (ch >= 3 ? k : 0)] >> shift;
    data[i * 4 + 3] = ch === 4 || ch === 2 ? p.data[i * ch + ch - 1] >> shift : 255;
  }
  return { width: p.width, height: p.height, data };
}

function readJpeg(path) {
  const j = jpeg.decode(readFileSync(path), { useTArray: true, formatAsRGBA: true });
  return { width: j.width, height: j.height, data: new Uint8Array(j.data) };
}

function overWhite(img) {
  const data = new Uint8Array(img.data.length);
  for (let i = 0; i < img.data.length; i += 4) {
    const a = img.data[i + 3] / 255;
    for (let k = 0; k < 3; k++) data[i + k] = Math.round(img.data[i + k] * a + 255 * (1 - a));
    data[i + 3] = 255;
  }
  return { ...img, data };
}

function crop(img, x0, y0, w, h) {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) data.set(img.data.subarray(((y0 + y) * img.width + x0) * 4, ((y0 + y) * img.width + x0 + w) * 4), y * w * 4);
  return { width: w, height: h, data };
}

/** Area-average shrink so the long side is at most `longSide`. */
function shrink(img, longSide) {
  const scale = longSide / Math.max(img.width, img.height);
  if (scale >= 1) return img;
  const w = Math.max(1, Math.round(img.width * scale));
  const h = Math.max(1, Math.round(img.height * scale));
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    const sy0 = Math.floor((y * img.height) / h);
    const sy1 = Math.max(sy0 + 1, Math.floor(((y + 1) * img.height) / h));
    for (let x = 0; x < w; x++) {
      const sx0 = Math.floor((x * img.width) / w);
      const sx1 = Math.max(sx0 + 1, Math.floor(((x + 1) * img.width) / w));
      const sum = [0, 0, 0, 0];
      for (let sy = sy0; sy < sy1; sy++) for (let sx = sx0; sx < sx1; sx++) for (let k = 0; k < 4; k++) sum[k] += img.data[(sy * img.width + sx) * 4 + k];
      const n = (sy1 - sy0) * (sx1 - sx0);
      for (let k = 0; k < 4; k++) data[(y * w + x) * 4 + k] = Math.round(sum[k] / n);
    }
  }
  return { width: w, height: h, data };
}

/** Nearest-neighbour upscale (a non-integer factor gives cells of two sizes). */
function upscale(img, factor) {
  const w = Math.round(img.width * factor);
  const h = Math.round(img.height * factor);
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const sx = Math.min(img.width - 1, Math.floor(x / factor));
      const sy = Math.min(img.height - 1, Math.floor(y / factor));
      data.set(img.data.subarray((sy * img.width + sx) * 4, (sy * img.width + sx) * 4 + 4), (y * w + x) * 4);
    }
  }
  return { width: w, height: h, data };
}

function jpegRoundTrip(img, quality) {
  const encoded = jpeg.encode({ width: img.width, height: img.height, data: Buffer.from(img.data) }, quality).data;
  const j = jpeg.decode(encoded, { useTArray: true, formatAsRGBA: true });
  return { width: j.width, height: j.height, data: new Uint8Array(j.data) };
}

/** Deterministic pseudo-random numbers. */
function seeded(seed) {
  let s = seed;
  return () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
}

/** A scanned-looking copy: turned 0.8°, bilinear, a 3×3 blur, paper tint, noise, JPEG q85. */
function scan(img, seed) {
  const { width: w, height: h } = img;
  const rnd = seeded(seed);
  const angle = (0.8 * Math.PI) / 180;
  const at = (x, y) => {
    x = Math.max(0, Math.min(w - 1, x));
    y = Math.max(0, Math.min(h - 1, y));
    const o = (y * w + x) * 4;
    return (img.data[o] + img.data[o + 1] + img.data[o + 2]) / 3;
  };
  const turned = new Float64Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const sx = (x - w / 2) * Math.cos(angle) - (y - h / 2) * Math.sin(angle) + w / 2;
      const sy = (x - w / 2) * Math.sin(angle) + (y - h / 2) * Math.cos(angle) + h / 2;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      turned[y * w + x] = (1 - fx) * (1 - fy) * at(x0, y0) + fx * (1 - fy) * at(x0 + 1, y0) + (1 - fx) * fy * at(x0, y0 + 1) + fx * fy * at(x0 + 1, y0 + 1);
    }
  }
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let v = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const weight = (dx ? 1 : 2) * (dy ? 1 : 2) / 16;
          v += weight * turned[Math.max(0, Math.min(h - 1, y + dy)) * w + Math.max(0, Math.min(w - 1, x + dx))];
        }
      }
      const noise = (rnd() + rnd() + rnd() - 1.5) * 6;
      const p = 28 + (v * (240 - 28)) / 255 + noise;
      data.set([p + 3, p, p - 8, 255].map((c) => Math.max(0, Math.min(255, Math.round(c)))), (y * w + x) * 4);
    }
  }
  return jpegRoundTrip({ width: w, height: h, data }, 85);
}

/** Floyd–Steinberg dithering to a palette of `k` colours chosen by median cut on the image. */
function dither(img, k) {
  const colors = medianCut(img, k);
  const { width: w, height: h } = img;
  const err = new Float64Array(w * h * 3);
  for (let i = 0; i < w * h; i++) for (let c = 0; c < 3; c++) err[i * 3 + c] = img.data[i * 4 + c];
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let best = 0;
      let bestD = Infinity;
      colors.forEach((c, j) => {
        const d = (err[i * 3] - c[0]) ** 2 + (err[i * 3 + 1] - c[1]) ** 2 + (err[i * 3 + 2] - c[2]) ** 2;
        if (d < bestD) [best, bestD] = [j, d];
      });
      const c = colors[best];
      data.set([c[0], c[1], c[2], 255], i * 4);
      for (let ch = 0; ch < 3; ch++) {
        const e = err[i * 3 + ch] - c[ch];
        if (x + 1 < w) err[(i + 1) * 3 + ch] += (e * 7) / 16;
        if (y + 1 < h) {
          if (x > 0) err[(i + w - 1) * 3 + ch] += (e * 3) / 16;
          err[(i + w) * 3 + ch] += (e * 5) / 16;
          if (x + 1 < w) err[(i + w + 1) * 3 + ch] += e / 16;
        }
      }
    }
  }
  return { width: w, height: h, data };
}

function medianCut(img, k) {
  const pixels = [];
  for (let i = 0; i < img.data.length; i += 4) pixels.push([img.data[i], img.data[i + 1], img.data[i + 2]]);
  let boxes = [pixels];
  while (boxes.length < k) {
    boxes.sort((a, b) => b.length - a.length);
    const box = boxes.shift();
    const ranges = [0, 1, 2].map((c) => Math.max(...box.map((p) => p[c])) - Math.min(...box.map((p) => p[c])));
    const axis = ranges.indexOf(Math.max(...ranges));
    box.sort((a, b) => a[axis] - b[axis]);
    boxes.push(box.slice(0, box.length >> 1), box.slice(box.length >> 1));
  }
  return boxes.map((b) => [0, 1, 2].map((c) => Math.round(b.reduce((s, p) => s + p[c], 0) / b.length)));
}

function renderSvg(svgText, longSide, fontFiles = []) {
  const probe = new Resvg(svgText, { font: { loadSystemFonts: false, fontFiles } });
  const landscape = probe.width >= probe.height;
  const r = new Resvg(svgText, {
    fitTo: landscape ? { mode: 'width', value: longSide } : { mode: 'height', value: longSide },
    background: 'white',
    font: { loadSystemFonts: false, fontFiles },
  }).render();
  return overWhite({ width: r.width, height: r.height, data: new Uint8Array(r.pixels) });
}

// ----------------------------------------------------------------------------------------------
// Picking

/** Colours used by an SVG's fill/stroke attributes and styles, normalised to #rrggbb. */
function svgColors(text) {
  const named = { black: '#000000', white: '#ffffff' };
  const out = new Set();
  for (const m of text.matchAll(/(?:fill|stroke)\s*[:=]\s*"?\s*(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3}\b|black|white)/g)) {
    let c = named[m[1].toLowerCase()] ?? m[1].toLowerCase();
    if (c.length === 4) c = `#${c[1]}${c[1]}${c[2]}${c[2]}${c[3]}${c[3]}`;
    out.add(c);
  }
  return out;
}

/** Every k-th of a sorted list, starting at `offset`, up to `count`. */
function every(list, count, offset = 0) {
  if (list.length <= count) return list;
  const step = list.length / count;
  return Array.from({ length: count }, (_, i) => list[Math.floor(offset + i * step) % list.length]);
}

/**
 * Like `every`, for SVG files: a file resvg cannot read (a few of the collection are malformed)
 * is replaced by the next one in the list. Returns [path, text, rendered image] triples.
 */
function everyRendered(list, count, offset, longSide) {
  const out = [];
  const step = list.length / count;
  for (let i = 0; i < count && i < list.length; i++) {
    for (let j = Math.floor(offset + i * step); j < list.length; j++) {
      const text = readFileSync(list[j], 'utf8');
      try {
        const img = renderSvg(text, longSide);
        if (out.some(([p]) => p === list[j])) continue;
        out.push([list[j], text, img]);
        break;
      } catch {
        // unreadable: take the next file
      }
    }
  }
  return out;
}

function openclipartLists() {
  const base = join(root, 'usr/share/openclipart/svg');
  const bw = [];
  const flat = [];
  const twoColour = [];
  for (const p of walk(base)) {
    if (!p.endsWith('.svg') || CORPUS_FILES.has(basename(p))) continue;
    const size = statSync(p).size;
    if (size < 4000 || size > 120000) continue;
    const text = readFileSync(p, 'latin1');
    if (/Gradient|<image|<text|filter/i.test(text)) continue;
    const colors = svgColors(text);
    const isBw = colors.has('#000000') && [...colors].every((c) => c === '#000000' || c === '#ffffff');
    if (isBw) bw.push(p);
    else if (colors.size >= 3 && colors.size <= 10) flat.push(p);
    if (!isBw && colors.size === 3 && colors.has('#000000') && colors.has('#ffffff')) twoColour.push(p);
  }
  return { base, bw, flat, twoColour };
}

// ----------------------------------------------------------------------------------------------

function main() {
  fetchPackages();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  const images = [];
  const add = (category, id, img, source_package, source_path, processing, note, refSvgText) => {
    const file = `${category}-${id}.png`;
    const rgb = overWhite(img);
    writeFileSync(join(out, file), encodePng({ width: rgb.width, height: rgb.height, data: rgb.data, channels: 4 }));
    const entry = { file, category, id, width: rgb.width, height: rgb.height, source_package, source_path, processing, license: PACKAGES[source_package], note };
    if (refSvgText) {
      const ref = `${category}-${id}.ref.svg`;
      writeFileSync(join(out, ref), refSvgText);
      entry.reference_svg = ref;
    }
    images.push(entry);
  };
  const sysPath = (p) => `/${relative(root, p)}`;
  const idOf = (p) => basename(p).replace(/\.(svg|png|jpg)$/, '').replace(/[^a-z0-9]+/gi, '-').toLowerCase().slice(0, 40);

  const oc = openclipartLists();
  // Clip art: 10 flat-colour pieces across the collection, plus two-colour logos with outlines.
  for (const [p, text, img] of everyRendered(oc.flat, 10, 3, 600)) {
    add('clipart', idOf(p), img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'flat clip art', text);
  }
  for (const [p, text, img] of everyRendered(oc.twoColour, 2, 1, 500)) {
    add('clipart', `2c-${idOf(p)}`, img, 'openclipart-svg', sysPath(p), 'resvg, long side 500px, over white', 'one colour plus black outline on white', text);
  }
  // Line art: 8 black-and-white drawings, 2 of them also "scanned"; text in two DejaVu faces.
  everyRendered(oc.bw, 8, 5, 600).forEach(([p, text, img], i) => {
    add('lineart_bw', idOf(p), img, 'openclipart-svg', sysPath(p), 'resvg, long side 600px, over white', 'black and white drawing', text);
    if (i < 2) add('lineart_bw', `scan-${idOf(p)}`, scan(img, 11 + i), 'openclipart-svg', sysPath(p), 'resvg 600px, then turned 0.8°, blurred, paper tint, noise, JPEG q85', 'scanned-looking line art');
  });
  const fonts = join(root, 'usr/share/fonts/truetype/dejavu');
  const paragraph = [
    'Vector graphics describe pictures with points, lines',
    'and curves, so they stay sharp at any size. A tracer',
    'turns the pixels of a bitmap back into such shapes:',
    'edges become Bézier curves, flat areas become fills.',
  ];
  for (const [face, file, size] of [['sans', 'DejaVuSans.ttf', 22], ['serif', 'DejaVuSerif.ttf', 15]]) {
    const lines = paragraph.map((t, i) => `<text x="10" y="${30 + i * size * 1.5}" font-family="DejaVu ${face === 'sans' ? 'Sans' : 'Serif'}" font-size="${size}">${t}</text>`).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size * 30}" height="${20 + paragraph.length * size * 1.5}">${lines}</svg>`;
    const img = renderSvg(svg, size * 30, [join(fonts, file)]);
    add('lineart_bw', `text-${face}-${size}`, img, 'fonts-dejavu-core', `/usr/share/fonts/truetype/dejavu/${file}`, 'SVG <text> rendered with resvg, over white', `paragraph text, ${size}px`);
    if (face === 'serif') add('lineart_bw', `scan-text-${face}`, scan(img, 21), 'fonts-dejavu-core', `/usr/share/fonts/truetype/dejavu/${file}`, 'text rendered, then turned 0.8°, blurred, paper tint, noise, JPEG q85', 'scanned paragraph text');
  }
  // Icons: Tango and Papirus application icons at 256 px.
  const tango = walk(join(root, 'usr/share/icons/Tango/scalable/apps')).filter((p) => p.endsWith('.svg'));
  for (const [p, text, img] of everyRendered(tango, 5, 2, 256)) {
    add('icon', `tango-${idOf(p)}`, img, 'tango-icon-theme', sysPath(p), 'resvg, 256px, over white', 'Tango application icon', text);
  }
  const papirus = walk(join(root, 'usr/share/icons/Papirus/64x64/apps')).filter((p) => p.endsWith('.svg') && statSync(p).size > 1500);
  for (const [p, text, img] of everyRendered(papirus, 5, 7, 256)) {
    add('icon', `papirus-${idOf(p)}`, img, 'papirus-icon-theme', sysPath(p), 'resvg, 256px, over white', 'Papirus application icon (flat style)', text);
  }
  // Pixel art: other crawl sheets and title art, pingus sprites, and the real-world variants.
  const tiles = join(root, 'usr/share/crawl/dat/tiles');
  const player = readPng(join(tiles, 'player.png'));
  add('pixel', 'crawl-player', crop(player, 0, 0, Math.min(256, player.width), Math.min(128, player.height)), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/player.png', 'crop 256×128 of the sheet, over white', 'sprite sheet with transparent margins');
  const feat = readPng(join(tiles, 'feat.png'));
  add('pixel', 'crawl-feat', crop(feat, 0, 0, Math.min(192, feat.width), Math.min(96, feat.height)), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/feat.png', 'crop 192×96 of the sheet, over white', 'dungeon features');
  const wall = readPng(join(tiles, 'wall.png'));
  add('pixel', 'crawl-wall', crop(wall, 0, 0, Math.min(128, wall.width), Math.min(64, wall.height)), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/wall.png', 'crop 128×64, over white', 'noise-textured wall tiles');
  const titles = readdirSync(tiles).filter((f) => f.startsWith('title_') && !CORPUS_FILES.has(f)).sort();
  for (const f of every(titles, 2, 4)) {
    const t = readPng(join(tiles, f));
    add('pixel', `crawl-${idOf(f).replace(/^title-/, 'title-')}`, shrink(t, 600) === t ? t : crop(t, 0, 0, Math.min(600, t.width), Math.min(600, t.height)), 'crawl-tiles-data', `/usr/share/crawl/dat/tiles/${f}`, 'as is (cropped to 600 px if larger), over white', 'title screen art');
  }
  const pingusDir = join(root, 'usr/share/games/pingus/data/images/pingus/player0');
  const sprites = readdirSync(pingusDir).filter((f) => f.endsWith('.png') && !CORPUS_FILES.has(f)).sort();
  const walker = readPng(join(pingusDir, every(sprites, 1, 3)[0]));
  add('pixel', 'pingus-sprite', walker, 'pingus-data', `/usr/share/games/pingus/data/images/pingus/player0/${every(sprites, 1, 3)[0]}`, 'as is, over white', 'sprite sheet');
  const sprite = overWhite(crop(player, 0, 0, 32, 32));
  add('pixel', 'upscale-x4', upscale(sprite, 4), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/player.png', 'first 32×32 tile, nearest-neighbour ×4', 'integer upscale');
  add('pixel', 'upscale-x2_5', upscale(overWhite(crop(feat, 32, 0, 32, 32)), 2.5), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/feat.png', '32×32 tile, nearest-neighbour ×2.5', 'non-integer upscale');
  add('pixel', 'upscale-x4-q75', jpegRoundTrip(upscale(overWhite(crop(wall, 32, 0, 32, 32)), 4), 75), 'crawl-tiles-data', '/usr/share/crawl/dat/tiles/wall.png', '32×32 tile, ×4, JPEG q75', "JPEG'd sprite");
  const skimage = join(root, 'usr/lib/python3/dist-packages/skimage/data');
  add('pixel', 'dither-chelsea', dither(shrink(readPng(join(skimage, 'chelsea.png')), 160), 8), 'python3-skimage', '/usr/lib/python3/dist-packages/skimage/data/chelsea.png', 'shrunk to 160 px, Floyd–Steinberg to 8 median-cut colours', 'dithered picture');
  // Photos: other scikit-image sample photos, long side 600.
  for (const f of ['chelsea.png', 'motorcycle_left.png', 'hubble_deep_field.jpg', 'ihc.png', 'camera.png', 'coins.png', 'brick.png', 'gravel.png']) {
    const p = join(skimage, f);
    const img = f.endsWith('.jpg') ? readJpeg(p) : readPng(p);
    add('photo', idOf(f), shrink(img, 600), 'python3-skimage', `/usr/lib/python3/dist-packages/skimage/data/${f}`, 'area-averaged to long side 600 px, over white', 'photograph');
  }
  // JPEG-damaged art: other clip art and icons at q50–q90.
  const jpegSources = [...everyRendered(oc.flat, 5, 11, 480), ...everyRendered(tango, 3, 5, 256)];
  const qualities = [50, 60, 75, 90, 60, 70, 80, 50];
  jpegSources.forEach(([p, , img], i) => {
    const q = qualities[i % qualities.length];
    const isIcon = p.includes('/icons/');
    add('jpeg', `${idOf(p)}-q${q}`, jpegRoundTrip(img, q), isIcon ? 'tango-icon-theme' : 'openclipart-svg', sysPath(p), `resvg, long side ${isIcon ? 256 : 480}px, JPEG q${q}, back to PNG`, 'JPEG-damaged art');
  });

  const manifest = {
    description:
      'Validation set for Tracelab (bench/validation/build.mjs): the corpus kinds from other files and packages than ../shared/corpus. Tune on the corpus, report on this set. Opaque 8-bit PNG over white; *.ref.svg is the source where it was an SVG.',
    images,
  };
  writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1));
  const counts = {};
  for (const im of images) counts[im.category] = (counts[im.category] ?? 0) + 1;
  console.log(`validation: ${images.length} images in ${relative(process.cwd(), out)}`, counts);
}

main();

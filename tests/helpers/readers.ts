/**
 * Third-party readers for the output formats, as the reader-matrix test (tests/render/readers.test.ts)
 * runs them: poppler (pdftoppm, pdfinfo), Ghostscript, ezdxf (Debian's python3-ezdxf through
 * tests/helpers/read-dxf.py, many files per interpreter start), resvg and Chromium. Every reader
 * returns its exit status and both output streams so the caller can insist on a clean run, and
 * raster results as straight-alpha RGBA.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { decode } from 'fast-png';
import type { Browser, Page } from 'playwright-core';
import type { RgbaImage } from '../../src/engine/types.js';
import { polygonCoverage } from '../../src/formats/raster.js';
import { meanAbsDiff } from './compare.js';

export interface ToolRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to completion (no shell), throwing only when it cannot be started. */
export function runTool(command: string, args: readonly string[], input?: string): ToolRun {
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 << 20, ...(input !== undefined ? { input } : {}) });
  if (r.error) throw r.error;
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The same, asynchronously (several readers can then run side by side). */
export function runToolAsync(command: string, args: readonly string[]): Promise<ToolRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
  });
}

/** A temporary folder for reader input and output files, made on first use. */
export class WorkDir {
  private folder: string | undefined;
  private count = 0;

  get path(): string {
    return (this.folder ??= mkdtempSync(join(tmpdir(), 'tracelab-readers-')));
  }

  file(extension: string, data?: Uint8Array | string): string {
    const path = join(this.path, `f${this.count++}.${extension}`);
    if (data !== undefined) writeFileSync(path, data);
    return path;
  }

  remove(): void {
    if (this.folder !== undefined) rmSync(this.folder, { recursive: true, force: true });
  }
}

/** Any 8- or 16-bit grey/grey-alpha/RGB/RGBA PNG as 8-bit straight-alpha RGBA. */
export function decodePngRgba(bytes: Uint8Array): RgbaImage {
  const png = decode(bytes);
  const n = png.width * png.height;
  const ch = png.channels;
  const shift = png.depth === 16 ? 8 : 0;
  if (png.depth !== 8 && png.depth !== 16) throw new Error(`unexpected PNG depth ${png.depth}`);
  if (png.palette) throw new Error('palette PNGs are not expected from these readers');
  const src = png.data;
  const data = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const at = (c: number): number => src[i * ch + c]! >> shift;
    if (ch <= 2) {
      data[i * 4] = data[i * 4 + 1] = data[i * 4 + 2] = at(0);
      data[i * 4 + 3] = ch === 2 ? at(1) : 255;
    } else {
      data[i * 4] = at(0);
      data[i * 4 + 1] = at(1);
      data[i * 4 + 2] = at(2);
      data[i * 4 + 3] = ch === 4 ? at(3) : 255;
    }
  }
  return { width: png.width, height: png.height, data };
}

export interface ReaderRender {
  readonly run: ToolRun;
  /** Undefined when the reader failed. */
  readonly image?: RgbaImage;
}

/** pdftoppm's rendering of a PDF (white page, anti-aliased) at `dpi`. */
export async function renderPdfWithPoppler(dir: WorkDir, bytes: Uint8Array, dpi: number): Promise<ReaderRender> {
  const file = dir.file('pdf', bytes);
  const prefix = dir.file('poppler');
  const run = await runToolAsync('pdftoppm', ['-png', '-singlefile', '-r', String(dpi), file, prefix]);
  return { run, ...(run.status === 0 ? { image: decodePngRgba(readFileSync(`${prefix}.png`)) } : {}) };
}

/** pdfinfo's report and the "Page size: W x H pts" it gives. */
export async function pdfInfo(dir: WorkDir, bytes: Uint8Array): Promise<{ run: ToolRun; width: number; height: number }> {
  const run = await runToolAsync('pdfinfo', [dir.file('pdf', bytes)]);
  const m = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(run.stdout);
  return { run, width: m ? Number(m[1]) : NaN, height: m ? Number(m[2]) : NaN };
}

/** Ghostscript's rendering of an EPS cropped to its bounding box (transparent page) at `dpi`. */
export async function renderEpsWithGhostscript(dir: WorkDir, bytes: Uint8Array, dpi: number): Promise<ReaderRender> {
  const file = dir.file('eps', bytes);
  const out = dir.file('png');
  const run = await runToolAsync('gs', [
    '-dSAFER',
    '-dBATCH',
    '-dNOPAUSE',
    '-dQUIET',
    '-sDEVICE=pngalpha',
    '-dEPSCrop',
    `-r${dpi}`,
    '-dGraphicsAlphaBits=4',
    `-sOutputFile=${out}`,
    file,
  ]);
  return { run, ...(run.status === 0 ? { image: decodePngRgba(readFileSync(out)) } : {}) };
}

// ---------------------------------------------------------------------------------------------
// DXF through ezdxf

export interface DxfEntity {
  readonly dxftype: string;
  readonly layer: string;
  readonly true_color: number | null;
  readonly aci: number;
  readonly closed: boolean | null;
  readonly has_bulges: boolean;
  /** Hundredths of a millimetre; negative: by layer / block / default. */
  readonly lineweight: number;
  readonly points: [number, number][];
}

export interface DxfReport {
  readonly dxfversion: string;
  /** $INSUNITS (0 unitless, 1 in, 4 mm, 5 cm). */
  readonly insunits: number;
  readonly extmin: number[];
  readonly extmax: number[];
  readonly audit: { errors: number; fixes: number; messages: string[] };
  readonly structure: string[];
  readonly load_messages: string[];
  readonly layers: string[];
  readonly entities: DxfEntity[];
}

export interface DxfRead {
  /** Undefined when ezdxf raised (see `error`). */
  readonly report?: DxfReport;
  /** Traceback of an exception, '' when none. */
  readonly error: string;
  /** What the reader printed on stderr while reading this file. */
  readonly stderr: string;
}

const READ_DXF = join(import.meta.dirname, 'read-dxf.py');

/**
 * Reads many DXF files with tests/helpers/read-dxf.py in one Python process (an interpreter
 * start with ezdxf costs about a third of a second): the script's own main() runs once per file,
 * with its stdout and stderr captured per file, and an exception is recorded, not fatal.
 * The returned run is the interpreter's own (exit status, anything printed outside the files).
 */
export function readDxfFiles(paths: readonly string[], distance = 0.01): { run: ToolRun; reads: DxfRead[] } {
  const program = `
import contextlib, importlib.util, io, json, sys, traceback
spec = importlib.util.spec_from_file_location("read_dxf", ${JSON.stringify(READ_DXF)})
mod = importlib.util.module_from_spec(spec)
spec.loader.exec_module(mod)
results = []
for path in json.loads(sys.stdin.read()):
    out, err = io.StringIO(), io.StringIO()
    error = ""
    sys.argv = ["read-dxf.py", path, ${JSON.stringify(String(distance))}]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            mod.main()
    except Exception:
        error = traceback.format_exc()
    results.append({"report": json.loads(out.getvalue()) if not error else None, "error": error, "stderr": err.getvalue()})
json.dump(results, sys.stdout)
`;
  const run = runTool('/usr/bin/python3', ['-c', program], JSON.stringify(paths));
  if (run.status !== 0) return { run, reads: [] };
  const parsed = JSON.parse(run.stdout) as { report: DxfReport | null; error: string; stderr: string }[];
  return {
    run: { ...run, stdout: '' },
    reads: parsed.map((r) => ({ ...(r.report ? { report: r.report } : {}), error: r.error, stderr: r.stderr })),
  };
}

export interface XmlRead {
  /** Parser error ('' when the file is well-formed XML). */
  readonly error: string;
  readonly root: string | null;
  readonly namespace: string | null;
}

/**
 * Parses files with Python's expat (xml.dom.minidom), which rejects anything that is not
 * well-formed XML, one interpreter for all files; reports the root element and its namespace.
 */
export function parseXmlFiles(paths: readonly string[]): { run: ToolRun; reads: XmlRead[] } {
  const program = `
import json, sys, xml.dom.minidom
results = []
for path in json.loads(sys.stdin.read()):
    try:
        root = xml.dom.minidom.parse(path).documentElement
        results.append({"error": "", "root": root.tagName, "namespace": root.getAttribute("xmlns")})
    except Exception as e:
        results.append({"error": f"{type(e).__name__}: {e}", "root": None, "namespace": None})
json.dump(results, sys.stdout)
`;
  const run = runTool('/usr/bin/python3', ['-c', program], JSON.stringify(paths));
  if (run.status !== 0) return { run, reads: [] };
  return { run: { ...run, stdout: '' }, reads: JSON.parse(run.stdout) as XmlRead[] };
}

/**
 * Paints the closed DXF entities over white as a filled drawing: runs of consecutive entities
 * of one colour (one shape's outline and holes, or several shapes of one colour side by side)
 * are filled even-odd (a loop inside an odd number of the run's other loops is a hole), runs in
 * the order the entities appear. Page units → device pixels: x·k, (pageHeight − y)·k.
 * `grouping: 'colour'` fills all the loops of one colour as one run instead, colours in the order
 * they first appear. Each run's holes are turned to run against the loops around them, so the
 * nonzero rasteriser fills exactly the even-odd area.
 */
export function rasterizeDxf(
  report: DxfReport,
  pageHeight: number,
  k: number,
  width: number,
  height: number,
  grouping: 'runs' | 'colour' = 'runs',
): RgbaImage {
  const data = new Uint8Array(width * height * 4).fill(255);
  const runs: { color: number; loops: [number, number][][] }[] = [];
  const byColor = new Map<number, (typeof runs)[number]>();
  for (const e of report.entities) {
    if (e.true_color === null || e.points.length < 3) continue;
    const run = grouping === 'colour' ? byColor.get(e.true_color) : runs[runs.length - 1];
    if (run && run.color === e.true_color) run.loops.push(e.points);
    else {
      const added = { color: e.true_color, loops: [e.points] };
      runs.push(added);
      byColor.set(e.true_color, added);
    }
  }
  for (const { color, loops } of runs) {
    const polys = loops.map((loop, i) => {
      const depth = loops.filter((other, j) => j !== i && insidePolygon(loop[0]!, other)).length;
      const ccw = signedArea(loop) > 0;
      const ordered = ccw === (depth % 2 === 0) ? loop : [...loop].reverse();
      const p = new Float64Array(ordered.length * 2);
      ordered.forEach(([x, y], n) => {
        p[2 * n] = x * k;
        p[2 * n + 1] = (pageHeight - y) * k;
      });
      return p;
    });
    const cov = polygonCoverage(polys, width, height, true);
    const rgb = [(color >> 16) & 255, (color >> 8) & 255, color & 255];
    for (let i = 0; i < width * height; i++) {
      const c = Math.min(1, cov[i]!);
      if (c <= 0) continue;
      for (let ch = 0; ch < 3; ch++) data[i * 4 + ch] = Math.round(data[i * 4 + ch]! * (1 - c) + rgb[ch]! * c);
    }
  }
  return { width, height, data };
}

function signedArea(loop: readonly [number, number][]): number {
  let a = 0;
  for (let i = 0; i < loop.length; i++) {
    const [x0, y0] = loop[i]!;
    const [x1, y1] = loop[(i + 1) % loop.length]!;
    a += x0 * y1 - x1 * y0;
  }
  return a / 2;
}

function insidePolygon([px, py]: [number, number], poly: readonly [number, number][]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > py !== yj > py && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

// ---------------------------------------------------------------------------------------------
// SVG

/** The root <svg> element's attributes. */
export function svgRootAttributes(svg: string): Record<string, string> {
  const m = /<svg\b([^>]*)>/.exec(svg);
  if (!m) throw new Error('no <svg> element');
  const attrs: Record<string, string> = {};
  for (const a of m[1]!.matchAll(/([\w:-]+)="([^"]*)"/g)) attrs[a[1]!] = a[2]!;
  return attrs;
}

/**
 * The same SVG drawn on a whole-pixel device grid at exactly `exactWidth` × `exactHeight` device
 * pixels for its page: width/height become the whole-pixel size, and the viewBox grows or
 * shrinks by the fraction of a pixel that rounding added or cut, so one user unit still covers
 * exactly the same device pixels as in our render (which also rounds the page to whole pixels
 * and draws at the exact scale). Without this, a renderer stretches the picture by up to half a
 * pixel across the page. Paint, paths and the viewBox origin are untouched.
 */
export function onDeviceGrid(svg: string, exactWidth: number, exactHeight: number, extraRootAttributes = ''): string {
  const width = Math.max(1, Math.round(exactWidth));
  const height = Math.max(1, Math.round(exactHeight));
  return svg.replace(/<svg\b([^>]*)>/, (_, attrs: string) => {
    const box = /\sviewBox="([^"]*)"/.exec(attrs);
    if (!box) throw new Error('the SVG has no viewBox');
    const [x, y, w, h] = box[1]!.trim().split(/[\s,]+/).map(Number) as [number, number, number, number];
    const rest = attrs.replace(/\s(?:width|height|viewBox)="[^"]*"/g, '');
    const viewBox = `${x} ${y} ${(w * width) / exactWidth} ${(h * height) / exactHeight}`;
    return `<svg${rest} width="${width}" height="${height}" viewBox="${viewBox}"${extraRootAttributes}>`;
  });
}

/** resvg at the SVG's own size (white background). */
export function renderSvgResvg(svg: string): RgbaImage {
  const rendered = new Resvg(svg, { background: 'white' }).render();
  return { width: rendered.width, height: rendered.height, data: new Uint8Array(rendered.pixels) };
}

/**
 * Chromium: the SVG as an <img> at its own size (whole CSS pixels, device scale 1) on a white
 * page, screenshotted over `width` × `height`. One tab is reused (a new one costs most of a
 * second); the caller closes it with the browser.
 */
export class ChromiumSvgRenderer {
  private page: Page | undefined;

  constructor(private readonly browser: Browser) {}

  async render(svg: string, width: number, height: number): Promise<RgbaImage> {
    this.page ??= await this.browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = this.page;
    await page.setViewportSize({ width, height });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff"><img id="r" src="${src}" style="display:block"></body></html>`);
    await page.waitForFunction(() => {
      const img = document.getElementById('r') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    });
    return decodePngRgba(await page.screenshot({ clip: { x: 0, y: 0, width, height } }));
  }
}

// ---------------------------------------------------------------------------------------------
// Comparison

export function crop(img: RgbaImage, width: number, height: number): RgbaImage {
  if (width === img.width && height === img.height) return img;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) data.set(img.data.subarray(y * img.width * 4, (y * img.width + width) * 4), y * width * 4);
  return { width, height, data };
}

/**
 * Mean |ΔRGB| (0–255) on white over the area both images cover. Readers may round a fractional
 * page up to the next whole pixel where we round to nearest, so sizes may differ by one pixel;
 * anything more is a wrong size and throws.
 */
export function diffOnCommonArea(ours: RgbaImage, theirs: RgbaImage): number {
  if (Math.abs(ours.width - theirs.width) > 1 || Math.abs(ours.height - theirs.height) > 1) {
    throw new Error(`size mismatch: ours ${ours.width}×${ours.height}, reader ${theirs.width}×${theirs.height}`);
  }
  const w = Math.min(ours.width, theirs.width);
  const h = Math.min(ours.height, theirs.height);
  return meanAbsDiff(crop(ours, w, h), crop(theirs, w, h));
}

/**
 * Share (0–1) of the common area's pixels whose colour on white differs by more than `levels`
 * in some channel: blind to anti-aliasing differences, sensitive to a missing or misplaced shape
 * that the mean dilutes over the whole picture.
 */
export function grossShareOnCommonArea(ours: RgbaImage, theirs: RgbaImage, levels: number): number {
  const w = Math.min(ours.width, theirs.width);
  const h = Math.min(ours.height, theirs.height);
  const onWhite = (img: RgbaImage, x: number, y: number, c: number): number => {
    const o = (y * img.width + x) * 4;
    const a = img.data[o + 3]! / 255;
    return img.data[o + c]! * a + 255 * (1 - a);
  };
  let gross = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < 3; c++) {
        if (Math.abs(onWhite(ours, x, y, c) - onWhite(theirs, x, y, c)) > levels) {
          gross++;
          break;
        }
      }
    }
  }
  return gross / (w * h);
}

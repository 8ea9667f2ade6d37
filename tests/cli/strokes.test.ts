/**
 * tracelab.strokes=centerline through the CLI: the embedded engine writes pen strokes in SVG and
 * DXF (--param), prints their stats with TRACELAB_STATS=1, and the in-process service keeps them
 * with a retained image, so a later download in another format draws the same strokes.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { main } from '../../src/cli/main.js';
import { captureIo } from './capture-io.js';
import { encodePng } from '../helpers/encode.js';
import { drawShape } from '../helpers/raster.js';

let dir: string;
let input: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tracelab-strokes-'));
  input = join(dir, 'lines.png');
  // A 3-px horizontal line and a 3-px ring, black on white.
  const inside = (x: number, y: number): boolean => (Math.abs(y - 20) <= 1.5 && x >= 10 && x <= 70) || Math.abs(Math.hypot(x - 40, y - 55) - 15) <= 1.5;
  writeFileSync(input, encodePng(drawShape(80, 80, [255, 255, 255], [{ color: [0, 0, 0], inside }])));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('tracelab vectorize --param tracelab.strokes=centerline', () => {
  it('SVG: the pen group, two strokes, no fills; TRACELAB_STATS=1 says how many strokes and the pen lengths', async () => {
    vi.stubEnv('TRACELAB_STATS', '1');
    const io = captureIo();
    const out = join(dir, 'lines.svg');
    expect(await main(['vectorize', input, '-o', out, '--param', 'tracelab.strokes=centerline'], io)).toBe(0);
    const svg = readFileSync(out, 'utf8');
    expect(svg).toMatch(/<g id="pen-000000" fill="none" stroke="#000" stroke-width="(2\.9\d|3(\.0\d)?)" stroke-linecap="round" stroke-linejoin="round">/);
    // One width: both strokes in one <path>, one subpath each, in pen order.
    expect(svg.match(/<path /g)).toHaveLength(1);
    expect(/ d="([^"]*)"/.exec(svg)![1]!.match(/m/g)).toHaveLength(2);
    expect(svg).not.toMatch(/fill="#/);
    const stats = JSON.parse(/tracelab-stats (.*)\n/.exec(io.stderr)![1]!) as { strokes: { count: number; penDownPx: number } };
    expect(stats.strokes.count).toBe(2);
    // 57 px of line (60 less the round caps' reach) and a ring of 2π·15 ≈ 94 px.
    expect(stats.strokes.penDownPx).toBeGreaterThan(148);
    expect(stats.strokes.penDownPx).toBeLessThan(156);
  });

  it('DXF: one layer for the colour; a retained image downloads again as PDF with the same strokes', async () => {
    const dxfOut = join(dir, 'lines.dxf');
    expect(await main(['vectorize', input, '-o', dxfOut, '--format', 'dxf', '--param', 'tracelab.strokes=centerline'], captureIo())).toBe(0);
    const dxf = readFileSync(dxfOut, 'utf8');
    expect(dxf).toMatch(/\r\n {2}8\r\npen-000000\r\n/);
    expect(dxf).toContain('LWPOLYLINE');
    vi.stubEnv('VECTORIZER_API_URL', '');
    vi.stubEnv('TRACELAB_DATA_DIR', join(dir, 'in-process'));
    const io = captureIo();
    expect(await main(['vectorize', input, '-o', join(dir, 'kept.svg'), '--mode', 'test', '--retention-days', '1', '--param', 'tracelab.strokes=centerline'], io)).toBe(0);
    const token = /tracelab: image token: (\S+)\n/.exec(io.stderr)?.[1];
    expect(token).toBeDefined();
    const pdfOut = join(dir, 'again.pdf');
    expect(await main(['download', token!, '-o', pdfOut, '--format', 'pdf', '--param', 'output.pdf.compression_mode=None'], captureIo())).toBe(0);
    const pdf = readFileSync(pdfOut, 'latin1');
    // Two stroked paths of width 3 (the page is in points, one per input pixel).
    expect(pdf).toMatch(/\n(2\.9\d*|3(\.0\d*)?) w\n[^]*?S\n/);
    expect(pdf.match(/\nS\n/g)?.length).toBeGreaterThanOrEqual(1);
  });
});

/**
 * What bench/guards.mjs measures: the hostile inputs whose answers the unit tests check (the bombs
 * of tests/fuzz/bombs.ts, the 100000×100000 PNG of tests/decode/decode.test.ts, the 150 kB
 * parameter name of tests/fuzz/params.test.ts), timed and weighed here, where a figure is a report
 * and not a limit. In: nothing. Out: one row per input — its answer (error code or `ok W×H`),
 * milliseconds, and heap + ArrayBuffer growth (or the process's peak RSS for `shrinkPeak`, which
 * the bench runs in a fresh process so the peak is this input's).
 */
import { LocalAccount } from '../../src/api/account.js';
import { createService } from '../../src/api/service.js';
import { createMemoryStore } from '../../src/api/storage/index.js';
import { decodeImage } from '../../src/decode/index.js';
import { TracelabError } from '../../src/engine/errors.js';
import { concat, ihdr, PNG_SIGNATURE, pngChunk } from '../decode/build.js';
import { BOMBS, constantGreyPng, pngDeclaring, zlibBombPng } from './bombs.js';
import { prepareFuzzHost, runOne, type Outcome } from './run-one.js';

export interface GuardFigure {
  readonly name: string;
  readonly bytes: number;
  readonly answer: string;
  readonly ms: number;
  /** Heap + ArrayBuffer growth over the call, MB (in-process rows). */
  readonly grewMb?: number;
  /** Peak RSS of a fresh process that did only this, MB (`shrinkPeak`). */
  readonly peakRssMb?: number;
}

const MB = 2 ** 20;

function answerOf(out: Outcome): string {
  return out.kind === 'error' ? String(out.code) : out.kind === 'ok' ? `ok ${out.width}×${out.height}` : `crash: ${out.message.split('\n')[0]}`;
}

/** Runs `work`, returning its answer, time and heap + ArrayBuffer growth. */
async function weigh(name: string, bytes: number, work: () => Promise<string>): Promise<GuardFigure> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  const t0 = performance.now();
  const answer = await work();
  const ms = performance.now() - t0;
  const after = process.memoryUsage();
  const grewMb = (after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / MB;
  return { name, bytes, answer, ms, grewMb };
}

/** Every in-process row: the header bombs through the whole pipeline, the zlib bomb, the PNG header alone, the long name. */
export async function measureGuards(): Promise<GuardFigure[]> {
  prepareFuzzHost();
  await runOne(pngDeclaring(4, 4)); // warm the code paths so each row sees only its input
  const rows: GuardFigure[] = [];
  const headerOnly = concat(PNG_SIGNATURE, ihdr(100_000, 100_000, 8, 6), pngChunk('IDAT', [0x78, 0x9c, 3, 0, 0, 0, 0, 1]), pngChunk('IEND'));
  rows.push(
    await weigh('PNG IHDR 100000 × 100000, empty IDAT (decode only)', headerOnly.length, async () => {
      try {
        await decodeImage(headerOnly);
        return 'ok';
      } catch (e) {
        return e instanceof TracelabError ? String(e.code) : String(e);
      }
    }),
  );
  for (const [name, make] of BOMBS) {
    const bytes = make();
    rows.push(await weigh(name, bytes.length, async () => answerOf(await runOne(bytes))));
  }
  const zlib = zlibBombPng();
  rows.push(await weigh('PNG 64 × 64 whose IDAT inflates to 48 MB (zlib bomb)', zlib.length, async () => answerOf(await runOne(zlib))));
  const handler = createService({ store: createMemoryStore(), account: new LocalAccount(), credentials: { apiId: 'a', apiSecret: 'b' } });
  for (const endpoint of ['vectorize', 'download']) {
    const form = new FormData();
    form.append('image.token', 'x');
    form.append('9'.repeat(150_000), 'true');
    rows.push(
      await weigh(`150 kB unknown parameter name, /${endpoint}`, 150_000, async () => {
        const res = await handler(new Request(`http://bench.invalid/api/v1/${endpoint}`, { method: 'POST', headers: { Authorization: `Basic ${btoa('a:b')}` }, body: form }));
        return `${res.status}/${(await res.json()).error.code}`;
      }),
    );
  }
  return rows;
}

/** The 5000×5000 constant PNG (25 MP, accepted, shrunk to input.max_pixels): meant for a fresh process. */
export async function shrinkPeak(): Promise<GuardFigure> {
  prepareFuzzHost();
  const png = constantGreyPng(5000, 180);
  const t0 = performance.now();
  const out = await runOne(png);
  const ms = performance.now() - t0;
  return { name: 'PNG 5000 × 5000 of one grey (accepted, shrunk)', bytes: png.length, answer: answerOf(out), ms, peakRssMb: process.resourceUsage().maxRSS / 1024 };
}

/**
 * The library accepts the Tracelab extension options like any API parameter: nested
 * (`{ tracelab: { gradients: true } }`) and dotted (`{ 'tracelab.gradients': true }`) type-check,
 * are validated by the schema (1019 for a bad value) and reach the engine as EngineParams.gradients
 * (the engine's trace functions are wrapped here to record the parameters they get).
 */
import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it, vi } from 'vitest';

import type { EngineParams } from '../../src/engine/types.js';

const seen: EngineParams[] = [];
vi.mock('../../src/engine/index.js', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../src/engine/index.js')>();
  return {
    ...engine,
    traceImage: (...args: Parameters<typeof engine.traceImage>) => {
      seen.push(args[1]);
      return engine.traceImage(...args);
    },
    traceImageWith: (...args: Parameters<typeof engine.traceImageWith>) => {
      seen.push(args[2]);
      return engine.traceImageWith(...args);
    },
  };
});

const { vectorizeHere, vectorizeSync } = await import('../../src/lib/engine.js');
const { decodeImage } = await import('../../src/decode/index.js');
const { optionFields } = await import('../../src/lib/options.js');
type TraceOptions = import('../../src/lib/options.js').TraceOptions;

const png = new Uint8Array(readFileSync(new URL('../../public/samples/shapes.png', import.meta.url)));

describe('library: tracelab.* options', () => {
  beforeEach(() => {
    seen.length = 0;
  });

  it('nested and dotted forms give the same field and reach the engine; default off', async () => {
    const nested: TraceOptions = { tracelab: { gradients: true } };
    const dotted: TraceOptions = { 'tracelab.gradients': true };
    expect(optionFields(nested)).toEqual([['tracelab.gradients', 'true']]);
    expect(optionFields(dotted)).toEqual([['tracelab.gradients', 'true']]);

    await vectorizeHere(png, nested);
    await vectorizeHere(png, dotted);
    await vectorizeHere(png, {});
    expect(seen.map((p) => p.gradients)).toEqual([true, true, false]);

    const { width, height, data } = await decodeImage(png);
    vectorizeSync({ width, height, data }, { tracelab: { gradients: true } });
    expect(seen.at(-1)?.gradients).toBe(true);
  });

  it("tracelab.profile (docs/lineart.md's example): nested and dotted reach the engine, 'auto' by default, and the result says which profile traced it", async () => {
    const forced = await vectorizeHere(png, { tracelab: { profile: 'photo' } });
    await vectorizeHere(png, { 'tracelab.profile': 'photo' });
    const auto = await vectorizeHere(png, {});
    expect(seen.map((p) => p.profile)).toEqual(['photo', 'photo', 'auto']);
    expect(forced.stats.profile).toBe('photo');
    expect(auto.stats.profile).toBe('flat');
    // @ts-expect-error — not a profile name
    await expect(vectorizeHere(png, { tracelab: { profile: 'sketch' } })).rejects.toMatchObject({ code: 1019 });
  });

  it('tracelab.strokes / max_stroke_width: nested and dotted reach the engine, none and 0 (automatic) by default; centerline gives a file of strokes and their stats', async () => {
    const lines = await vectorizeHere(png, { tracelab: { strokes: 'centerline', max_stroke_width: 12 } });
    await vectorizeHere(png, { 'tracelab.strokes': 'centerline' });
    await vectorizeHere(png, {});
    expect(seen.map((p) => [p.strokes, p.maxStrokeWidthPx])).toEqual([['centerline', 12], ['centerline', 0], ['none', 0]]);
    expect(lines.stats.strokes!.count).toBeGreaterThan(0);
    expect(lines.text).toMatch(/<g id="pen-[0-9a-f]{6}" fill="none" stroke="/);
    expect(lines.text).not.toMatch(/ fill="#/);
    // @ts-expect-error — not a stroke mode
    await expect(vectorizeHere(png, { tracelab: { strokes: 'pen' } })).rejects.toMatchObject({ code: 1019 });
  });

  it('a bad value is the schema’s 1019, before any trace', async () => {
    // @ts-expect-error — a string is not a boolean option's type
    await expect(vectorizeHere(png, { tracelab: { gradients: 'yes' } })).rejects.toMatchObject({
      code: 1019,
      message: expect.stringContaining('tracelab.gradients must be true or false'),
    });
    // @ts-expect-error — a misspelt extension name is a type error too
    await expect(vectorizeHere(png, { tracelab: { gradient: true } })).rejects.toMatchObject({ code: 1019, message: expect.stringContaining('did you mean tracelab.gradients?') });
    expect(seen).toEqual([]);
  });
});

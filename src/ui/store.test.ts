import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { TracelabError } from '../engine/errors.js';
import type { VectorizeResult } from '../worker/protocol.js';
import { DEFAULT_OPTIONS } from '../api/index.js';
import { createTracelabStore, fieldsFor, optionSpec, PANEL_OPTIONS, resultHint, showsDraft, statusText, validateOption } from './store.js';
import { connectTracer, type Tracer } from './tracing.js';

const RESULT: VectorizeResult = {
  svg: '<?xml version="1.0"?><svg/>',
  svgBytes: new TextEncoder().encode('<?xml version="1.0"?><svg/>'),
  previewPng: null,
  stats: { profile: 'flat', colors: 2, regions: 2, shapes: 2, bytes: 27, nodes: 8, palette: [{ hex: '#FF0000', areaPx: 8, shapes: 1 }, { hex: '#0000FF', areaPx: 8, shapes: 1 }] },
  width: 4,
  height: 4,
  ms: 1,
};

function source(name = 'a.png') {
  return { name, bytes: new Uint8Array([1, 2, 3]), size: 3, type: 'image/png' };
}

function abortError(): Error {
  const abort = new Error('cancelled');
  abort.name = 'AbortError';
  return abort;
}

/**
 * A tracer whose calls stay pending until the test settles them. Like the real client, abort()
 * and a newer request reject the older call with an AbortError — unless `abortsOlder` is false:
 * then an older call can still answer late (its trace finished as the newer one was sent), which
 * the store must drop.
 */
function fakeTracer({ abortsOlder = true } = {}) {
  const calls: { bytes: Uint8Array; fields: [string, string][]; resolve(r: VectorizeResult): void; reject(e: unknown): void }[] = [];
  const tracer: Tracer & { aborts: number; disposed: boolean } = {
    aborts: 0,
    disposed: false,
    vectorize(bytes, fields) {
      const previous = calls.at(-1);
      if (previous && abortsOlder) previous.reject(abortError());
      return new Promise((resolve, reject) => calls.push({ bytes, fields, resolve, reject }));
    },
    abort() {
      this.aborts++;
      calls.at(-1)?.reject(abortError());
    },
    dispose() {
      this.disposed = true;
    },
  };
  return { tracer, calls };
}

describe('options from the schema', () => {
  it('covers every processing/input/output parameter; defaults and ranges come from OPTION_SCHEMA', () => {
    const names = PANEL_OPTIONS.map((o) => o.name);
    expect(names).toContain('processing.max_colors');
    expect(names).toContain('output.size.width');
    expect(names).toContain('processing.parameterizedShapes.star.N5.enabled');
    expect(names).not.toContain('mode');
    expect(createTracelabStore().getState().options).toEqual(DEFAULT_OPTIONS);
    const maxColors = optionSpec('processing.max_colors');
    expect(maxColors.kind === 'int' && [maxColors.min, maxColors.max]).toEqual([0, 256]);
  });

  it('validates with the API messages and keeps invalid text beside the field', () => {
    expect(validateOption('processing.max_colors', '8')).toBeUndefined();
    expect(validateOption('processing.max_colors', '2.5')).toMatch(/processing\.max_colors must be an integer in 0…256/);
    const store = createTracelabStore();
    expect(() => store.getState().setOption('processing.max_colors', 300)).toThrow(TracelabError);
    expect(store.getState().setOptionText('processing.shapes.min_area_px', '101')).toBe(false);
    expect(store.getState().optionErrors['processing.shapes.min_area_px']).toMatchObject({ text: '101', message: expect.stringMatching(/0…100/) });
    expect(store.getState().options['processing.shapes.min_area_px']).toBe(0.125);
    expect(store.getState().setOptionText('processing.shapes.min_area_px', '4')).toBe(true);
    expect(store.getState().optionErrors).toEqual({});
    expect(store.getState().setOptionText('output.size.width', '120')).toBe(true);
    expect(store.getState().setOptionText('output.size.width', '')).toBe(true);
    expect(store.getState().options['output.size.width']).toBeUndefined();
    // An empty number field is the default, not an error (issue 29 item 7).
    expect(store.getState().setOptionText('processing.max_colors', '8')).toBe(true);
    expect(store.getState().setOptionText('processing.max_colors', '')).toBe(true);
    expect(store.getState().options['processing.max_colors']).toBe(0);
    expect(store.getState().setOptionText('processing.shapes.min_area_px', ' ')).toBe(true);
    expect(store.getState().options['processing.shapes.min_area_px']).toBe(0.125);
    expect(store.getState().optionErrors).toEqual({});
  });

  it('applies option sets (presets, share links) atomically and sends only non-default fields', () => {
    const store = createTracelabStore({ 'processing.max_colors': '6' });
    expect(store.getState().options['processing.max_colors']).toBe(6);
    expect(() => store.getState().applyOptions({ 'processing.max_colors': '3', 'output.group_by': 'nope' })).toThrow(TracelabError);
    expect(store.getState().options['processing.max_colors']).toBe(6);
    store.getState().applyOptions({ 'output.gap_filler.enabled': 'false' }, 'defaults');
    expect(fieldsFor(store.getState().options)).toEqual([['output.gap_filler.enabled', 'false']]);
    store.getState().resetOptions();
    expect(fieldsFor(store.getState().options)).toEqual([]);
  });

  it('a page size of 0 (output.size.scale, width, height) is refused beside its field, like a value out of range (issue 29 item 3)', () => {
    const store = createTracelabStore();
    expect(store.getState().setOptionText('output.size.scale', '2')).toBe(true);
    expect(store.getState().setOptionText('output.size.scale', '0')).toBe(false);
    expect(store.getState().optionErrors['output.size.scale']).toEqual({ text: '0', message: 'output.size.scale must be greater than 0 (a page needs a size); received 0.' });
    // The options the tracer sees keep the last valid value: nothing is traced with 0.
    expect(store.getState().options['output.size.scale']).toBe(2);
    for (const name of ['output.size.width', 'output.size.height']) {
      expect(validateOption(name, '0')).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')} must be greater than 0`));
      expect(validateOption(name, '0.5')).toBeUndefined();
    }
    // Share links and other option sets are refused the same way (code 1019), nothing changes.
    expect(() => store.getState().applyOptions({ 'output.size.width': '0' })).toThrow(expect.objectContaining({ code: 1019 }));
    expect(store.getState().options['output.size.width']).toBeUndefined();
  });
});

describe('a new input', () => {
  it('takes the old picture and result off the screen at once and says an image is loading (issue 29 item 7)', () => {
    const store = createTracelabStore();
    store.getState().setSource(source('old.png'));
    const oldTrace = store.getState().startJob();
    store.getState().finishJob(oldTrace, RESULT);
    expect(statusText(store.getState().job, true)).toBe('Done');

    const ticket = store.getState().startInput();
    expect(store.getState().source).toBeNull();
    expect(store.getState().job).toMatchObject({ status: 'loading', svg: null, stats: null });
    expect(statusText(store.getState().job, false)).toBe('Loading the image…');
    // The old picture's answer, arriving late, does not come back.
    store.getState().finishJob(oldTrace, RESULT);
    expect(store.getState().job.svg).toBeNull();

    store.getState().setSource(source('new.png'), ticket);
    expect(store.getState().source?.name).toBe('new.png');
  });

  it('the later choice wins over a slower earlier one, loaded or failed', () => {
    const store = createTracelabStore();
    const first = store.getState().startInput();
    const second = store.getState().startInput();
    store.getState().setSource(source('second.png'), second);
    store.getState().setSource(source('first.png'), first);
    store.getState().reportError({ code: 1022, message: 'the first URL failed late' }, first);
    expect(store.getState().source?.name).toBe('second.png');
    expect(store.getState().job.error).toBeNull();
  });
});

describe('status text', () => {
  it('announces tracing, done and errors with the API code', () => {
    const store = createTracelabStore();
    const s = store.getState();
    expect(statusText(s.job, false)).toBe('Choose an image to trace.');
    const id = s.startJob();
    expect(statusText(store.getState().job, true)).toBe('Tracing…');
    store.getState().setProgress(id, { step: 'fit', fraction: 0.8 });
    expect(store.getState().job.progress).toEqual({ step: 'fit', fraction: 0.8 });
    store.getState().setProgress(id + 1, { step: 'shapes', fraction: 0.9 }); // another trace: ignored
    expect(store.getState().job.progress?.step).toBe('fit');
    // A large image's draft stays shown through the later reports, outside `progress`.
    const draft = { png: new Uint8Array([1, 2, 3]), width: 40, height: 30 };
    store.getState().setProgress(id, { step: 'draft', fraction: 0.85, draft });
    store.getState().setProgress(id, { step: 'shapes', fraction: 0.9 });
    expect(store.getState().job.draft).toBe(draft);
    expect(store.getState().job.progress).toEqual({ step: 'shapes', fraction: 0.9 });
    store.getState().failJob(id, { code: 1006, message: 'Failed to read the supplied image: corrupt' });
    expect(statusText(store.getState().job, true)).toBe('Error 1006: Failed to read the supplied image: corrupt');
    expect(store.getState().job.draft).toBeNull();
  });

  it("a draft belongs to its trace: a new trace or the result clears it", () => {
    const store = createTracelabStore();
    const draft = { png: new Uint8Array([1]), width: 4, height: 3 };
    const first = store.getState().startJob();
    store.getState().setProgress(first, { step: 'draft', fraction: 0.1, draft });
    expect(store.getState().job.draft).toBe(draft);
    const second = store.getState().startJob();
    expect(store.getState().job.draft).toBeNull();
    store.getState().setProgress(first, { step: 'draft', fraction: 0.1, draft }); // the old trace's: ignored
    expect(store.getState().job.draft).toBeNull();
    store.getState().setProgress(second, { step: 'draft', fraction: 0.1, draft });
    const stats = { profile: 'flat' as const, colors: 1, regions: 1, shapes: 1, bytes: 10, nodes: 4, palette: [] };
    store.getState().finishJob(second, { svg: '<svg/>', previewPng: null, stats, ms: 1, width: 10, height: 10 });
    expect(store.getState().job.draft).toBeNull();
  });

  it("a draft is shown for a picture's first trace only: a re-trace keeps the result on screen (issue 41 item 5)", () => {
    const store = createTracelabStore();
    const draft = { png: new Uint8Array([1]), width: 4, height: 3 };
    const stats = { profile: 'flat' as const, colors: 1, regions: 1, shapes: 1, bytes: 10, nodes: 4, palette: [] };
    store.getState().setSource({ name: 'big.png', bytes: new Uint8Array([1]), size: 1, type: 'image/png' });
    const first = store.getState().startJob();
    store.getState().setProgress(first, { step: 'draft', fraction: 0.1, draft });
    expect(showsDraft(store.getState().job)).toBe(true);
    store.getState().finishJob(first, { svg: '<svg/>', previewPng: null, stats, ms: 1, width: 10, height: 10 });
    expect(showsDraft(store.getState().job)).toBe(false);
    // An option change: the re-trace's draft arrives, the finished result stays the one shown.
    const second = store.getState().startJob();
    store.getState().setProgress(second, { step: 'draft', fraction: 0.1, draft });
    expect(store.getState().job.svg).toBe('<svg/>');
    expect(showsDraft(store.getState().job)).toBe(false);
    // A new picture: its first trace shows its draft again.
    store.getState().setSource({ name: 'other.png', bytes: new Uint8Array([2]), size: 1, type: 'image/png' });
    const third = store.getState().startJob();
    store.getState().setProgress(third, { step: 'draft', fraction: 0.1, draft });
    expect(showsDraft(store.getState().job)).toBe(true);
  });

  it('a one-colour result says why (Line art palette on a light colour picture, issue 17)', () => {
    const store = createTracelabStore();
    const finish = (hexes: string[]) => {
      const id = store.getState().startJob();
      const palette = hexes.map((hex) => ({ hex, areaPx: 100, shapes: 1 }));
      const stats = { profile: 'flat' as const, colors: hexes.length, regions: hexes.length, shapes: hexes.length, bytes: 10, nodes: 4, palette };
      store.getState().finishJob(id, { svg: '<svg/>', previewPng: null, stats, ms: 1, width: 10, height: 10 });
      return resultHint(store.getState().job, store.getState().options);
    };
    expect(finish(['#FFFFFF', '#000000'])).toBeNull();
    expect(finish(['#FFFFFF'])).toMatch(/single colour, #FFFFFF/);
    store.getState().applyOptions({ 'processing.max_colors': '2', 'processing.palette': '#000000; #FFFFFF;' }, 'defaults');
    const hint = finish(['#FFFFFF']);
    expect(hint).toMatch(/processing\.palette maps each colour/);
    expect(hint).toMatch(/processing\.max_colors=2/);
    expect(hint).toMatch(/Line art/);
  });
});

describe('connectTracer', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('traces a new source at once and a typed option after the debounce', async () => {
    const store = createTracelabStore();
    const { tracer, calls } = fakeTracer();
    const disconnect = connectTracer(store, tracer, { debounceMs: 150 });

    store.getState().setSource(source());
    expect(calls).toHaveLength(1);
    expect(store.getState().job.status).toBe('running');
    expect(calls[0]!.bytes).not.toBe(store.getState().source!.bytes); // a copy is transferred
    calls[0]!.resolve(RESULT);
    await vi.runAllTimersAsync();
    expect(store.getState().job).toMatchObject({ status: 'done', svg: RESULT.svg, svgBytes: RESULT.svgBytes, ms: 1, resultId: 1 });

    store.getState().setOptionText('processing.max_colors', '3');
    store.getState().setOptionText('processing.max_colors', '4');
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(149);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.fields).toEqual([['processing.max_colors', '4']]);
    // The previous result stays on screen while the re-trace runs.
    expect(store.getState().job).toMatchObject({ status: 'running', svg: RESULT.svg, resultId: 1 });

    disconnect();
    expect(tracer.disposed).toBe(true);
  });

  it('a settled change (checkbox, list, preset) is traced at once and cancels a pending typed one', async () => {
    const store = createTracelabStore();
    const { tracer, calls } = fakeTracer();
    connectTracer(store, tracer, { debounceMs: 150 });
    store.getState().setSource(source());
    calls[0]!.resolve(RESULT);
    await vi.runAllTimersAsync();

    store.getState().setOptionText('processing.max_colors', '5'); // typing: waits
    store.getState().setOptionText('output.gap_filler.enabled', 'false', 'settled');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.fields).toEqual([
      ['processing.max_colors', '5'],
      ['output.gap_filler.enabled', 'false'],
    ]);
    await vi.advanceTimersByTimeAsync(500);
    expect(calls).toHaveLength(2); // the typed change went with it: no second trace

    store.getState().setOption('processing.max_colors', 6);
    expect(calls).toHaveLength(3);
    store.getState().resetOptions();
    expect(calls).toHaveLength(4);
    expect(calls[3]!.fields).toEqual([]);
  });

  it('an aborted trace is no error; a superseded trace answering late is dropped; errors keep their code', async () => {
    // Aborted: the image is removed while it is traced; its call rejects with AbortError, which is
    // not shown as an error (the job is the current one: only the abort check keeps it quiet).
    const aborting = fakeTracer();
    const first = createTracelabStore();
    connectTracer(first, aborting.tracer);
    first.getState().setSource(source('slow.png'));
    first.getState().setSource(null);
    expect(aborting.tracer.aborts).toBe(1);
    await vi.runAllTimersAsync();
    expect(first.getState().job).toMatchObject({ status: 'idle', error: null });

    // Superseded but answered: the older call resolves after the newer one started.
    const store = createTracelabStore();
    const { tracer, calls } = fakeTracer({ abortsOlder: false });
    connectTracer(store, tracer);
    store.getState().setSource(source('slow.png'));
    store.getState().setSource(source('fast.png'));
    expect(calls).toHaveLength(2);
    calls[0]!.resolve({ ...RESULT, svg: 'late' });
    await vi.runAllTimersAsync();
    expect(store.getState().job).toMatchObject({ status: 'running', svg: null });

    calls[1]!.reject(new TracelabError(1006, 400, 'Failed to read the supplied image: unknown format'));
    await vi.runAllTimersAsync();
    expect(store.getState().job).toMatchObject({
      status: 'error',
      error: { code: 1006, message: 'Failed to read the supplied image: unknown format' },
      svg: null,
    });
  });

  it('a stale answer for an older job id is dropped', () => {
    const store = createTracelabStore();
    const first = store.getState().startJob();
    const second = store.getState().startJob();
    store.getState().finishJob(first, RESULT);
    expect(store.getState().job.status).toBe('running');
    store.getState().finishJob(second, RESULT);
    expect(store.getState().job.status).toBe('done');
  });
});

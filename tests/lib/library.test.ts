/**
 * The library's platform-neutral layer (src/lib): options (nested / dotted → API fields, the
 * schema's 1019 messages), inputs (bytes, ArrayBuffer, Blob, pixels), the stats, and the engine
 * entry (vectorizeSync / vectorizeHere) against the CLI's pipeline — all on this thread. The
 * thread pools and the packed tarball are checked by scripts/test-package.mjs.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runVectorize, planVectorize } from '../../src/api/pipeline.js';
import { decodeImage } from '../../src/decode/index.js';
import { optionFields } from '../../src/lib/options.js';
import { libOptionTypesSource } from '../../src/lib/options-source.js';
import { traceSync, vectorizeHere, vectorizeSync } from '../../src/lib/engine.js';
import { writeTrace } from '../../src/lib/formats.js';
import { lazyTracer, toResult, type TraceStats } from '../../src/lib/tracer.js';
import type { TraceOptions } from '../../src/lib/options.js';
import { readImageFile } from '../../src/lib/node.js';
import { vectorizeHere as vectorizeHereNode } from '../../src/lib/engine-node.js';
import { runTraceJobHere } from '../../src/api/service-trace.js';
import { countFilledPaths } from '../helpers/svg-count.js';

const png = new Uint8Array(readFileSync(new URL('../../public/samples/shapes.png', import.meta.url)));

describe('library options', () => {
  it('nested and dotted names give the same API fields (booleans and numbers as their text)', () => {
    expect(optionFields({ output: { file_format: 'pdf', size: { scale: 2 }, svg: { fixed_size: true } } })).toEqual([
      ['output.file_format', 'pdf'],
      ['output.size.scale', '2'],
      ['output.svg.fixed_size', 'true'],
    ]);
    expect(optionFields({ 'output.file_format': 'pdf', processing: { 'parameterizedShapes.star.N5.enabled': false } })).toEqual([
      ['output.file_format', 'pdf'],
      ['processing.parameterizedShapes.star.N5.enabled', 'false'],
    ]);
    expect(optionFields({ signal: new AbortController().signal, onProgress: () => undefined })).toEqual([]);
  });

  it('bad names and values fail with the schema’s 1019 messages', () => {
    const check = (options: object, text: string): void => {
      expect(() => planVectorize(optionFields(options))).toThrow(expect.objectContaining({ code: 1019, message: expect.stringContaining(text) }));
    };
    check({ output: { fil_format: 'svg' } }, 'did you mean output.file_format?');
    check({ 'processing.max_colors': 300 }, 'processing.max_colors must be an integer in 0…256; received \'300\'');
    check({ output: { file_format: 'SVG' } }, 'did you mean svg?');
    check({ output: { file_format: 'svg' }, 'output.file_format': 'pdf' }, 'given more than once');
    check({ 'output.size.scale': [2] }, 'output.size.scale must be number 0…1,000; received an array');
    check({ 'image.url': 'https://example.com/a.png' }, "pass the image as vectorize's first argument");
  });

  it('src/api/options.generated.ts is the schema’s (node scripts/lib-options.mjs)', () => {
    expect(readFileSync(new URL('../../src/api/options.generated.ts', import.meta.url), 'utf8')).toBe(libOptionTypesSource());
  });
});

describe('library engine entry', () => {
  it('every format is byte-identical to the CLI pipeline; stats count what the playground counts', async () => {
    for (const format of ['svg', 'pdf', 'eps', 'dxf', 'png'] as const) {
      const fields: [string, string][] = [['output.file_format', format]];
      const cli = await runVectorize(planVectorize(fields), png);
      const lib = await vectorizeHere(png, { output: { file_format: format } });
      expect(Buffer.from(lib.data).equals(Buffer.from(cli.body)), format).toBe(true);
      expect(lib.mimeType).toBe(cli.contentType);
      expect(lib.stats).toMatchObject({ profile: cli.result.stats.profile, colors: cli.result.stats.colors, width: 128, height: 128 });
      if (format === 'svg') expect(lib.stats.shapes).toBe(countFilledPaths(new TextDecoder().decode(lib.data)));
    }
  });

  it('pixels, ArrayBuffer and Blob inputs give the bytes of the file input; vectorizeSync too', async () => {
    const decoded = await decodeImage(png);
    const pixels = { data: decoded.data, width: decoded.width, height: decoded.height, ...(decoded.dpi ? { dpi: decoded.dpi.x } : {}) };
    const fromFile = await vectorizeHere(png, { 'output.file_format': 'svg' });
    const same = (a: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(fromFile.data));
    expect(same((await vectorizeHere(pixels)).data)).toBe(true);
    expect(same((await vectorizeHere(png.slice().buffer)).data)).toBe(true);
    expect(same((await vectorizeHere(new Blob([png]))).data)).toBe(true);
    expect(same(vectorizeSync(pixels).data)).toBe(true);
    expect(vectorizeSync(pixels, { output: { file_format: 'dxf' } }).mimeType).toBe('application/dxf');
    expect(() => vectorizeSync(pixels, { output: { file_format: 'pdf' } })).toThrow(expect.objectContaining({ code: 1019 }));
    await expect(vectorizeHere({ data: new Uint8Array(5), width: 2, height: 2 })).rejects.toMatchObject({ code: 1006 });
    await expect(vectorizeHere(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ code: 1006 });
  });

  it('reports progress in order, ending with write at 1; an aborted signal rejects before any work', async () => {
    const steps: string[] = [];
    await vectorizeHere(png, { onProgress: (p) => steps.push(`${p.stage}:${p.fraction.toFixed(1)}`) });
    expect(steps[0]).toBe('decode:0.0');
    expect(steps.at(-1)).toBe('write:1.0');
    expect(steps).toContain('fit:0.8');
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(vectorizeHere(png, { signal: controller.signal })).rejects.toThrow('stop');
  });
});

describe('library results: text', () => {
  // The Node and browser `vectorize` / `createTracer` are this tracer over their thread pools
  // (the packed builds are run by scripts/test-package.mjs).
  const tracer = lazyTracer(1, () => ({ run: runTraceJobHere, close: () => undefined }));
  const decode = (data: Uint8Array): string => new TextDecoder().decode(data);

  it('SVG, EPS and DXF come with their text (the bytes as UTF-8); PDF and PNG without', async () => {
    const decoded = await decodeImage(png);
    const pixels = { data: decoded.data, width: decoded.width, height: decoded.height };
    for (const format of ['svg', 'eps', 'dxf', 'pdf', 'png'] as const) {
      const options = { output: { file_format: format } };
      const results = [await tracer.vectorize(png, options), await vectorizeHere(png, options), await writeTrace(traceSync(pixels), options)];
      if (format !== 'pdf') results.push(vectorizeSync(pixels, options));
      for (const [i, result] of results.entries()) {
        if (format === 'pdf' || format === 'png') {
          expect(result.text, `${format} #${i}`).toBeUndefined();
          expect('text' in result, `${format} #${i}`).toBe(false);
        } else {
          expect(typeof result.text, `${format} #${i}`).toBe('string');
          expect(result.text, `${format} #${i}`).toBe(decode(result.data));
        }
      }
    }
    expect((await tracer.vectorize(png)).text).toMatch(/^<\?xml|^<svg/);
  });

  it('data is a Uint8Array over an ArrayBuffer (a BlobPart under the DOM lib, type-checked by npm run typecheck)', async () => {
    const decoded = await decodeImage(png);
    const px = { data: decoded.data, width: decoded.width, height: decoded.height };
    // A caller's SharedArrayBuffer-backed input still gives an ArrayBuffer-backed result.
    const shared = new Uint8Array(new SharedArrayBuffer(png.length));
    shared.set(png);
    for (const format of ['svg', 'eps', 'dxf', 'pdf', 'png'] as const) {
      const options = { output: { file_format: format } };
      const files = [await tracer.vectorize(shared, options), await vectorizeHere(png, options), await writeTrace(traceSync(px), options)];
      if (format !== 'pdf') files.push(vectorizeSync(px, options));
      for (const file of files) {
        const buffer: ArrayBuffer = file.data.buffer;
        expect(Object.prototype.toString.call(buffer), format).toBe('[object ArrayBuffer]');
        const blob = new Blob([file.data], { type: file.mimeType });
        expect(blob.size, format).toBe(file.data.byteLength);
      }
    }
  });

  it('a result over a SharedArrayBuffer is copied to an ArrayBuffer (bytes and text unchanged)', () => {
    const bytes = new Uint8Array(new SharedArrayBuffer(5));
    bytes.set(new TextEncoder().encode('<svg>'));
    const stats = { profile: 'flat', colors: 1, shapes: 0, nodes: 0, regions: 0, width: 1, height: 1 } as unknown as TraceStats;
    const result = toResult(bytes, 'image/svg+xml', 'svg', stats);
    expect(Object.prototype.toString.call(result.data.buffer)).toBe('[object ArrayBuffer]');
    expect([...result.data]).toEqual([...bytes]);
    expect(result.text).toBe('<svg>');
    const plain = new Uint8Array([1, 2]);
    expect(toResult(plain, 'image/png', 'png', stats).data).toBe(plain); // no copy when there is no need
  });
});

describe('library input: a file path (Node only)', () => {
  const sample = new URL('../../public/samples/shapes.png', import.meta.url);
  const samplePath = fileURLToPath(sample);
  // `vectorize` / `createTracer` in Node are this tracer with readImageFile (src/lib/node.ts);
  // in a browser (src/lib/browser.ts) the tracer has no path reader.
  const nodeTracer = lazyTracer(1, () => ({ run: runTraceJobHere, close: () => undefined }), readImageFile);
  const browserTracer = lazyTracer(1, () => ({ run: runTraceJobHere, close: () => undefined }));

  it('Node: a path or a file: URL gives the bytes of the file input', async () => {
    const fromBytes = await vectorizeHere(png);
    for (const input of [samplePath, sample, relative(process.cwd(), samplePath)]) {
      expect(Buffer.from((await nodeTracer.vectorize(input)).data).equals(Buffer.from(fromBytes.data)), String(input)).toBe(true);
      expect(Buffer.from((await vectorizeHereNode(input)).data).equals(Buffer.from(fromBytes.data)), String(input)).toBe(true);
    }
  });

  it('Node: a missing file is an Error naming it (as the CLI says it; code ENOENT); bad options still fail first', async () => {
    const missing = join(tmpdir(), 'tracelab-no-such-file.png');
    for (const call of [() => nodeTracer.vectorize(missing), () => nodeTracer.vectorize(pathToFileURL(missing)), () => vectorizeHereNode(missing)]) {
      await expect(call()).rejects.toMatchObject({ message: `cannot read image file '${missing}': no such file`, code: 'ENOENT', path: missing });
    }
    await expect(nodeTracer.vectorize(tmpdir())).rejects.toMatchObject({ message: expect.stringContaining(`cannot read image file '${tmpdir()}'`), code: 'EISDIR' });
    await expect(nodeTracer.vectorize(new URL('https://example.com/a.png'))).rejects.toThrow("only file: URLs are read");
    await expect(nodeTracer.vectorize(missing, { 'output.file_format': 'gif' } as unknown as TraceOptions)).rejects.toMatchObject({ code: 1019 });
    // A file that is not an image: the API's 1006, as for bytes.
    await expect(nodeTracer.vectorize(fileURLToPath(import.meta.url))).rejects.toMatchObject({ code: 1006 });
  });

  it('browser: a path or URL is refused with a clear 1006 (pass the bytes)', async () => {
    for (const input of [samplePath, sample]) {
      await expect(browserTracer.vectorize(input)).rejects.toMatchObject({
        code: 1006,
        message: expect.stringContaining('is read only in Node; in a browser pass the image itself'),
      });
    }
  });
});


describe('issue 41: library edge cases get coded errors', () => {
  const tracer = (): ReturnType<typeof lazyTracer> => lazyTracer(1, () => ({ run: runTraceJobHere, close: () => undefined }), readImageFile);

  it('options null, signal 42, onProgress "x": 400 / 1019 naming what was received (not a TypeError), before any work', async () => {
    const t = tracer();
    const cases: [unknown, string][] = [
      [null, 'options must be an object of API parameters (or left out); received null'],
      [42, 'options must be an object of API parameters (or left out); received a number (42)'],
      [{ signal: 42 }, 'signal must be an AbortSignal (e.g. AbortSignal.timeout(ms) or an AbortController\'s signal); received a number (42)'],
      [{ signal: {} }, 'signal must be an AbortSignal'],
      [{ onProgress: 'x' }, 'onProgress must be a function (progress) => void; received a string'],
    ];
    for (const [options, message] of cases) {
      for (const call of [() => t.vectorize(png, options as TraceOptions), () => vectorizeHere(png, options as TraceOptions)]) {
        const e = await call().then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(e, JSON.stringify(options)).toMatchObject({ name: 'TracelabError', status: 400, code: 1019, message: expect.stringContaining(message) });
      }
    }
    expect(() => vectorizeSync({ data: new Uint8Array(4), width: 1, height: 1 }, null as unknown as TraceOptions)).toThrow(expect.objectContaining({ code: 1019 }));
    // Left out, or an empty object, is fine.
    expect((await t.vectorize(png)).extension).toBe('svg');
    expect((await t.vectorize(png, {})).extension).toBe('svg');
  });

  it("a 'file:///…' string is read as a file URL (same bytes as the path); a malformed one is refused naming it", async () => {
    const sample = new URL('../../public/samples/shapes.png', import.meta.url);
    const t = tracer();
    const fromPath = await t.vectorize(fileURLToPath(sample));
    const fromString = await t.vectorize(sample.href);
    expect(sample.href.startsWith('file:///')).toBe(true);
    expect(Buffer.from(fromString.data).equals(Buffer.from(fromPath.data))).toBe(true);
    await expect(t.vectorize('file://remote-host/a.png')).rejects.toThrow("cannot read image file 'file://remote-host/a.png'");
    const missing = pathToFileURL(join(tmpdir(), 'tracelab-no-such-file.png')).href;
    await expect(t.vectorize(missing)).rejects.toMatchObject({ code: 'ENOENT', message: `cannot read image file '${fileURLToPath(missing)}': no such file` });
  });

  it('a closed tracer rejects with TracelabError −30 (tracerClosed), also for a call close() cut short', async () => {
    const t = tracer();
    await t.close();
    const e = await t.vectorize(png).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toMatchObject({ name: 'TracelabError', code: -30, status: 503, message: 'This tracer is closed (close() was called); create another one with createTracer().' });
    // A call waiting in the pool when close() comes rejects with the same code.
    let release = (): void => undefined;
    let started = (): void => undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    const run = (): Promise<never> =>
      new Promise<never>((_, reject) => {
        release = () => reject(new Error('the trace pool was closed'));
        started();
      });
    const waiting = lazyTracer(1, () => ({ run, close: () => release() }));
    const pending = waiting.vectorize(png).then(
      () => undefined,
      (err: unknown) => err,
    );
    await running;
    await waiting.close();
    expect(await pending).toMatchObject({ name: 'TracelabError', code: -30 });
  });

  it("mode 'test' / 'preview' and policy.retention_days > 0 are refused (1019: the library has no account and keeps nothing); production and 0 are accepted", async () => {
    for (const options of [{ mode: 'test' }, { mode: 'preview' }, { mode: 'test_preview' }, { policy: { retention_days: 2 } }] as TraceOptions[]) {
      await expect(vectorizeHere(png, options), JSON.stringify(options)).rejects.toMatchObject({ code: 1019, message: expect.stringContaining('the library') });
    }
    await expect(vectorizeHere(png, { mode: 'test' })).rejects.toThrow('mode=test is a billing tier of the HTTP API');
    const plain = await vectorizeHere(png);
    const production = await vectorizeHere(png, { mode: 'production', 'policy.retention_days': 0 });
    expect(Buffer.from(production.data).equals(Buffer.from(plain.data))).toBe(true);
  });
});

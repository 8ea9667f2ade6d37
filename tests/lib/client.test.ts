/**
 * `tracelab/client` takes the API parameters as `vectorize()` of `tracelab` does — nested or
 * dotted, typed per option from the schema (src/api/options.generated.ts) — and a bad value is the
 * library's own TracelabError 400 / 1019, with vectorize()'s message, before any request. Against
 * a local service: the handler of `tracelab/handler` in node:http, which counts the requests.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiClient, type DownloadFields, type Fields } from '../../src/lib/client.js';
import { createHandler, toNodeListener, type TracelabHandler } from '../../src/lib/handler.js';
import { vectorizeHere, TracelabError } from '../../src/lib/engine.js';

const png = new Uint8Array(readFileSync(new URL('../../public/samples/shapes.png', import.meta.url)));
const credentials = { apiId: 'id', apiSecret: 'secret' };

let handler: TracelabHandler;
let server: Server;
let client: ApiClient;
/** Requests that reached the service. */
const seen: string[] = [];

beforeAll(async () => {
  handler = createHandler({ credentials, threads: 0 });
  const listener = toNodeListener(handler);
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    listener(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = createClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`, ...credentials });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await handler.close();
});

describe('tracelab/client options', () => {
  it('nested options are the dotted ones (vectorize and download), the file the library’s', async () => {
    const nested = await client.vectorize({ image: png }, { output: { file_format: 'pdf', size: { scale: 2 } } });
    const dotted = await client.vectorize({ image: png }, { 'output.file_format': 'pdf', 'output.size.scale': 2 });
    expect(nested.contentType).toBe('application/pdf');
    const blob = new Blob([nested.body], { type: nested.contentType }); // a BlobPart under the DOM lib
    expect(blob.size).toBe(nested.body.byteLength);
    const library = await vectorizeHere(png, { output: { file_format: 'pdf', size: { scale: 2 } } });
    expect(Buffer.from(nested.body).equals(Buffer.from(dotted.body))).toBe(true);
    expect(Buffer.from(nested.body).equals(Buffer.from(library.data))).toBe(true);
    // Mixed, as in vectorize().
    const mixed = await client.vectorize({ image: png }, { mode: 'test', processing: { max_colors: 4 }, 'output.svg.fixed_size': true });
    const plain = await client.vectorize({ image: png }, { mode: 'test', 'processing.max_colors': 4, 'output.svg.fixed_size': true });
    expect(mixed.body).toEqual(plain.body);
    const kept = await client.vectorize({ image: png }, { mode: 'test', policy: { retention_days: 1 } });
    expect(kept.imageToken).toBeTruthy();
    const dxf = await client.download(kept.imageToken!, { output: { file_format: 'dxf' } });
    expect(dxf.contentType).toBe('application/dxf');
  });

  it('a bad value is TracelabError 1019 with vectorize()’s message, and no request is made', async () => {
    const cases: object[] = [
      { output: { file_format: 'gif' } },
      { processing: { max_colors: 300 } },
      { output: { fil_format: 'svg' } },
      { 'output.size.scale': [2] },
      { output: { size: { scale: null } } },
      { output: { file_format: 'svg' }, 'output.file_format': 'pdf' },
      { 'processing.max_colors': Number.NaN },
    ];
    const before = seen.length;
    for (const options of cases) {
      const fromLibrary = await vectorizeHere(png, options).catch((e: unknown) => e);
      const fromClient = await client.vectorize({ image: png }, options as Fields).catch((e: unknown) => e);
      expect(fromLibrary, JSON.stringify(options)).toBeInstanceOf(TracelabError);
      expect(fromClient, JSON.stringify(options)).toBeInstanceOf(TracelabError);
      expect(fromClient).toMatchObject({ status: 400, code: 1019 });
      if (!Number.isNaN((options as Record<string, unknown>)['processing.max_colors'])) {
        expect((fromClient as Error).message, JSON.stringify(options)).toBe((fromLibrary as Error).message);
      }
    }
    await expect(client.download('api-test-token', { output: { size: { scale: 0 } } })).rejects.toMatchObject({ code: 1019, message: expect.stringContaining('output.size.scale') });
    // Raw pairs reach the run-time check (the typed form does not compile: see the issue 41 test below).
    await expect(client.download('api-test-token', [['processing.max_colors', 3]])).rejects.toMatchObject({ code: 1019 });
    expect(seen.slice(before)).toEqual([]);
  });

  it('for the real service only the schema is checked locally (its documentation lists no combination rules)', async () => {
    const sent: string[][] = [];
    const real = createClient({
      ...credentials,
      realService: true,
      fetch: async (_url, init) => {
        sent.push([...(init.body as FormData).keys()]);
        return new Response('<svg/>', { headers: { 'Content-Type': 'image/svg+xml' } });
      },
    });
    await real.vectorize({ image: png }, { output: { size: { scale: 0 } } });
    expect(sent).toEqual([['image', 'output.size.scale']]);
    await expect(real.vectorize({ image: png }, { output: { size: { scale: -1 } } })).rejects.toMatchObject({ code: 1019 });
    expect(sent).toHaveLength(1);
  });

  it('each option has its value type (checked by npm run typecheck)', () => {
    const good: Fields = { output: { file_format: 'eps', curves: { line_fit_tolerance: 0.3 } }, 'processing.max_colors': 8 };
    // @ts-expect-error -- not a file format
    const format: Fields = { output: { file_format: 'gif' } };
    // @ts-expect-error -- a number option given as text
    const colours: Fields = { processing: { max_colors: '8' } };
    // @ts-expect-error -- a misspelt name
    const name: Fields = { output: { fil_format: 'svg' } };
    // Raw pairs stay open (checked at run time only).
    const pairs: Fields = [['output.file_format', 'svg']];
    expect([good, format, colours, name, pairs]).toHaveLength(5);
  });

  it('issue 41: download takes the output options and receipt only; a processing option does not compile and is 1019 at run time (checked by npm run typecheck)', async () => {
    const good: DownloadFields = { output: { file_format: 'pdf' }, 'output.svg.fixed_size': true, receipt: 'r' };
    // @ts-expect-error -- processing options need a new /vectorize call
    const nested: DownloadFields = { processing: { max_colors: 4 } };
    // @ts-expect-error -- the same, dotted
    const dotted: DownloadFields = { 'processing.max_colors': 4 };
    // @ts-expect-error -- mode belongs to /vectorize
    const mode: DownloadFields = { mode: 'test' };
    expect([good, nested, dotted, mode]).toHaveLength(4);
    const before = seen.length;
    // @ts-expect-error -- the call itself does not compile either
    const call = client.download('api-test-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', { processing: { max_colors: 4 } });
    await expect(call).rejects.toMatchObject({ code: 1019 });
    expect(seen.length).toBe(before);
  });
});

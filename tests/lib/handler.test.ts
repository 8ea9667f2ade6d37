/**
 * `tracelab/handler` from source: createHandler (memory store by default, a directory store on
 * request, traces on the calling thread with threads: 0) driven through the API client of
 * `tracelab/client` in process, and toNodeListener in a node:http server. The packed tarball's
 * handler (worker threads) is compared with `tracelab serve` by scripts/test-package.mjs.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/lib/client.js';
import { createHandler, toNodeListener } from '../../src/lib/handler.js';
import { vectorizeHere } from '../../src/lib/engine.js';

const png = new Uint8Array(readFileSync(new URL('../../public/samples/shapes.png', import.meta.url)));
const credentials = { apiId: 'id', apiSecret: 'secret' };
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('tracelab/handler', () => {
  it('answers vectorize, retained download, delete and account in process; the file is the library’s', async () => {
    const handler = createHandler({ credentials, threads: 0 });
    const client = createClient({ baseUrl: 'http://tracelab.invalid/api/v1', ...credentials, fetch: (input, init) => handler(new Request(input, init)) });
    const traced = await client.vectorize({ image: png }, { 'output.file_format': 'svg' });
    expect(Buffer.from(traced.body).equals(Buffer.from((await vectorizeHere(png)).data))).toBe(true);
    expect(traced.creditsCharged).toBe(1);
    const retained = await client.vectorize({ image: png }, { mode: 'test', 'policy.retention_days': 1 });
    expect(retained.imageToken).toBeTruthy();
    const pdf = await client.download(retained.imageToken!, { 'output.file_format': 'pdf' });
    expect(pdf.contentType).toBe('application/pdf');
    expect(await client.delete(retained.imageToken!)).toEqual({ success: true });
    await expect(client.download(retained.imageToken!)).rejects.toMatchObject({ status: 400 });
    expect((await client.account()).credits).toBe(99);
    expect(handler.account.status().credits).toBe(99);
    const denied = await handler(new Request('http://x/api/v1/account', { headers: { Authorization: `Basic ${btoa('id:wrong')}` } }));
    expect(denied.status).toBe(401);
    await handler.close();
  });

  it('keeps retained images in a directory store and serves node:http through toNodeListener', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'tracelab-handler-'));
    dirs.push(directory);
    const handler = createHandler({ credentials, threads: 0, store: { directory } });
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = createClient({ baseUrl: `http://127.0.0.1:${port}/api/v1`, ...credentials });
      const r = await client.vectorize({ image: png }, { mode: 'test', 'policy.retention_days': 2 });
      expect(readdirSync(directory).some((f) => f.endsWith('.tlrec'))).toBe(true);
      const dxf = await client.download(r.imageToken!, { 'output.file_format': 'dxf' });
      expect(dxf.contentType).toBe('application/dxf');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await handler.close();
    }
  });
});

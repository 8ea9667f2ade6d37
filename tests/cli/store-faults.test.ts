/**
 * Storage faults end to end over HTTP (the real /api/v1 service behind the Node server, with a
 * directory store): a record damaged on disk, a disk that fills up (ENOSPC) or fails (EIO) while a
 * retained image is written — injected through the store's file-system seam — and the start-up
 * removal of temp files that killed writes left behind.
 */
import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalAccount } from '../../src/api/account.js';
import { createService } from '../../src/api/service.js';
import { RECORD_EXTENSION, createDirectoryStore, nodeStoreFs, removeStaleTempFiles, type StoreFs } from '../../src/api/storage/directory.js';
import { startServer, type RunningServer } from '../../src/cli/server.js';
import { redSquarePng } from './png.js';

const AUTH = `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}`;

let dir: string;
const servers: RunningServer[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracelab-store-faults-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function serve(fs?: StoreFs): Promise<{ url: string; account: LocalAccount }> {
  const account = new LocalAccount({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 });
  const handler = createService({
    store: createDirectoryStore(dir, fs ? { fs } : {}),
    account,
    credentials: { apiId: 'tracelab', apiSecret: 'tracelab' },
  });
  const server = await startServer({ handler, port: 0 });
  servers.push(server);
  return { url: `${server.url}/api/v1`, account };
}

function form(fields: Record<string, string>, image?: Uint8Array): FormData {
  const f = new FormData();
  if (image) f.append('image', new Blob([image as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'red.png');
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function call(url: string, path: string, body: FormData) {
  const res = await fetch(`${url}/${path}`, { method: 'POST', headers: { Authorization: AUTH }, body });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, bytes, text: () => new TextDecoder().decode(bytes) };
}

function errorOf(r: { headers: Headers; text(): string }): { status: number; code: number; message: string } {
  expect(r.headers.get('content-type')).toBe('application/json');
  return (JSON.parse(r.text()) as { error: { status: number; code: number; message: string } }).error;
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

describe('a corrupt stored record over HTTP', () => {
  it('bytes damaged on disk → /download answers 500 / 1028 error JSON (and /vectorize from the token too)', async () => {
    const { url } = await serve();
    const made = await call(url, 'vectorize', form({ mode: 'test', 'policy.retention_days': '1' }, redSquarePng()));
    expect(made.status).toBe(200);
    const token = made.headers.get('x-image-token')!;
    const file = join(dir, token + RECORD_EXTENSION);
    expect((await call(url, 'download', form({ 'image.token': token }))).status).toBe(200);

    // Flip one byte in the middle of the record (inside the stored image): the CRC catches it.
    const bytes = await readFile(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x5a;
    await writeFile(file, bytes);
    for (const [path, fields] of [
      ['download', { 'image.token': token }],
      ['vectorize', { 'image.token': token, mode: 'test' }],
    ] as const) {
      const r = await call(url, path, form(fields));
      expect(r.status, path).toBe(500);
      const error = errorOf(r);
      expect(error).toMatchObject({ status: 500, code: 1028 });
      expect(error.message).toContain('corrupted');
      expect(r.headers.get('x-credits-charged')).toBe('0.000000');
    }

    // A truncated record is the same answer.
    await writeFile(file, bytes.subarray(0, bytes.length - 10));
    expect(errorOf(await call(url, 'download', form({ 'image.token': token })))).toMatchObject({ status: 500, code: 1028 });
  });
});

describe('the disk fails while a retained image is written', () => {
  for (const fault of ['ENOSPC while writing', 'EIO at fsync'] as const) {
    it(`${fault} → /vectorize answers 500 / −4 error JSON, charges nothing, leaves no file; the token is unknown (400 / 1027); the next write works`, async () => {
      let failing = true;
      const attempted: string[] = [];
      const fs: StoreFs = {
        ...nodeStoreFs,
        async writeNew(path, bytes) {
          attempted.push(path);
          if (!failing) return nodeStoreFs.writeNew(path, bytes);
          if (fault === 'ENOSPC while writing') {
            // The disk fills up half-way: part of the temp file really is on disk when the write fails.
            await writeFile(path, bytes.subarray(0, bytes.length >> 1), { flag: 'wx' });
            throw errno('ENOSPC', 'no space left on device, write');
          }
          await writeFile(path, bytes, { flag: 'wx' });
          throw errno('EIO', 'i/o error, fsync');
        },
      };
      const { url, account } = await serve(fs);
      const before = account.status().credits;

      // preview + 2 retention days costs 0.21 credits: nothing may be taken when the write fails.
      const r = await call(url, 'vectorize', form({ mode: 'preview', 'policy.retention_days': '2' }, redSquarePng()));
      expect(r.status).toBe(500);
      const error = errorOf(r);
      expect(error).toMatchObject({ status: 500, code: -4 });
      expect(error.message).toMatch(/^Failed to store image token /);
      if (fault === 'ENOSPC while writing') expect(error.message).toContain('the disk holding the image store is full');
      expect(r.headers.get('x-image-token')).toBeNull();
      expect(r.headers.get('x-credits-charged')).toBe('0.000000');
      expect(account.status().credits).toBe(before);

      // Nothing half-written is left, under the temp name or the record name.
      expect(attempted).toHaveLength(1);
      expect(await readdir(dir)).toEqual([]);
      const token = /\.([a-z0-9-]+)\.[0-9a-f]{16}\.tmp$/.exec(attempted[0]!)![1]!;
      const missing = await call(url, 'download', form({ 'image.token': token }));
      expect(missing.status).toBe(400);
      expect(errorOf(missing)).toMatchObject({ status: 400, code: 1027 });

      // Space again: the same server retains and serves the next image.
      failing = false;
      const ok = await call(url, 'vectorize', form({ mode: 'preview', 'policy.retention_days': '2' }, redSquarePng()));
      expect(ok.status).toBe(200);
      const next = ok.headers.get('x-image-token')!;
      expect((await readdir(dir)).sort()).toEqual([next + RECORD_EXTENSION]);
      expect((await call(url, 'download', form({ 'image.token': next }))).status).toBe(200);
    });
  }
});

describe('removeStaleTempFiles', () => {
  it('removes old temp files of cut-short writes, keeps young ones and every record', async () => {
    const token = 'a'.repeat(32);
    const old = `.${token}.0123456789abcdef.tmp`;
    const young = `.api-test-${'b'.repeat(32)}.fedcba9876543210.tmp`;
    const record = `${token}${RECORD_EXTENSION}`;
    const other = 'notes.tmp';
    for (const name of [old, young, record, other]) await writeFile(join(dir, name), 'x');
    const now = Date.now();
    const hourAgo = new Date(now - 3_600_000);
    for (const name of [old, record, other]) await utimes(join(dir, name), hourAgo, hourAgo);
    expect(await removeStaleTempFiles(dir, 600_000, now)).toEqual([old]);
    expect((await readdir(dir)).sort()).toEqual([young, other, record].sort());
    expect(await removeStaleTempFiles(join(dir, 'missing'), 0)).toEqual([]);
  });
});

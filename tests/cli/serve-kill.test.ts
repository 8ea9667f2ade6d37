/**
 * `tracelab serve` (a private build, spawned as a child process with a directory store) killed with
 * SIGKILL while requests that retain large images are being written, then restarted on the same
 * data directory: every token answered before the kill still downloads the same bytes, every record
 * file on disk decodes (no half-written record is ever visible), a write cut short is an unknown
 * token (400 / 1027, never truncated bytes), and the next start removes its temp file.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RECORD_EXTENSION, TEMP_FILE_PATTERN } from '../../src/api/storage/directory.js';
import { decodeRecord } from '../../src/api/storage/index.js';
import { concat, pngChunk } from '../decode/build.js';
import { buildPrivateCli, type PrivateBuild } from './private-build.js';
import { redSquarePng } from './png.js';

const AUTH = `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}`;
/** Bytes of the private chunk that makes each upload (and its record) large: writes take a while. */
const PAYLOAD_BYTES = 10 * 1024 * 1024;
const CONCURRENT = 4;
const MAX_ATTEMPTS = 4;

let build: PrivateBuild;
let work: string;
let dataDir: string;
let imagesDir: string;

beforeAll(() => {
  build = buildPrivateCli('tracelab-kill');
  work = mkdtempSync(join(tmpdir(), 'tracelab-kill-'));
  dataDir = join(work, 'data');
  imagesDir = join(dataDir, 'images');
}, 120_000);

afterAll(() => {
  build?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
});

interface Server {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  stderr(): string;
}

async function startServe(): Promise<Server> {
  const env: NodeJS.ProcessEnv = { ...process.env, TRACELAB_DATA_DIR: dataDir, TRACELAB_THREADS: '2', TRACELAB_MAX_QUEUE: '32' };
  for (const name of ['VECTORIZER_API_URL', 'TRACELAB_ACCOUNT', 'TRACELAB_CREDITS', 'TRACELAB_PLAN', 'TRACELAB_STATE', 'TRACELAB_API_ID', 'TRACELAB_API_SECRET']) {
    delete env[name];
  }
  const child = spawn(process.execPath, [build.bin, 'serve', '--port', '0'], { cwd: work, env, stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 30_000);
    const check = (): void => {
      const m = /tracelab: serving (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stderr.on('data', check);
    child.on('exit', (code, signal) => reject(new Error(`serve exited (${code ?? signal}): ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

function killed(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) resolve();
    else server.child.once('exit', () => resolve());
  });
}

/** The red-square PNG with a private ancillary chunk of `size` random bytes (decoders skip it). */
function bigPng(size: number, seed: number): Uint8Array {
  const png = redSquarePng();
  const payload = new Uint8Array(size);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 4) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    payload[i] = s & 255;
    payload[i + 1] = (s >>> 8) & 255;
    payload[i + 2] = (s >>> 16) & 255;
    payload[i + 3] = s >>> 24;
  }
  const afterIhdr = 8 + 25; // signature + IHDR chunk
  return concat(png.subarray(0, afterIhdr), pngChunk('prVt', payload), png.subarray(afterIhdr));
}

function form(fields: Record<string, string>, image?: Uint8Array): FormData {
  const f = new FormData();
  if (image) f.append('image', new Blob([image as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'x.png');
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  return f;
}

async function retain(url: string, image: Uint8Array): Promise<string> {
  const res = await fetch(`${url}/vectorize`, { method: 'POST', headers: { Authorization: AUTH }, body: form({ mode: 'test', 'policy.retention_days': '1' }, image) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`vectorize answered ${res.status}`);
  return res.headers.get('x-image-token')!;
}

async function download(url: string, token: string): Promise<{ status: number; body: Uint8Array; type: string | null }> {
  const res = await fetch(`${url}/download`, { method: 'POST', headers: { Authorization: AUTH }, body: form({ 'image.token': token }) });
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

const tempFiles = (): string[] => {
  try {
    return readdirSync(imagesDir).filter((n) => TEMP_FILE_PATTERN.test(n));
  } catch {
    return [];
  }
};

describe('tracelab serve killed with SIGKILL and restarted on the same directory store', () => {
  it('keeps every acknowledged token, never shows a half-written record, and cleans up the cut-short write', async () => {
    /** token → the bytes /download answered before any kill. */
    const acknowledged = new Map<string, Uint8Array>();
    let server = await startServe();
    // One paid call, so account.json exists and is rewritten while the server runs.
    const paid = await fetch(`${server.url}/vectorize`, { method: 'POST', headers: { Authorization: AUTH }, body: form({}, redSquarePng()) });
    expect(paid.status).toBe(200);
    await paid.arrayBuffer();
    for (let i = 0; i < 3; i++) {
      const token = await retain(server.url, redSquarePng());
      const d = await download(server.url, token);
      expect(d.status).toBe(200);
      acknowledged.set(token, d.body);
    }

    let cutShort: string[] = [];
    let attempts = 0;
    while (cutShort.length === 0 && attempts < MAX_ATTEMPTS) {
      attempts++;
      // Clients that keep sending large retaining uploads until the server dies.
      let stop = false;
      let bigAcknowledged = 0;
      const clients = Array.from({ length: CONCURRENT }, async (_, k) => {
        for (let n = 0; !stop; n++) {
          try {
            const token = await retain(server.url, bigPng(PAYLOAD_BYTES, attempts * 1000 + k * 100 + n));
            acknowledged.set(token, new Uint8Array()); // its download bytes are read after the restart
            bigAcknowledged++;
          } catch {
            return; // the server is gone
          }
        }
      });
      // Once some large records are retained, SIGKILL the moment another write creates its temp
      // file (inotify through fs.watch, the kill sent from the event itself). A store that wrote
      // records in place shows no temp file: the kill at the deadline then cuts one of its record
      // files short, which the check below catches.
      const acked = Date.now() + 20_000;
      while (bigAcknowledged < 2 && Date.now() < acked) await new Promise((r) => setTimeout(r, 5));
      const victim = server.child;
      const watcher = watch(imagesDir, (_event, name) => {
        if (name !== null && TEMP_FILE_PATTERN.test(String(name))) victim.kill('SIGKILL');
      });
      const deadline = Date.now() + 5_000;
      while (victim.exitCode === null && victim.signalCode === null && Date.now() < deadline) {
        if (tempFiles().length > 0) victim.kill('SIGKILL');
        await new Promise((r) => setTimeout(r, 2));
      }
      victim.kill('SIGKILL');
      await killed(server);
      watcher.close();
      stop = true;
      await Promise.all(clients);
      cutShort = tempFiles();

      // What a restarted server will find: only complete records under record names.
      for (const name of readdirSync(imagesDir).filter((n) => n.endsWith(RECORD_EXTENSION))) {
        const token = name.slice(0, -RECORD_EXTENSION.length);
        expect(() => decodeRecord(new Uint8Array(readFileSync(join(imagesDir, name))), token), name).not.toThrow();
      }
      server = await startServe();
    }
    // The kill landed in the middle of a write at least once (else this test proved nothing).
    expect(cutShort.length, `no write was cut short in ${attempts} attempts`).toBeGreaterThan(0);
    console.log(`SIGKILL cut ${cutShort.length} record write(s) short after ${attempts} attempt(s); ${acknowledged.size} tokens acknowledged`);

    // The restarted server: every acknowledged token downloads, the same bytes as before the kill.
    for (const [token, before] of acknowledged) {
      const after = await download(server.url, token);
      expect(after.status, token).toBe(200);
      expect(after.type).toContain('image/svg+xml');
      if (before.length > 0) expect(Buffer.from(after.body).equals(Buffer.from(before)), token).toBe(true);
    }
    // A write cut short is no record: its token is unknown, never a truncated or corrupt answer.
    for (const name of cutShort) {
      const token = /^\.([a-z0-9-]+)\.[0-9a-f]{16}\.tmp$/.exec(name)![1]!;
      expect(acknowledged.has(token)).toBe(false);
      const d = await download(server.url, token);
      expect(d.status).toBe(400);
      expect(d.type).toBe('application/json');
      expect(JSON.parse(new TextDecoder().decode(d.body))).toMatchObject({ error: { status: 400, code: 1027 } });
    }
    // account.json is whole (written through a temp file and rename as well).
    expect(JSON.parse(readFileSync(join(dataDir, 'account.json'), 'utf8'))).toMatchObject({ subscriptionState: 'active', credits: 99 });

    // The next start removes temp files old enough to belong to no running write.
    const old = new Date(Date.now() - 60 * 60_000);
    for (const name of tempFiles()) utimesSync(join(imagesDir, name), old, old);
    const leftovers = tempFiles().length;
    server.child.kill('SIGTERM');
    await killed(server);
    server = await startServe();
    expect(server.stderr()).toContain(`removed ${leftovers} unfinished image-store write(s) left by an earlier run`);
    expect(tempFiles()).toEqual([]);
    server.child.kill('SIGTERM');
    await killed(server);
  });
});

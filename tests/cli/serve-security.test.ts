/**
 * Probes of issue 37 against a real `tracelab serve` (startService on loopback, traces on the
 * server thread): uploads that trickle do not hold the queue and are cut at the body deadline
 * (item 3), a queue stuck full turns the probes 503 (item 3), the default secret is refused on a
 * public bind and failed logins slow the client down (item 4), cross-site pages and rebound host
 * names are refused and every answer says nosniff (item 6). Each test waits for the state it
 * checks; none measures time.
 */
import { createServer, request as httpRequest, type ClientRequest, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { parseArgs } from '../../src/cli/args.js';
import { readConfig, type Env } from '../../src/cli/config.js';
import { defaultSecretRefusal, startService } from '../../src/cli/serve.js';

const ID = 'sec-id';
const SECRET = 'sec-secret';
const AUTH = `Basic ${Buffer.from(`${ID}:${SECRET}`).toString('base64')}`;
const WRONG = `Basic ${Buffer.from(`${ID}:not-it`).toString('base64')}`;

let work: string;
let count = 0;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'tracelab-serve-sec-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Running = Awaited<ReturnType<typeof startService>>;
const running: Running[] = [];
const cleanups: (() => void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) c();
  await Promise.all(running.splice(0).map((r) => r.finish()));
});

async function serve(env: Env = {}): Promise<Running> {
  const config = readConfig({ TRACELAB_DATA_DIR: join(work, `d${++count}`), TRACELAB_THREADS: '0', TRACELAB_API_ID: ID, TRACELAB_API_SECRET: SECRET, ...env });
  const r = await startService({ host: '127.0.0.1', port: 0, config, writeStderr: () => undefined });
  running.push(r);
  return r;
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request (any Host / Origin header); `body` undefined → no body. */
function send(url: string, options: { method?: string; path?: string; headers?: Record<string, string | number>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${options.path ?? '/api/v1/account'}`, { method: options.method ?? 'GET', headers: options.headers ?? {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** An authenticated upload that sends `sent` of its declared bytes and then waits; its answer, if any. */
function trickle(url: string, declared: number, sent: number): { req: ClientRequest; answered: Promise<Answer>; written: Promise<void> } {
  let req!: ClientRequest;
  let written!: () => void;
  const wrote = new Promise<void>((resolve) => (written = resolve));
  const answered = new Promise<Answer>((resolve, reject) => {
    req = httpRequest(
      `${url}/api/v1/vectorize`,
      { method: 'POST', headers: { Authorization: AUTH, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': declared } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(Buffer.alloc(sent, 0x61), () => written());
  });
  return { req, answered, written: wrote };
}

describe('uploads and the queue (item 3)', () => {
  it('trickling uploads do not take queue slots: /account is answered while they are open, and they are answered once complete', async () => {
    const r = await serve({ TRACELAB_MAX_QUEUE: '1' });
    const url = r.server.url;
    const uploads = [trickle(url, 1000, 10), trickle(url, 1000, 10), trickle(url, 1000, 10)];
    await Promise.all(uploads.map((u) => u.written));
    // Before: the first upload held the one slot and /account got 429 / 1015 until it finished.
    const account = await send(url, { headers: { Authorization: AUTH } });
    expect(account.status).toBe(200);
    for (const u of uploads) u.req.end(Buffer.alloc(990, 0x61));
    for (const u of uploads) expect((await u.answered).status).toBe(400); // not a form: 1019, after the body is in
  });

  it('a body not received within TRACELAB_BODY_TIMEOUT_S is answered 408 and the connection closed', async () => {
    const r = await serve({ TRACELAB_BODY_TIMEOUT_S: '1' });
    const upload = trickle(r.server.url, 1000, 10);
    const answer = await upload.answered;
    expect(answer.status).toBe(408);
    expect(answer.headers['connection']).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ error: { status: 408, code: -1, message: expect.stringContaining('not received within 1 s') } });
  });

  it('/healthz and /readyz answer 503 while the queue has been full for TRACELAB_QUEUE_STUCK_S, 200 again once it frees', async () => {
    // An image host on loopback that never answers: a request fetching from it holds the one slot.
    const sockets = new Set<Socket>();
    const silent: Server = createServer(() => undefined);
    silent.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => {
      for (const s of sockets) s.destroy();
      silent.close();
    });
    const r = await serve({ TRACELAB_MAX_QUEUE: '1', TRACELAB_QUEUE_STUCK_S: '1', TRACELAB_ALLOW_PRIVATE_URLS: '1' });
    const url = r.server.url;
    expect((await send(url, { path: '/healthz' })).status).toBe(200);
    const form = new FormData();
    form.append('image.url', `http://127.0.0.1:${(silent.address() as AddressInfo).port}/slow.png`);
    form.append('mode', 'test');
    const held = fetch(`${url}/api/v1/vectorize`, { method: 'POST', headers: { Authorization: AUTH }, body: form });
    await vi.waitFor(async () => expect((await send(url, { path: '/healthz' })).status).toBe(503), { timeout: 20_000, interval: 200 });
    const ready = await send(url, { path: '/readyz' });
    expect(ready.status).toBe(503);
    expect(JSON.parse(ready.body)).toEqual({ status: 'queue full' });
    // The image host hangs up: the request fails (1022), the slot frees, the probes recover.
    for (const s of sockets) s.destroy();
    expect((await held).status).toBe(400);
    expect((await send(url, { path: '/healthz' })).status).toBe(200);
    expect((await send(url, { path: '/readyz' })).status).toBe(200);
  });
});

describe('credentials (item 4)', () => {
  it('serve refuses a non-loopback bind with the default secret unless --allow-default-secret; a set secret or loopback needs nothing', async () => {
    const defaults = readConfig({ TRACELAB_DATA_DIR: join(work, 'defaults') });
    expect(defaultSecretRefusal('0.0.0.0', defaults, false)).toMatch(/^refusing to listen on 0\.0\.0\.0 with the default API secret.*--allow-default-secret/);
    expect(defaultSecretRefusal('192.168.1.20', defaults, false)).toBeDefined();
    expect(defaultSecretRefusal('::', defaults, false)).toBeDefined();
    expect(defaultSecretRefusal('0.0.0.0', defaults, true)).toBeUndefined();
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(defaultSecretRefusal(host, defaults, false), host).toBeUndefined();
    const own = readConfig({ TRACELAB_DATA_DIR: join(work, 'own'), TRACELAB_API_SECRET: 'a long secret' });
    expect(defaultSecretRefusal('0.0.0.0', own, false)).toBeUndefined();
    // startService refuses before it binds anything.
    await expect(startService({ host: '0.0.0.0', port: 0, config: defaults, writeStderr: () => undefined })).rejects.toThrow(/default API secret/);
    expect(parseArgs(['serve', '--host', '0.0.0.0', '--allow-default-secret'])).toMatchObject({ kind: 'serve', host: '0.0.0.0', allowDefaultSecret: true });
    expect(parseArgs(['serve'])).not.toHaveProperty('allowDefaultSecret');
  });

  it('each wrong secret doubles the wait of that client; the right one clears it; a request without credentials counts not', async () => {
    const r = await serve();
    const url = r.server.url;
    expect((await send(url, {})).status).toBe(401);
    expect(r.loginDelayMs('127.0.0.1')).toBe(0);
    const delays: number[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await send(url, { headers: { Authorization: WRONG } });
      expect(JSON.parse(answer.body).error.code).toBe(1004);
      delays.push(r.loginDelayMs('127.0.0.1'));
    }
    expect(delays).toEqual([250, 500, 1000]);
    expect((await send(url, { headers: { Authorization: AUTH } })).status).toBe(200);
    expect(r.loginDelayMs('127.0.0.1')).toBe(0);
  });
});

describe('browsers (item 6)', () => {
  it("a form post from another site's page is 403; from the server's own origin or an allowed one it is served", async () => {
    const r = await serve({ TRACELAB_ALLOWED_ORIGINS: 'https://app.example, http://localhost:5173' });
    const url = r.server.url;
    const post = (origin: string | undefined) =>
      send(url, { method: 'POST', path: '/api/v1/vectorize', headers: { Authorization: AUTH, ...(origin ? { Origin: origin } : {}), 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'mode=test' });
    const cross = await post('https://evil.example');
    expect(cross.status).toBe(403);
    expect(JSON.parse(cross.body)).toMatchObject({ error: { status: 403, code: -1, message: expect.stringContaining('Cross-site request refused') } });
    expect((await post('null')).status).toBe(403);
    for (const origin of [undefined, url, 'https://app.example', 'http://localhost:5173']) {
      expect((await post(origin)).status, origin).toBe(400); // through to the API: 1005, no image
    }
  });

  it('a loopback server refuses a page on a name that is not a loopback name (DNS rebinding); clients without Origin are unaffected', async () => {
    const r = await serve();
    const port = r.server.port;
    const rebound = await send(r.server.url, { headers: { Authorization: AUTH, Host: `evil.example:${port}`, Origin: `http://evil.example:${port}` } });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).error.message).toContain('listens on loopback only');
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`]) {
      expect((await send(r.server.url, { headers: { Authorization: AUTH, Host: host, Origin: `http://${host}` } })).status).toBe(200);
    }
    // A proxy forwarding its own Host, with a client that is not a browser: served.
    expect((await send(r.server.url, { headers: { Authorization: AUTH, Host: `api.example:${port}` } })).status).toBe(200);
  });

  it('every answer carries X-Content-Type-Options: nosniff', async () => {
    const r = await serve();
    const url = r.server.url;
    for (const answer of [await send(url, { headers: { Authorization: AUTH } }), await send(url, {}), await send(url, { path: '/healthz' }), await send(url, { path: '/nope', headers: { Authorization: AUTH } })]) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

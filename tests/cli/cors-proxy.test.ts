/**
 * scripts/cors-proxy.mjs as a user runs it (a child process) in front of a fake upstream: CORS
 * preflight for the one allowed origin, refusal of other origins, forwarding of method, path, body
 * and the Authorization header, the API's headers passed back and exposed to page scripts, and
 * nothing of the credentials in the proxy's own output.
 */

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createClient } from '../../src/api/client.js';

const SCRIPT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'cors-proxy.mjs');
const ORIGIN = 'http://localhost:5173';
const API_ID = 'proxy-test-id-7c1f';
const API_SECRET = 'proxy-test-secret-Zq93xw';
const BASIC = `Basic ${Buffer.from(`${API_ID}:${API_SECRET}`).toString('base64')}`;
const SVG = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 2 2"/>';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const seen: Seen[] = [];
let upstream: Server;
let upstreamUrl = '';
let proxy: ChildProcessWithoutNullStreams;
let proxyUrl = '';
let output = '';

/** The fake Vectorizer.AI: checks Basic auth like the real one and answers with its headers. */
function fakeUpstream(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.headers.authorization !== BASIC) {
        res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Basic realm="x"' });
        res.end(JSON.stringify({ error: { status: 401, code: 1004, message: 'Invalid API secret.' } }));
        return;
      }
      if (req.url === '/api/v1/account') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ subscriptionPlan: 'none', subscriptionState: 'active', credits: 3 }));
        return;
      }
      res.writeHead(200, {
        'Content-Type': 'image/svg+xml',
        'X-Credits-Charged': '0.000000',
        'X-Credits-Calculated': '1.000000',
        'X-Image-Token': 'tok-1',
        'Set-Cookie': 'upstream=1',
        'X-Internal': 'not for the page',
      });
      res.end(SVG);
    });
  });
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Raw node:http request, so Origin and friends are sent exactly as a browser would. */
function send(path: string, init: { method?: string; headers?: Record<string, string>; body?: Buffer } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${proxyUrl}${path}`, { method: init.method ?? 'GET', headers: init.headers ?? {} }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

beforeAll(async () => {
  upstream = fakeUpstream();
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const address = upstream.address();
  if (address === null || typeof address === 'string') throw new Error('no upstream address');
  upstreamUrl = `http://127.0.0.1:${address.port}`;
  // The upstream comes from the environment here (the --upstream flag is checked below).
  proxy = spawn(process.execPath, [SCRIPT, '--origin', ORIGIN, '--port', '0'], {
    env: { ...process.env, CORS_PROXY_UPSTREAM: upstreamUrl },
  });
  proxy.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  proxy.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  proxyUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`proxy did not start: ${output}`)), 10_000);
    const check = (): void => {
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proxy.stdout.on('data', check);
    proxy.on('exit', (code) => reject(new Error(`proxy exited with ${code}: ${output}`)));
  });
});

afterAll(async () => {
  if (proxy !== undefined && proxy.exitCode === null) {
    const exited = new Promise((r) => proxy.once('exit', r));
    proxy.kill('SIGTERM');
    await exited;
  }
  await new Promise((r) => upstream?.close(r));
});

describe('cors-proxy', () => {
  it('binds to 127.0.0.1 and names the upstream and the allowed origin', () => {
    expect(proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(output).toContain(`-> ${upstreamUrl} (allowed origin ${ORIGIN})`);
  });

  it('answers the preflight of the allowed origin', async () => {
    const res = await send('/api/v1/vectorize', {
      method: 'OPTIONS',
      headers: {
        Origin: ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
        'Access-Control-Request-Private-Network': 'true',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-allow-methods']).toContain('POST');
    expect(res.headers['access-control-allow-headers']?.toLowerCase()).toContain('authorization');
    expect(res.headers['access-control-allow-private-network']).toBe('true');
    expect(res.headers['vary']).toBe('Origin');
  });

  it('refuses other origins without CORS headers and without forwarding', async () => {
    const before = seen.length;
    for (const method of ['OPTIONS', 'POST', 'GET']) {
      const res = await send('/api/v1/account', { method, headers: { Origin: 'https://evil.example', Authorization: BASIC } });
      expect(res.status, method).toBe(403);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(JSON.parse(res.body).error.status).toBe(403);
    }
    expect(seen.length).toBe(before);
  });

  it('forwards a multipart POST with the Authorization header and passes the API headers back', async () => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array([137, 80, 78, 71, 9, 9])]), 'x.png');
    form.append('mode', 'test');
    const request = new Request('http://x.invalid', { method: 'POST', body: form });
    const body = Buffer.from(await request.arrayBuffer());
    const before = seen.length;
    const res = await send('/api/v1/vectorize', {
      method: 'POST',
      headers: {
        Origin: ORIGIN,
        Authorization: BASIC,
        Accept: 'image/svg+xml',
        'Content-Type': request.headers.get('content-type')!,
        Cookie: 'page=secret-cookie',
      },
      body,
    });
    expect(res.status).toBe(200);
    expect(res.body).toBe(SVG);
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(res.headers['access-control-expose-headers']).toContain('X-Credits-Charged');
    expect(res.headers['x-credits-charged']).toBe('0.000000');
    expect(res.headers['x-credits-calculated']).toBe('1.000000');
    expect(res.headers['x-image-token']).toBe('tok-1');
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['x-internal']).toBeUndefined();

    expect(seen.length).toBe(before + 1);
    const up = seen.at(-1)!;
    expect(up.method).toBe('POST');
    expect(up.url).toBe('/api/v1/vectorize');
    expect(up.headers.authorization).toBe(BASIC);
    expect(up.headers.accept).toBe('image/svg+xml');
    expect(up.headers.cookie).toBeUndefined();
    expect(up.headers.origin).toBeUndefined();
    expect(up.body.equals(body)).toBe(true);
  });

  it('works for the typed client (GET /account, and a 401 mapped to the API error)', async () => {
    const client = createClient({ baseUrl: `${proxyUrl}/api/v1`, apiId: API_ID, apiSecret: API_SECRET });
    await expect(client.account()).resolves.toEqual({ subscriptionPlan: 'none', subscriptionState: 'active', credits: 3 });
    const wrong = createClient({ baseUrl: `${proxyUrl}/api/v1`, apiId: API_ID, apiSecret: 'wrong-secret-value' });
    await expect(wrong.vectorize({ image: new Uint8Array([1, 2, 3]) }, { mode: 'test' })).rejects.toMatchObject({ status: 401, code: 1004 });
  });

  it('drops WWW-Authenticate (no browser login dialog) and answers 404 outside /api/v1', async () => {
    const res = await send('/api/v1/account', { headers: { Origin: ORIGIN, Authorization: 'Basic bm9wZTpub3Bl' } });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
    const other = await send('/etc/passwd', { headers: { Origin: ORIGIN } });
    expect(other.status).toBe(404);
    const put = await send('/api/v1/vectorize', { method: 'PUT', headers: { Origin: ORIGIN } });
    expect(put.status).toBe(405);
  });

  it('logs one line per request and never the credentials', async () => {
    await new Promise((r) => setTimeout(r, 100)); // let the last log lines arrive
    expect(output).toMatch(/POST \/api\/v1\/vectorize -> 200 \(\d+ ms\)/);
    for (const leak of [API_ID, API_SECRET, BASIC.slice(6), 'bm9wZTpub3Bl', 'secret-cookie', 'wrong-secret-value']) {
      expect(output).not.toContain(leak);
    }
  });

  it('reports an unreachable upstream as a 502 API error (--upstream flag)', async () => {
    // A port nobody listens on (fetch refuses the well-known "bad ports" such as 9 outright).
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closedPort = (probe.address() as { port: number }).port;
    await new Promise((r) => probe.close(r));
    const dead = `http://127.0.0.1:${closedPort}`;
    const child = spawn(process.execPath, [SCRIPT, '--origin', ORIGIN, '--port', '0', '--upstream', dead], {
      env: { ...process.env, CORS_PROXY_UPSTREAM: '' },
    });
    let text = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString('utf8');
        const m = /listening on (http:\/\/\S+)/.exec(text);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${text}`)));
    });
    try {
      expect(text).toContain(`-> ${dead} `);
      const res = await fetch(`${url}/api/v1/account`, { headers: { Authorization: BASIC } });
      expect(res.status).toBe(502);
      expect((await res.json()).error.message).toBe(`The proxy could not reach ${dead} (ECONNREFUSED).`);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    expect(text).not.toContain(BASIC.slice(6));
  });

  it('refuses to start without --origin or with an opaque origin', async () => {
    for (const args of [[], ['--origin', 'null']]) {
      const child = spawn(process.execPath, [SCRIPT, ...args]);
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
      const code = await new Promise((r) => child.on('exit', r));
      expect(code).toBe(2);
      expect(err).toMatch(/--origin/);
    }
  });
});

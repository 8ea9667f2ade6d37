/** node:http front end (src/cli/server.ts): fake handlers first, then the real /api/v1 service. */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jsonError, startServer, type FetchHandler, type RunningServer } from '../../src/cli/server.js';
import { openLocalService, readConfig } from '../../src/cli/config.js';
import { redSquarePng } from './png.js';

const running: RunningServer[] = [];
async function serve(handler: FetchHandler, maxBodyBytes?: number): Promise<RunningServer> {
  const server = await startServer({ handler, port: 0, ...(maxBodyBytes === undefined ? {} : { maxBodyBytes }) });
  running.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

/** Raw node:http request (no fetch quirks); `chunks` are written one by one without Content-Length. */
function rawPost(url: string, chunks: Uint8Array[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { 'Content-Type': 'application/octet-stream' } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', () => undefined); // the server may close the socket while we still write
    (async () => {
      for (const c of chunks) {
        if (req.destroyed) return;
        req.write(c);
        await new Promise((r) => setTimeout(r, 5));
      }
      req.end();
    })().catch(reject);
  });
}

describe('startServer with a fake handler', () => {
  it('an answer given before the upload is read (an early 429) reaches the client, and the connection carries the next request', async () => {
    let calls = 0;
    const server = await serve(async (req) => {
      calls++;
      if (calls === 1) return jsonError(429, 1015, 'Slow down', { 'Retry-After': '5' });
      return new Response(String((await req.arrayBuffer()).byteLength));
    });
    // 6 MB: far more than the socket buffers hold, so the client is still writing when the 429 comes.
    const big = new Uint8Array(6 * 1024 * 1024).fill(7);
    const first = await fetch(`${server.url}/api/v1/vectorize`, { method: 'POST', body: big });
    expect(first.status).toBe(429);
    expect(first.headers.get('connection')).not.toBe('close');
    expect(((await first.json()) as { error: { code: number } }).error.code).toBe(1015);
    const second = await fetch(`${server.url}/api/v1/vectorize`, { method: 'POST', body: big });
    expect(await second.text()).toBe(String(big.length));
  });

  it('round-trips method, path, headers, status and body', async () => {
    const server = await serve(async (req) => {
      const text = await req.text();
      return new Response(`${req.method} ${new URL(req.url).pathname}${new URL(req.url).search} ${req.headers.get('x-in')} ${text}`, {
        status: 201,
        headers: { 'X-Out': 'yes', 'Content-Type': 'text/plain' },
      });
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/api/v1/echo?a=1`, { method: 'POST', headers: { 'X-In': 'hello' }, body: 'payload' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-out')).toBe('yes');
    expect(await res.text()).toBe('POST /api/v1/echo?a=1 hello payload');
    const head = await fetch(`${server.url}/x`, { method: 'HEAD' });
    expect(head.status).toBe(201);
    expect(await head.text()).toBe('');
  });

  it('declared body above the cap → 413 JSON 1012 without calling the handler', async () => {
    let called = 0;
    const server = await serve(async () => {
      called++;
      return new Response('ok');
    }, 1000);
    const res = await fetch(`${server.url}/api/v1/vectorize`, { method: 'POST', body: new Uint8Array(5000) });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json');
    const body = (await res.json()) as { error: { status: number; code: number; message: string } };
    expect(body.error.status).toBe(413);
    expect(body.error.code).toBe(1012);
    expect(body.error.message).toContain('1000');
    expect(called).toBe(0);
  });

  it('streamed (chunked) body past the cap → 413 JSON even when the handler swallows the error', async () => {
    let seen = 0;
    const server = await serve(async (req) => {
      try {
        seen = (await req.arrayBuffer()).byteLength;
      } catch {
        return jsonError(400, 1019, 'bad body'); // must be replaced by the 413
      }
      return new Response(`got ${seen}`);
    }, 1000);
    const small = await rawPost(`${server.url}/x`, [new Uint8Array(400), new Uint8Array(400)]);
    expect(small).toEqual({ status: 200, body: 'got 800' });
    const big = await rawPost(`${server.url}/x`, Array.from({ length: 20 }, () => new Uint8Array(300)));
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body)).toMatchObject({ error: { status: 413, code: 1012 } });
    // the server is still fine
    expect((await rawPost(`${server.url}/x`, [new Uint8Array(10)])).body).toBe('got 10');
  });

  it('a handler exception → 500 JSON, and the next request works', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const server = await startServer({
      port: 0,
      onError: (e) => errors.push(e),
      handler: async () => {
        if (fail) {
          fail = false;
          throw new Error('boom');
        }
        return new Response('fine');
      },
    });
    running.push(server);
    const res = await fetch(`${server.url}/a`);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ error: { status: 500 } });
    expect(errors).toHaveLength(1);
    const next = await fetch(`${server.url}/a`);
    expect(next.status).toBe(200);
    expect(await next.text()).toBe('fine');
  });

  it('a client that disconnects aborts request.signal and does not hurt the server', async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((r) => (aborted = r));
    const server = await serve(async (req) => {
      if (new URL(req.url).pathname === '/slow') {
        req.signal.addEventListener('abort', () => aborted());
        await sawAbort;
        return new Response('late');
      }
      return new Response('quick');
    });
    const controller = new AbortController();
    const pending = fetch(`${server.url}/slow`, { signal: controller.signal }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    await pending;
    await sawAbort;
    expect(await (await fetch(`${server.url}/quick`)).text()).toBe('quick');
  });

  it('close() lets a request in flight finish and then refuses connections', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const server = await startServer({ port: 0, handler: async () => (await gate, new Response('done')) });
    const inFlight = fetch(`${server.url}/`).then((r) => r.text());
    await new Promise((r) => setTimeout(r, 50));
    const closed = server.close();
    release();
    expect(await inFlight).toBe('done');
    await closed;
    await expect(fetch(`${server.url}/`)).rejects.toThrow();
  });
});

describe('startServer with the real /api/v1 service', () => {
  let dataDir: string;
  const auth = `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}`;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tracelab-server-'));
  });
  afterAll(() => {
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function serveService(): Promise<RunningServer> {
    const local = openLocalService(readConfig({ TRACELAB_DATA_DIR: dataDir }));
    return serve(local.handler);
  }

  function form(fields: Record<string, string>, image = true): FormData {
    const f = new FormData();
    if (image) f.append('image', new Blob([redSquarePng() as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'red.png');
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  }

  it('multipart /vectorize with mode=test → SVG and the credit headers', async () => {
    const server = await serveService();
    const res = await fetch(`${server.url}/api/v1/vectorize`, {
      method: 'POST',
      headers: { Authorization: auth },
      body: form({ mode: 'test' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('image/svg+xml');
    expect(res.headers.get('x-credits-charged')).toBe('0.000000');
    expect(res.headers.get('x-credits-calculated')).toBe('1.000000');
    expect(await res.text()).toContain('<svg');
  });

  it('answers SVG, EPS and DXF gzip-encoded when the client accepts it (as the real service does), plain otherwise; PNG and error JSON as they are', async () => {
    const server = await serveService();
    const body = new Response(form({ mode: 'test' }));
    const type = body.headers.get('content-type')!;
    const bytes = new Uint8Array(await body.arrayBuffer());
    // Raw node:http, which does not decode: what the client gets on the wire.
    const post = (acceptEncoding: string | undefined, extra: Uint8Array = bytes, contentType = type): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> =>
      new Promise((resolve, reject) => {
        const headers: Record<string, string> = { Authorization: auth, 'Content-Type': contentType, 'Content-Length': String(extra.length) };
        if (acceptEncoding !== undefined) headers['Accept-Encoding'] = acceptEncoding;
        const req = httpRequest(`${server.url}/api/v1/vectorize`, { method: 'POST', headers }, (res) => {
          const parts: Buffer[] = [];
          res.on('data', (c: Buffer) => parts.push(c));
          res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(parts) }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(extra);
      });
    const plain = await post(undefined);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString('utf8')).toContain('<svg');
    const zipped = await post('gzip, deflate, br');
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers['vary']).toContain('Accept-Encoding');
    expect(zipped.headers['x-credits-calculated']).toBe('1.000000');
    expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    expect(zipped.body.length).toBeLessThan(plain.body.length);
    // q=0 refuses gzip.
    expect((await post('gzip;q=0, identity')).headers['content-encoding']).toBeUndefined();
    // Error JSON stays plain (the reference lists SVG, EPS and DXF as the gzipped bodies).
    const bad = await post('gzip', new TextEncoder().encode('not a form'), 'text/plain');
    expect(bad.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(bad.body.toString('utf8')).error.status).toBeGreaterThanOrEqual(400);
    // DXF is gzipped too.
    const dxf = new Response(form({ mode: 'test', 'output.file_format': 'dxf' }));
    const dxfAnswer = await post('gzip', new Uint8Array(await dxf.arrayBuffer()), dxf.headers.get('content-type')!);
    expect(dxfAnswer.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(dxfAnswer.body).toString('utf8')).toMatch(/SECTION/);
    // PNG is compressed already: sent as it is.
    const png = new Response(form({ mode: 'test', 'output.file_format': 'png' }));
    const pngBytes = new Uint8Array(await png.arrayBuffer());
    const pngAnswer = await post('gzip', pngBytes, png.headers.get('content-type')!);
    expect(pngAnswer.headers['content-encoding']).toBeUndefined();
    expect([...pngAnswer.body.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);
  });

  it('wrong credentials → 401 with WWW-Authenticate', async () => {
    const server = await serveService();
    const res = await fetch(`${server.url}/api/v1/vectorize`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('tracelab:wrong').toString('base64')}` },
      body: form({ mode: 'test' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect(await res.json()).toMatchObject({ error: { status: 401 } });
  });

  it('a retained token survives a restart on the same data dir; /download works', async () => {
    const first = await serveService();
    const res = await fetch(`${first.url}/api/v1/vectorize`, {
      method: 'POST',
      headers: { Authorization: auth },
      body: form({ mode: 'test', 'policy.retention_days': '1' }),
    });
    expect(res.status).toBe(200);
    const token = res.headers.get('x-image-token');
    expect(token).toMatch(/^api-test-[a-z2-7]{32}$/);
    await res.arrayBuffer();
    await first.close();

    const second = await serveService();
    const download = await fetch(`${second.url}/api/v1/download`, {
      method: 'POST',
      headers: { Authorization: auth },
      body: form({ 'image.token': token!, 'output.svg.fixed_size': 'true' }, false),
    });
    expect(download.status).toBe(200);
    expect(await download.text()).toContain('<svg');
  });

  it('paid calls are saved to account.json', async () => {
    const server = await serveService();
    const res = await fetch(`${server.url}/api/v1/vectorize`, {
      method: 'POST',
      headers: { Authorization: auth },
      body: form({ mode: 'production' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-charged')).toBe('1.000000');
    await res.arrayBuffer();
    await server.close();
    await new Promise((r) => setTimeout(r, 100)); // the write is queued right after the charge
    expect(JSON.parse(readFileSync(join(dataDir, 'account.json'), 'utf8'))).toMatchObject({ credits: 99 });
  });

  it('malformed multipart → JSON 400', async () => {
    const server = await serveService();
    const res = await fetch(`${server.url}/api/v1/vectorize`, {
      method: 'POST',
      headers: { Authorization: auth, 'Content-Type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nthis is not a part header\r\n\r\ngarbage',
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(await res.json()).toMatchObject({ error: { status: 400 } });
  });

  it('issue 41: a body over 40 MiB is 413 / 1012 with X-Credits-Charged: 0.000000 and the reference error fields, declared or streamed', async () => {
    const server = await serveService();
    const limit = 40 * 1024 * 1024;
    const expectReferenceError = (status: number, headers: Record<string, string | string[] | undefined>, body: string): void => {
      expect(status).toBe(413);
      expect(headers['x-credits-charged']).toBe('0.000000');
      expect(headers['content-type']).toBe('application/json');
      const parsed = JSON.parse(body) as { error: { status: number; code: number; message: string }; dataReceived: unknown };
      expect(Object.keys(parsed).sort()).toEqual(['dataReceived', 'error']);
      expect(parsed.dataReceived).toBeNull();
      expect(parsed.error).toMatchObject({ status: 413, code: 1012 });
      expect(parsed.error.message).toContain(`the maximum is ${limit} bytes`);
    };
    // Declared: answered before a byte of the body is read.
    const declared = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/v1/vectorize`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'multipart/form-data; boundary=b', 'Content-Length': String(limit + 1) } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expectReferenceError(declared.status, declared.headers, declared.body);
    // Streamed without Content-Length: cut at the cap.
    const streamed = await new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/v1/vectorize`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'multipart/form-data; boundary=b' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', () => undefined); // the server closes the socket while we still write
      const chunk = new Uint8Array(1024 * 1024);
      (async () => {
        for (let i = 0; i < 42 && !req.destroyed; i++) {
          if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        }
        req.end();
      })().catch(reject);
    });
    expectReferenceError(streamed.status, streamed.headers, streamed.body);
  });
});

/**
 * Tracelab extension options (tracelab.*) through the CLI and the HTTP server, in this process:
 *  - `tracelab vectorize --remote` to the real service (fetch stubbed: nothing leaves the machine)
 *    leaves them out and says so in one stderr line; batch and download too;
 *  - `--remote` to a Tracelab server (VECTORIZER_API_URL on another host) sends them, and that
 *    server (`tracelab serve`'s startServer + the local service) accepts them, and answers a bad
 *    value with the API's 400 / 1019 error JSON like any parameter; so does the in-process service.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

import { openLocalService, readConfig, type LocalService } from '../../src/cli/config.js';
import { main } from '../../src/cli/main.js';
import { captureIo } from './capture-io.js';
import { startServer, type RunningServer } from '../../src/cli/server.js';
import { redSquarePng } from './png.js';

const NOTE = 'tracelab: note: Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension)\n';
const FAKE_SVG = '<svg xmlns="http://www.w3.org/2000/svg"/>';

let dir: string;
let input: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tracelab-extensions-'));
  input = join(dir, 'red.png');
  writeFileSync(input, redSquarePng());
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
});

/** The real service, faked: records each request's URL and form fields, answers an SVG. */
function fakeRealService(): { url: string; fields: [string, string][] }[] {
  const seen: { url: string; fields: [string, string][] }[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const form = init.body as FormData;
    seen.push({ url, fields: [...form.entries()].filter(([, v]) => typeof v === 'string') as [string, string][] });
    return new Response(FAKE_SVG, { status: 200, headers: { 'Content-Type': 'image/svg+xml', 'X-Credits-Charged': '0.000000' } });
  });
  vi.stubEnv('VECTORIZER_API_URL', '');
  vi.stubEnv('VECTORIZER_API_ID', 'id');
  vi.stubEnv('VECTORIZER_API_SECRET', 'secret');
  return seen;
}

/** The line every remote call prints first (issue 41: a remote call may be charged). */
const REMOTE_NOTICE = 'tracelab: remote: calling https://api.vectorizer.ai/api/v1 (calls there may be charged credits; without --remote tracing is local and free)\n';

describe('tracelab --remote to the real service', () => {
  it('vectorize leaves tracelab.* out of the request and names it in one stderr line', async () => {
    const seen = fakeRealService();
    const io = captureIo();
    const out = join(dir, 'remote.svg');
    const status = await main(['vectorize', input, '-o', out, '--remote', '--mode', 'test', '--param', 'tracelab.gradients=true', '--param', 'processing.max_colors=4'], io);
    expect(io.stderr).toBe(`${REMOTE_NOTICE}${NOTE}tracelab: credits charged: 0.000000\n`);
    expect(status).toBe(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('https://api.vectorizer.ai/api/v1/vectorize');
    expect(seen[0]!.fields).toEqual([
      ['mode', 'test'],
      ['processing.max_colors', '4'],
      ['output.file_format', 'svg'],
    ]);
    expect(readFileSync(out, 'utf8')).toBe(FAKE_SVG);
  });

  it('without extension options: no note, the same request as before', async () => {
    const seen = fakeRealService();
    const io = captureIo();
    expect(await main(['vectorize', input, '-o', join(dir, 'plain.svg'), '--remote', '--mode', 'test'], io)).toBe(0);
    expect(io.stderr).toBe(`${REMOTE_NOTICE}tracelab: credits charged: 0.000000\n`);
    expect(seen[0]!.fields).toEqual([['mode', 'test'], ['output.file_format', 'svg']]);
  });

  it('a bad extension value is still error 1019, and nothing is sent', async () => {
    const seen = fakeRealService();
    const io = captureIo();
    expect(await main(['vectorize', input, '-o', join(dir, 'bad.svg'), '--remote', '--param', 'tracelab.gradients=yes'], io)).toBe(2);
    expect(io.stderr).toMatch(/tracelab: error 1019: tracelab\.gradients must be true or false; received 'yes'\n$/);
    expect(seen).toEqual([]);
  });

  it('batch --out-dir --remote: one note for the batch, no file sends it', async () => {
    const seen = fakeRealService();
    const second = join(dir, 'red2.png');
    writeFileSync(second, redSquarePng());
    const io = captureIo();
    const outDir = join(dir, 'batch');
    const status = await main(['vectorize', input, second, '--out-dir', outDir, '--remote', '--mode', 'test', '--quiet', '--param', 'tracelab.gradients=true'], io);
    expect(status).toBe(0);
    expect(io.stderr.split('\n').filter((l) => l.includes('Not sent to Vectorizer.AI'))).toEqual([NOTE.trimEnd()]);
    expect(io.stderr.startsWith(REMOTE_NOTICE.replace('calling', 'every file is one call to') + NOTE)).toBe(true);
    expect(seen).toHaveLength(2);
    for (const { fields } of seen) expect(fields.some(([name]) => name.startsWith('tracelab.'))).toBe(false);
  });
});

describe('tracelab --remote to a Tracelab server, and the server itself', () => {
  let local: LocalService;
  let server: RunningServer;

  beforeAll(async () => {
    local = openLocalService(readConfig({ TRACELAB_DATA_DIR: join(dir, 'data') }));
    server = await startServer({ handler: local.handler, port: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await local?.account.flush();
  });

  it('VECTORIZER_API_URL on another host is a Tracelab server: the option is sent, no note, and the server traces with it', async () => {
    const sent: string[] = [];
    const realFetch = globalThis.fetch;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push(...[...(init.body as FormData).keys()]);
      return realFetch(url, init);
    });
    vi.stubEnv('VECTORIZER_API_URL', `${server.url}/api/v1`);
    vi.stubEnv('VECTORIZER_API_ID', local.config.credentials.apiId);
    vi.stubEnv('VECTORIZER_API_SECRET', local.config.credentials.apiSecret);
    const io = captureIo();
    const out = join(dir, 'served.svg');
    expect(await main(['vectorize', input, '-o', out, '--remote', '--mode', 'test', '--param', 'tracelab.gradients=true'], io)).toBe(0);
    expect(io.stderr).not.toContain('Not sent');
    expect(sent).toContain('tracelab.gradients');
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml[\s\S]*<\/svg>\s*$/);
  });

  it('the in-process local service (--mode without --remote) accepts it too and keeps it with a retained image', async () => {
    vi.stubEnv('VECTORIZER_API_URL', '');
    vi.stubEnv('TRACELAB_DATA_DIR', join(dir, 'in-process'));
    const io = captureIo();
    const out = join(dir, 'in-process.svg');
    expect(await main(['vectorize', input, '-o', out, '--mode', 'test', '--retention-days', '1', '--param', 'tracelab.gradients=true'], io)).toBe(0);
    expect(io.stderr).not.toContain('Not sent');
    const token = /tracelab: image token: (\S+)\n/.exec(io.stderr)?.[1];
    expect(token).toBeDefined();
    // A later /download of that token re-renders the trace made with the extension.
    const again = captureIo();
    expect(await main(['download', token!, '-o', join(dir, 'again.svg')], again)).toBe(0);
    expect(readFileSync(join(dir, 'again.svg'), 'utf8')).toBe(readFileSync(out, 'utf8'));
  });

  it('POST /api/v1/vectorize: tracelab.gradients=true is accepted; =yes is the API error JSON (400, 1019); /download refuses it (vectorize only)', async () => {
    const post = async (path: string, fields: [string, string][], image = true) => {
      const form = new FormData();
      if (image) form.append('image', new Blob([new Uint8Array(redSquarePng())]), 'red.png');
      for (const [k, v] of fields) form.append(k, v);
      const auth = Buffer.from(`${local.config.credentials.apiId}:${local.config.credentials.apiSecret}`).toString('base64');
      return fetch(`${server.url}/api/v1/${path}`, { method: 'POST', body: form, headers: { Authorization: `Basic ${auth}` } });
    };
    const ok = await post('vectorize', [['mode', 'test'], ['tracelab.gradients', 'true']]);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const bad = await post('vectorize', [['mode', 'test'], ['tracelab.gradients', 'yes']]);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { status: 400, code: 1019, message: "tracelab.gradients must be true or false; received 'yes'" },
      dataReceived: { 'tracelab.gradients': 'yes' },
    });
    const download = await post('download', [['image.token', 'x'], ['tracelab.gradients', 'true']], false);
    expect(download.status).toBe(400);
    expect(((await download.json()) as { error: { code: number; message: string } }).error).toMatchObject({
      code: 1019,
      message: expect.stringContaining('tracelab.gradients is not accepted on /download'),
    });
  });
});

/**
 * Probes of issue 37 item 2 against a real `tracelab serve` (startService on loopback): a form of
 * 800,000 fields — what the 40-MiB body cap admits — used to build its error echo quadratically
 * on the server thread, and every other request (even `/healthz`) waited for it (80,000 fields took
 * 52 s; 800,000 would take hours). Now the parts are counted in one scan before parsing and such a
 * form is 400 / 1019 while the server goes on answering. Nothing here depends on speed: the old
 * code fails by never answering within the test's time.
 */
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FORM_PARTS } from '../../src/api/service-http.js';
import { readConfig } from '../../src/cli/config.js';
import { startService } from '../../src/cli/serve.js';

const ID = 'flood-id';
const SECRET = 'flood-secret';
const AUTH = `Basic ${Buffer.from(`${ID}:${SECRET}`).toString('base64')}`;
const FIELDS = 800_000;

let work: string;
let running: Awaited<ReturnType<typeof startService>>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'tracelab-flood-'));
  const config = readConfig({ TRACELAB_DATA_DIR: work, TRACELAB_THREADS: '0', TRACELAB_API_ID: ID, TRACELAB_API_SECRET: SECRET });
  running = await startService({ host: '127.0.0.1', port: 0, config, writeStderr: () => undefined });
});
afterAll(async () => {
  await running?.finish();
  rmSync(work, { recursive: true, force: true });
});

/** `count` multipart fields `a=1` (52 bytes each with a one-letter boundary: 800,000 fit in 40 MiB). */
function multipartFlood(count: number): Buffer {
  const part = Buffer.from('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n');
  const body = Buffer.alloc(part.length * count + 7);
  for (let i = 0; i < count; i++) part.copy(body, i * part.length);
  body.write('--b--\r\n', part.length * count);
  return body;
}

interface Answer {
  status: number;
  body: string;
}

/**
 * POSTs `body` to /api/v1/vectorize. `uploaded` resolves once the whole body is handed to the
 * socket; `answered` with the answer.
 */
function post(url: string, body: Buffer, contentType: string): { uploaded: Promise<void>; answered: Promise<Answer> } {
  let uploaded!: () => void;
  const upload = new Promise<void>((resolve) => (uploaded = resolve));
  const answered = new Promise<Answer>((resolve, reject) => {
    const req = httpRequest(
      `${url}/api/v1/vectorize`,
      { method: 'POST', headers: { Authorization: AUTH, 'Content-Type': contentType, 'Content-Length': body.length } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body, () => uploaded());
  });
  return { uploaded: upload, answered };
}

describe('a form flood does not freeze the server (issue 37 item 2)', () => {
  it(`${FIELDS.toLocaleString('en')} multipart fields: /healthz is answered once the upload is in, and the flood gets 400 / 1019`, async () => {
    const body = multipartFlood(FIELDS);
    expect(body.length).toBeLessThanOrEqual(40 * 1024 * 1024);
    const flood = post(running.server.url, body, 'multipart/form-data; boundary=b');
    await flood.uploaded;
    const health = await fetch(`${running.server.url}/healthz`);
    expect(health.status).toBe(200);
    const answer = await flood.answered;
    expect(answer.status).toBe(400);
    const parsed = JSON.parse(answer.body) as { error: { code: number; message: string }; dataReceived: unknown };
    expect(parsed.error.code).toBe(1019);
    expect(parsed.error.message).toContain(`more than ${MAX_FORM_PARTS} fields`);
    // The next request is served as usual.
    const account = await fetch(`${running.server.url}/api/v1/account`, { headers: { Authorization: AUTH } });
    expect(account.status).toBe(200);
  }, 120_000);

  it(`${FIELDS.toLocaleString('en')} url-encoded fields: the same`, async () => {
    const body = Buffer.from(Array.from({ length: FIELDS }, () => 'a=1').join('&'));
    const flood = post(running.server.url, body, 'application/x-www-form-urlencoded');
    await flood.uploaded;
    expect((await fetch(`${running.server.url}/healthz`)).status).toBe(200);
    const answer = await flood.answered;
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.body) as { error: { code: number } }).error.code).toBe(1019);
  }, 120_000);
});

/**
 * docs/service.md "Differences from the reference" quotes the service's limits and headers; this
 * keeps each figure there equal to the constant the code uses, and checks the headers it describes
 * on answers of the real handler behind the real node:http server (`tracelab serve`'s stack).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ACCOUNT, LocalAccount } from '../../src/api/account.js';
import { MAX_PALETTE_ENTRIES } from '../../src/api/palette.js';
import { MAX_RETENTION_DAYS } from '../../src/api/pricing.js';
import { createService } from '../../src/api/service.js';
import { AUTH_REALM, ECHO_MAX_CHARS, ECHO_MAX_ENTRIES, MAX_FORM_PARTS, RETRY_AFTER_503_SECONDS } from '../../src/api/service-http.js';
import { DEFAULT_LOGIN_THROTTLE } from '../../src/api/login-throttle.js';
import { MAX_BASE64_CHARS, MAX_IMAGE_BYTES, URL_FETCH_TIMEOUT_MS } from '../../src/api/service-image.js';
import { DEFAULT_QUEUE, RECEIVING_PER_SLOT, withQueueLimit } from '../../src/api/service-queue.js';
import { createMemoryStore } from '../../src/api/storage/index.js';
import { RECEIPT_PREFIX, TEST_TOKEN_PREFIX } from '../../src/api/storage/token.js';
import { DEFAULT_QUEUE_STUCK_MS, DEFAULT_TRACE_TIMEOUT_S, readConfig } from '../../src/cli/config.js';
import { DEFAULT_BODY_TIMEOUT_MS, DEFAULT_MAX_BODY_BYTES, startServer, type RunningServer } from '../../src/cli/server.js';
import { DEFAULT_JOB_TIMEOUT_MS } from '../../src/cli/trace-pool.js';
import { MAX_ACCEPTED_PIXELS, MAX_RESULT_PIXELS } from '../../src/engine/errors.js';
import { redSquarePng } from '../cli/png.js';

const root = join(import.meta.dirname, '..', '..');
const page = readFileSync(join(root, 'docs', 'service.md'), 'utf8');
const section = page.slice(page.indexOf('## Differences from the reference'));
const grouped = (n: number): string => n.toLocaleString('en-US');

/** The table row whose first cell starts with `name`. */
function row(name: string): string {
  const line = section.split('\n').find((l) => l.startsWith(`| ${name}`));
  if (line === undefined) throw new Error(`docs/service.md "Differences from the reference" has no row "${name}"`);
  return line;
}

describe('docs/service.md "Differences from the reference"', () => {
  it('has a row for every limit and header the service has', () => {
    for (const name of [
      'upload size', 'whole request body', '`image.base64`', 'accepted pixels', 'processing size', 'PNG result', 'palette entries',
      'unknown parameters', 'request encoding', 'methods and paths', 'health paths', 'authentication', 'retention', 'unknown or deleted token',
      'token and receipt formats', 'rate limiting', '503 and `Retry-After`', 'server-side timeouts', 'connection timeouts', '`image.url`',
      '`Content-Type`', '`Content-Disposition`', '`Content-Encoding: gzip`', '`Vary`', '`X-Credits-Charged`', '`X-Credits-Calculated`',
      '`X-Image-Token`', '`X-Receipt`', 'prices', 'CORS', 'error body', 'error codes', 'request ids',
    ]) {
      // five cells: name, reference, Tracelab, same?, why
      expect(row(name).split(/(?<!\\)\|/).length - 2, name).toBe(5);
    }
  });

  it('quotes the limits the code uses', () => {
    const config = readConfig({}, '/nonexistent-home');
    expect(row('upload size')).toContain(`${grouped(MAX_IMAGE_BYTES)} bytes for an`);
    expect(row('whole request body')).toContain(`${grouped(DEFAULT_MAX_BODY_BYTES)} bytes`);
    expect(row('`image.base64`')).toContain(`${grouped(MAX_BASE64_CHARS)} characters`);
    expect(row('accepted pixels')).toContain(`| ${grouped(MAX_ACCEPTED_PIXELS)} (`);
    expect(row('PNG result')).toContain(`${grouped(MAX_RESULT_PIXELS)} pixels`);
    expect(row('palette entries')).toContain(`| ${grouped(MAX_PALETTE_ENTRIES)} (`);
    expect(row('retention')).toContain(`0 … ${MAX_RETENTION_DAYS}`);
    expect(row('rate limiting')).toContain(`${DEFAULT_QUEUE.maxInFlight} handled or waiting per \`serve\` process`);
    expect(config.queue).toEqual(DEFAULT_QUEUE);
    expect(row('rate limiting')).toContain(`${config.fleetMaxInFlight} in flight per account`);
    expect(row('rate limiting')).toContain(`\`Retry-After: ${DEFAULT_QUEUE.retryAfterSeconds}\``);
    expect(row('503 and `Retry-After`')).toContain(`\`Retry-After: ${RETRY_AFTER_503_SECONDS}\``);
    expect(DEFAULT_JOB_TIMEOUT_MS).toBe(DEFAULT_TRACE_TIMEOUT_S * 1000);
    expect(config.threads!.jobTimeoutMs).toBe(DEFAULT_TRACE_TIMEOUT_S * 1000);
    expect(row('server-side timeouts')).toContain(`after ${DEFAULT_TRACE_TIMEOUT_S} s`);
    expect(readFileSync(join(root, 'deploy', 'haproxy.cfg'), 'utf8')).toMatch(/^\s*timeout server 200s$/m);
    expect(row('server-side timeouts')).toContain('after 200 s');
    expect(row('`image.url`')).toContain(`${URL_FETCH_TIMEOUT_MS / 1000} s for the whole fetch`);
    expect(row('`image.url`')).toContain(`over ${grouped(MAX_IMAGE_BYTES)} bytes`);
    expect(row('token and receipt formats')).toContain(`\`${TEST_TOKEN_PREFIX}\` + 32`);
    expect(row('token and receipt formats')).toContain(`\`${RECEIPT_PREFIX}\` + 32`);
    expect(row('authentication')).toContain(`\`WWW-Authenticate: Basic realm="${AUTH_REALM}"\``);
    expect(row('error body')).toContain(`cut at ${ECHO_MAX_CHARS} characters`);
    // Issue 37: the form caps, the body deadline, the stuck queue, the login delay.
    expect(row('error body')).toContain(`the first ${ECHO_MAX_ENTRIES} values`);
    expect(row('request encoding')).toContain(`more than ${grouped(MAX_FORM_PARTS)} fields and files`);
    expect(config.bodyTimeoutMs).toBe(DEFAULT_BODY_TIMEOUT_MS);
    expect(row('whole request body')).toContain(`within ${DEFAULT_BODY_TIMEOUT_MS / 1000} s of the request's start`);
    expect(row('connection timeouts')).toContain(`a request body within ${DEFAULT_BODY_TIMEOUT_MS / 1000} s`);
    expect(config.queueStuckMs).toBe(DEFAULT_QUEUE_STUCK_MS);
    expect(row('health paths')).toContain(`\`TRACELAB_QUEUE_STUCK_S\` (${DEFAULT_QUEUE_STUCK_MS / 1000} s)`);
    expect(row('rate limiting')).toContain(`at most ${RECEIVING_PER_SLOT} × ${DEFAULT_QUEUE.maxInFlight} bodies being received`);
    expect(row('authentication')).toContain(`waits ${DEFAULT_LOGIN_THROTTLE.baseDelayMs} ms`);
    expect(row('authentication')).toContain(`up to ${DEFAULT_LOGIN_THROTTLE.maxDelayMs / 1000} s`);
  });

  describe('headers, on a running server', () => {
    let server: RunningServer;
    const auth = { Authorization: `Basic ${btoa('id:secret')}` };
    beforeAll(async () => {
      const handler = withQueueLimit(createService({ store: createMemoryStore(), account: new LocalAccount(DEFAULT_ACCOUNT), credentials: { apiId: 'id', apiSecret: 'secret' } }));
      server = await startServer({ handler, port: 0 });
    });
    afterAll(() => server?.close());

    it('file answers: Content-Type, Content-Disposition, gzip with Vary, credit headers, token', async () => {
      const form = new FormData();
      form.append('image', new Blob([redSquarePng() as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'red.png');
      form.append('mode', 'test');
      form.append('policy.retention_days', '2');
      const res = await fetch(`${server.url}/api/v1/vectorize`, { method: 'POST', body: form, headers: { ...auth, 'Accept-Encoding': 'gzip' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/svg+xml');
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="vectorized.svg"');
      expect(row('`Content-Disposition`')).toContain('`attachment; filename="vectorized.<ext>"`');
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('vary')).toBe('Accept-Encoding');
      expect(res.headers.get('x-credits-charged')).toBe('0.000000');
      expect(res.headers.get('x-credits-calculated')).toBe('1.010000');
      expect(row('`X-Credits-Calculated`')).toContain('`1.010000`');
      expect(res.headers.get('x-image-token')).toMatch(new RegExp(`^${TEST_TOKEN_PREFIX}[a-z2-7]{32}$`));
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      await res.arrayBuffer();
    });

    it('errors: methods, CORS preflight, the outer body cap with dataReceived and X-Credits-Charged', async () => {
      const preflight = await fetch(`${server.url}/api/v1/vectorize`, { method: 'OPTIONS', headers: { Origin: 'http://localhost:5173', 'Access-Control-Request-Method': 'POST' } });
      expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([401, null]);
      await preflight.arrayBuffer();
      const options = await fetch(`${server.url}/api/v1/vectorize`, { method: 'OPTIONS', headers: auth });
      expect([options.status, options.headers.get('allow')]).toEqual([405, 'POST']);
      expect(await options.json()).toMatchObject({ error: { status: 405, code: -1 }, dataReceived: null });
      expect(row('CORS')).toContain('401 without credentials, 405 with them');
      const tooLarge = await fetch(`${server.url}/api/v1/vectorize`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/octet-stream' },
        body: new Uint8Array(DEFAULT_MAX_BODY_BYTES + 1),
      });
      expect(tooLarge.status).toBe(413);
      // Issue 41: the HTTP layer's own answer has the reference's error fields and the credits header.
      expect(await tooLarge.json()).toEqual({ error: { status: 413, code: 1012, message: expect.any(String) }, dataReceived: null });
      expect(tooLarge.headers.get('x-credits-charged')).toBe('0.000000');
      expect(row('error body')).toContain('say `"dataReceived": null`');
      expect(row('`X-Credits-Charged`')).toContain('also on the answers the HTTP layer makes');
    });
  });
});

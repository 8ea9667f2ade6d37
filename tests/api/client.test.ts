import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ACCEPT_FILE,
  ACCEPT_JSON,
  ApiClientError,
  createClient,
  formatFieldValue,
  parseContentDispositionFilename,
  type ClientOptions,
  type FetchLike,
} from '../../src/api/client.js';
import { concurrencyAt, runBatch } from '../../src/api/client-batch.js';
import { TracelabError } from '../../src/engine/errors.js';

interface Call {
  readonly url: string;
  readonly init: RequestInit;
  readonly at: number;
}

type Reply = Response | Error | (() => Response | Promise<Response>);

/** A fetch stub: answers from a queue (the last entry repeats), records every call. */
function stubFetch(...replies: Reply[]): { fetch: FetchLike; calls: Call[] } {
  const calls: Call[] = [];
  const fetch: FetchLike = async (url, init) => {
    calls.push({ url, init, at: Date.now() });
    const reply = replies.length > 1 ? replies.shift()! : replies[0]!;
    if (reply instanceof Error) throw reply;
    return typeof reply === 'function' ? reply() : reply.clone();
  };
  return { fetch, calls };
}

const svg = (headers: Record<string, string> = {}): Response =>
  new Response('<svg/>', { status: 200, headers: { 'Content-Type': 'image/svg+xml', ...headers } });
const apiError = (status: number, code: number, message: string, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify({ error: { status, code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });

function client(fetch: FetchLike, extra: Partial<ClientOptions> = {}) {
  return createClient({ baseUrl: 'http://local.test/api/v1/', apiId: 'id123', apiSecret: 's3cret', fetch, ...extra });
}

const form = (call: Call): FormData => call.init.body as FormData;
const header = (call: Call, name: string): string | null => new Headers(call.init.headers).get(name);

describe('requests', () => {
  it('sends multipart fields, Basic auth and the CLI Accept header', async () => {
    const { fetch, calls } = stubFetch(svg());
    await client(fetch).vectorize(
      { image: new Uint8Array([1, 2, 3]), filename: 'in.png' },
      { mode: 'test', 'output.file_format': 'svg', 'output.svg.fixed_size': true, 'processing.max_colors': 4 },
    );
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call!.url).toBe('http://local.test/api/v1/vectorize');
    expect(call!.init.method).toBe('POST');
    expect(header(call!, 'Authorization')).toBe(`Basic ${btoa('id123:s3cret')}`);
    expect(header(call!, 'Accept')).toBe(ACCEPT_FILE);
    const body = form(call!);
    const image = body.get('image') as File;
    expect(image).toBeInstanceOf(Blob);
    expect(image.name).toBe('in.png');
    expect([...new Uint8Array(await image.arrayBuffer())]).toEqual([1, 2, 3]);
    expect(body.get('mode')).toBe('test');
    expect(body.get('output.svg.fixed_size')).toBe('true');
    expect(body.get('processing.max_colors')).toBe('4');
    expect(body.has('image.url')).toBe(false);
  });

  it.each([
    [{ url: 'https://example.test/a.png' }, 'image.url', 'https://example.test/a.png'],
    [{ base64: 'iVBORw0KGgo=' }, 'image.base64', 'iVBORw0KGgo='],
    [{ token: 'api-test-abc' }, 'image.token', 'api-test-abc'],
  ] as const)('maps input %j to field %s', async (input, field, value) => {
    const { fetch, calls } = stubFetch(svg());
    await client(fetch).vectorize(input, [['mode', 'test']]);
    const body = form(calls[0]!);
    expect(body.get(field)).toBe(value);
    expect([...body.keys()].filter((k) => k.startsWith('image'))).toEqual([field]);
  });

  it('requires exactly one image source and rejects invalid fields before sending', async () => {
    const { fetch, calls } = stubFetch(svg());
    const c = client(fetch);
    await expect(c.vectorize({ url: 'u', token: 't' } as never)).rejects.toThrow(TypeError);
    await expect(c.vectorize({} as never)).rejects.toThrow(TypeError);
    await expect(c.vectorize({ url: 'u' }, [['image.token', 't']])).rejects.toThrow(TypeError);
    const bad = await c.vectorize({ url: 'u' }, { 'processing.max_colors': 999 }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(TracelabError); // the library's own error, not a server answer
    expect((bad as TracelabError).code).toBe(1019);
    await expect(c.download('tok', [['mode', 'test']])).rejects.toMatchObject({ status: 400, code: 1019 });
    expect(calls).toHaveLength(0);
  });

  it('stringifies numbers as plain decimals', () => {
    expect(formatFieldValue(0.125)).toBe('0.125');
    expect(formatFieldValue(1e-7)).toBe('0.0000001');
    expect(formatFieldValue(1e21)).toBe('1000000000000000000000');
    expect(formatFieldValue(-2.5e-8)).toBe('-0.000000025');
    expect(formatFieldValue(1.25e22)).toBe('12500000000000000000000');
    expect(formatFieldValue(false)).toBe('false');
  });

  it('download, delete and account use their endpoints and Accept headers', async () => {
    const { fetch, calls } = stubFetch(
      svg({ 'X-Receipt': 'rcpt-1' }),
      new Response('{"success":true}', { headers: { 'Content-Type': 'application/json' } }),
      new Response('{"subscriptionPlan":"vec_999m_50","subscriptionState":"active","credits":49.5}'),
    );
    const c = client(fetch);
    const dl = await c.download('tok-1', { 'output.file_format': 'pdf', receipt: 'r0' });
    expect(dl.receipt).toBe('rcpt-1');
    expect(await c.delete('tok-1')).toEqual({ success: true });
    expect(await c.account()).toEqual({ subscriptionPlan: 'vec_999m_50', subscriptionState: 'active', credits: 49.5 });
    expect(calls.map((x) => [x.url, x.init.method, header(x, 'Accept')])).toEqual([
      ['http://local.test/api/v1/download', 'POST', ACCEPT_FILE],
      ['http://local.test/api/v1/delete', 'POST', ACCEPT_JSON],
      ['http://local.test/api/v1/account', 'GET', ACCEPT_JSON],
    ]);
    expect([...form(calls[0]!).entries()]).toEqual([
      ['image.token', 'tok-1'],
      ['output.file_format', 'pdf'],
      ['receipt', 'r0'],
    ]);
    expect([...form(calls[1]!).entries()]).toEqual([['image.token', 'tok-1']]);
    expect(calls[2]!.init.body).toBeUndefined();
  });

  it('works with an in-process handler wrapped as fetch', async () => {
    const seen: string[] = [];
    const handler = async (req: Request): Promise<Response> => {
      const data = await req.formData();
      seen.push(req.method, new URL(req.url).pathname, String(data.get('image.url')), req.headers.get('authorization')!);
      return svg({ 'X-Credits-Charged': '0.000000' });
    };
    const c = createClient({
      baseUrl: 'http://in-process.invalid/api/v1',
      apiId: 'a',
      apiSecret: 'b',
      fetch: (input, init) => handler(new Request(input, init)),
    });
    const r = await c.vectorize({ url: 'https://x.test/i.png' }, { mode: 'test' });
    expect(new TextDecoder().decode(r.body)).toBe('<svg/>');
    expect(seen).toEqual(['POST', '/api/v1/vectorize', 'https://x.test/i.png', `Basic ${btoa('a:b')}`]);
  });
});

describe('Tracelab extensions (tracelab.*) and the real service', () => {
  const fields = { mode: 'test', 'tracelab.gradients': true, 'processing.max_colors': 4 } as const;

  it('the real service (default base URL, any *.vectorizer.ai host) never gets them; the result lists what was left out', async () => {
    for (const baseUrl of [undefined, 'https://api.vectorizer.ai/api/v1', 'https://pt.vectorizer.ai/api/v1/']) {
      const { fetch, calls } = stubFetch(svg());
      const c = createClient({ ...(baseUrl ? { baseUrl } : {}), apiId: 'a', apiSecret: 'b', fetch });
      expect(c.realService).toBe(true);
      const r = await c.vectorize({ image: new Uint8Array([1]) }, fields);
      expect([...form(calls[0]!).keys()]).toEqual(['image', 'mode', 'processing.max_colors']);
      expect(r.droppedOptions).toEqual(['tracelab.gradients']);
    }
  });

  it('a Tracelab server (any other host, in-process handlers) gets them; nothing is reported as left out', async () => {
    const { fetch, calls } = stubFetch(svg());
    const c = client(fetch);
    expect(c.realService).toBe(false);
    const r = await c.vectorize({ image: new Uint8Array([1]) }, fields);
    expect(form(calls[0]!).get('tracelab.gradients')).toBe('true');
    expect(r.droppedOptions).toBeUndefined();
    // A look-alike host is not the real service.
    expect(createClient({ baseUrl: 'https://vectorizer.ai.example.com/api/v1', apiId: '', apiSecret: '', fetch }).realService).toBe(false);
  });

  it('realService overrides the guess from the host both ways (a proxy in front of the real service; a Tracelab server on vectorizer.ai)', async () => {
    const proxied = stubFetch(svg());
    await createClient({ baseUrl: 'http://127.0.0.1:8790/api/v1', apiId: 'a', apiSecret: 'b', fetch: proxied.fetch, realService: true }).vectorize(
      { image: new Uint8Array([1]) },
      fields,
    );
    expect(form(proxied.calls[0]!).has('tracelab.gradients')).toBe(false);
    const own = stubFetch(svg());
    await createClient({ apiId: 'a', apiSecret: 'b', fetch: own.fetch, realService: false }).vectorize({ image: new Uint8Array([1]) }, fields);
    expect(form(own.calls[0]!).get('tracelab.gradients')).toBe('true');
  });

  it('a bad extension value is still a 1019 before any request, even for the real service; unknown tracelab.* names are dropped unchecked when validation is off', async () => {
    const { fetch, calls } = stubFetch(svg());
    const real = createClient({ apiId: 'a', apiSecret: 'b', fetch });
    await expect(real.vectorize({ image: new Uint8Array([1]) }, [['tracelab.gradients', 'yes']])).rejects.toMatchObject({ status: 400, code: 1019 });
    expect(calls).toHaveLength(0);
    const r = await createClient({ apiId: 'a', apiSecret: 'b', fetch, validateFields: false }).download('tok', [['tracelab.future', 'x'], ['output.file_format', 'pdf']]);
    expect([...form(calls[0]!).keys()]).toEqual(['image.token', 'output.file_format']);
    expect(r.droppedOptions).toEqual(['tracelab.future']);
  });
});

describe('responses', () => {
  it('parses credits, token, receipt and content-disposition filename', async () => {
    const { fetch } = stubFetch(
      svg({
        'X-Credits-Charged': '0.000000',
        'X-Credits-Calculated': '1.000000',
        'X-Image-Token': 'api-test-xyz',
        'X-Receipt': 'receipt-9',
        'Content-Disposition': 'attachment; filename="result.svg"',
      }),
    );
    const r = await client(fetch).vectorize({ url: 'u' }, { mode: 'test', 'policy.retention_days': 1 });
    expect(r).toMatchObject({
      status: 200,
      contentType: 'image/svg+xml',
      filename: 'result.svg',
      imageToken: 'api-test-xyz',
      receipt: 'receipt-9',
      creditsCharged: 0,
      creditsCalculated: 1,
    });
    expect(r.body).toBeInstanceOf(Uint8Array);
  });

  it('omits absent headers and parses RFC 5987 filenames', async () => {
    const { fetch } = stubFetch(svg({ 'X-Credits-Charged': '0.200000' }));
    const r = await client(fetch).vectorize({ url: 'u' }, { mode: 'preview' });
    expect(r.creditsCharged).toBeCloseTo(0.2, 6);
    expect('filename' in r || 'imageToken' in r || 'receipt' in r || 'creditsCalculated' in r).toBe(false);
    expect(parseContentDispositionFilename(`attachment; filename="a.svg"; filename*=UTF-8''r%C3%A9sultat.svg`)).toBe(
      'résultat.svg',
    );
    expect(parseContentDispositionFilename('inline')).toBeUndefined();
  });

  it('turns the JSON error body into ApiClientError with its code', async () => {
    const { fetch } = stubFetch(apiError(402, 1011, 'Out of credits'));
    const e = await client(fetch).vectorize({ url: 'u' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ApiClientError);
    expect(e).toMatchObject({ status: 402, code: 1011, message: 'Out of credits', name: 'ApiClientError' });
  });

  it('uses code -1 and the text when the error body is not JSON', async () => {
    const { fetch } = stubFetch(new Response('Bad gateway upstream', { status: 502 }));
    await expect(client(fetch).account()).rejects.toMatchObject({ status: 502, code: -1, message: 'Bad gateway upstream' });
  });
});

describe('retries', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const slowDown = (headers: Record<string, string> = {}) => apiError(429, 1015, 'Slow down', headers);

  it('backs off linearly on 429 (5 s, 10 s) and resets the counter after a success', async () => {
    const t0 = Date.now();
    const { fetch, calls } = stubFetch(slowDown(), slowDown(), svg(), slowDown(), svg());
    const c = client(fetch);
    const first = c.vectorize({ url: 'u' }, { mode: 'test' });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(3);
    expect((await first).status).toBe(200);

    const second = c.vectorize({ url: 'u' }, { mode: 'test' });
    await vi.advanceTimersByTimeAsync(5_000); // reset: 5 s again, not 15 s
    expect(calls).toHaveLength(5);
    expect((await second).status).toBe(200);
    expect(calls.map((x) => x.at - t0)).toEqual([0, 5_000, 15_000, 15_000, 20_000]);
  });

  it('waits Retry-After when it is larger than the back-off step', async () => {
    const { fetch, calls } = stubFetch(slowDown({ 'Retry-After': '12' }), svg());
    const p = client(fetch).vectorize({ url: 'u' }, { mode: 'test' });
    await vi.advanceTimersByTimeAsync(11_999);
    expect(calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls).toHaveLength(2);
    await expect(p).resolves.toMatchObject({ status: 200 });
  });

  it('retries 503 with the same back-off', async () => {
    const { fetch, calls } = stubFetch(apiError(503, -3, 'Overloaded'), svg());
    const p = client(fetch).vectorize({ url: 'u' }); // production: 503 is an answer, safe to retry
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(p).resolves.toMatchObject({ status: 200 });
    expect(calls).toHaveLength(2);
  });

  it('gives up after maxAttempts and throws the last error with retryAfterSeconds', async () => {
    const { fetch, calls } = stubFetch(slowDown({ 'Retry-After': '1' }));
    const p = client(fetch, { maxAttempts: 3 }).account();
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000 + 10_000);
    const e = await caught;
    expect(e).toBeInstanceOf(ApiClientError);
    expect(e).toMatchObject({ status: 429, code: 1015, retryAfterSeconds: 1 });
    expect(calls).toHaveLength(3);
  });

  it('does not retry other errors', async () => {
    const { fetch, calls } = stubFetch(apiError(400, 1006, 'Unreadable'));
    await expect(client(fetch).vectorize({ url: 'u' }, { mode: 'test' })).rejects.toMatchObject({ code: 1006 });
    expect(calls).toHaveLength(1);
  });

  it.each([undefined, 'production', 'preview'] as const)(
    'never retries a %s vectorize after a network failure (exactly one fetch)',
    async (mode) => {
      const { fetch, calls } = stubFetch(new TypeError('fetch failed'), svg());
      const fields = mode === undefined ? undefined : { mode };
      await expect(client(fetch).vectorize({ url: 'u' }, fields)).rejects.toThrow('fetch failed');
      expect(calls).toHaveLength(1);
    },
  );

  it('backs off and retries a paid vectorize or a download whose upload was cut (EPIPE: the service never had the request)', async () => {
    const cut = (): TypeError => new TypeError('fetch failed', { cause: Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }) });
    for (const run of [
      (c: ReturnType<typeof client>) => c.vectorize({ url: 'u' }),
      (c: ReturnType<typeof client>) => c.download('tok'),
    ]) {
      const { fetch, calls } = stubFetch(cut(), cut(), svg());
      const p = run(client(fetch));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(calls).toHaveLength(1); // the first back-off is 5 s, as after a 503
      await vi.advanceTimersByTimeAsync(1 + 10_000);
      await expect(p).resolves.toMatchObject({ status: 200 });
      expect(calls).toHaveLength(3);
    }
    // A reset after the upload went through (ECONNRESET) may follow a charge: still not retried.
    const reset = new TypeError('fetch failed', { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) });
    const { fetch, calls } = stubFetch(reset, svg());
    await expect(client(fetch).vectorize({ url: 'u' })).rejects.toThrow('fetch failed');
    expect(calls).toHaveLength(1);
  });

  it('gives up on cut uploads after maxAttempts and throws the network error', async () => {
    const cut = new TypeError('fetch failed', { cause: Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }) });
    const { fetch, calls } = stubFetch(cut);
    const caught = client(fetch, { maxAttempts: 3 }).vectorize({ url: 'u' }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5_000 + 10_000);
    expect(await caught).toBe(cut);
    expect(calls).toHaveLength(3);
  });

  it('never retries a download after a network failure', async () => {
    const { fetch, calls } = stubFetch(new TypeError('fetch failed'), svg());
    await expect(client(fetch).download('tok')).rejects.toThrow('fetch failed');
    expect(calls).toHaveLength(1);
  });

  it('does not retry when the body read fails after a production response', async () => {
    const broken = (): Response =>
      new Response(
        new ReadableStream({
          pull(controller) {
            controller.error(new TypeError('connection reset'));
          },
        }),
        { status: 200 },
      );
    const { fetch, calls } = stubFetch(broken, svg());
    await expect(client(fetch).vectorize({ url: 'u' })).rejects.toThrow('connection reset');
    expect(calls).toHaveLength(1);
  });

  it('retries test modes, account and delete once after a network failure', async () => {
    const okDelete = new Response('{"success":true}');
    const okAccount = new Response('{"subscriptionPlan":"none","subscriptionState":"ended","credits":0}');
    for (const [run, ok] of [
      [(c: ReturnType<typeof client>) => c.vectorize({ url: 'u' }, { mode: 'test' }), svg()],
      [(c: ReturnType<typeof client>) => c.vectorize({ url: 'u' }, { mode: 'test_preview' }), svg()],
      [(c: ReturnType<typeof client>) => c.delete('t'), okDelete],
      [(c: ReturnType<typeof client>) => c.account(), okAccount],
    ] as const) {
      const { fetch, calls } = stubFetch(new TypeError('fetch failed'), ok);
      await run(client(fetch));
      expect(calls).toHaveLength(2);
    }
    // only once
    const { fetch, calls } = stubFetch(new TypeError('fetch failed'));
    await expect(client(fetch).account()).rejects.toThrow('fetch failed');
    expect(calls).toHaveLength(2);
  });

  it('rejects with AbortError promptly when aborted during a back-off wait', async () => {
    const { fetch, calls } = stubFetch(slowDown());
    const controller = new AbortController();
    const p = client(fetch).vectorize({ url: 'u' }, { mode: 'test' }, { signal: controller.signal });
    const caught = p.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(2_000);
    controller.abort();
    const e = await caught;
    expect((e as Error).name).toBe('AbortError');
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toHaveLength(1);
  });

  it('rejects with AbortError when aborted while the request is in flight (even if fetch ignores the signal)', async () => {
    const { fetch } = stubFetch(() => new Promise<Response>(() => undefined));
    const controller = new AbortController();
    const caught = client(fetch)
      .vectorize({ url: 'u' }, { mode: 'test' }, { signal: controller.signal })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect(((await caught) as Error).name).toBe('AbortError');
  });

  it('applies the idle timeout and passes an abortable signal to fetch', async () => {
    let seen: AbortSignal | undefined;
    const fetch: FetchLike = (_url, init) => {
      seen = init.signal ?? undefined;
      return new Promise<Response>(() => undefined);
    };
    const caught = client(fetch, { timeoutMs: 1_000 })
      .vectorize({ url: 'u' })
      .catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(999);
    expect(seen?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(((await caught) as Error).name).toBe('TimeoutError');
    expect(seen?.aborted).toBe(true);
  });

  it('uses an injected sleep for back-off waits', async () => {
    const waits: number[] = [];
    const { fetch } = stubFetch(slowDown(), slowDown(), slowDown({ 'Retry-After': '30' }), svg());
    vi.useRealTimers();
    await client(fetch, {
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).vectorize({ url: 'u' }, { mode: 'test' });
    expect(waits).toEqual([5_000, 10_000, 30_000]);
  });
});

describe('runBatch', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ramps from 5 to 6 concurrent after 5 minutes and keeps input order', async () => {
    const items = Array.from({ length: 12 }, (_, i) => i);
    let active = 0;
    let peak = 0;
    const release: (() => void)[] = [];
    const p = runBatch(items, async (item) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise<void>((r) => release.push(r));
      active--;
      if (item === 3) throw new Error('item 3 failed');
      return item * 10;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(active).toBe(5);
    await vi.advanceTimersByTimeAsync(5 * 60_000 - 1);
    expect(active).toBe(5);
    await vi.advanceTimersByTimeAsync(1);
    expect(active).toBe(6);
    expect(peak).toBe(6);
    // finish in reverse start order; results must still follow input order
    while (release.length > 0 || active > 0) {
      release.splice(0).reverse().forEach((r) => r());
      await vi.advanceTimersByTimeAsync(0);
      expect(active).toBeLessThanOrEqual(6);
    }
    const results = await p;
    expect(results.map((r) => (r.ok ? r.value : (r.error as Error).message))).toEqual([
      0, 10, 20, 'item 3 failed', 40, 50, 60, 70, 80, 90, 100, 110,
    ]);
  });

  it('respects the cap and handles an empty list', async () => {
    expect(concurrencyAt(0, 5, 300_000, 100)).toBe(5);
    expect(concurrencyAt(300_000, 5, 300_000, 100)).toBe(6);
    expect(concurrencyAt(1e12, 5, 300_000, 100)).toBe(100);
    expect(concurrencyAt(1e9, 5, 300_000, 7)).toBe(7);
    await expect(runBatch([], async () => 1)).resolves.toEqual([]);
  });
});

describe('issue 41: client corners — a paid call cut after the upload (a real server on loopback), a call signal that is not one', () => {
  /** A node:http server that reads each whole request, counts it, then resets the connection without answering (a replica killed mid-call). */
  async function cuttingServer(): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
    const { createServer } = await import('node:http');
    let requests = 0;
    const server = createServer((req) => {
      req.resume();
      req.on('end', () => {
        requests++;
        req.socket.resetAndDestroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    return { url: `http://127.0.0.1:${port}/api/v1`, requests: () => requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it.each([
    ['a production vectorize', (c: ReturnType<typeof createClient>) => c.vectorize({ image: new Uint8Array(64 * 1024).fill(1) }), 'vectorize', 'sending it again'],
    ['a download', (c: ReturnType<typeof createClient>) => c.download('tok'), 'download', 'downloading again without the receipt'],
  ] as const)('%s: ApiClientError −20 (status 0) saying it may or may not have been charged and how to check; sent once', async (_, call, path, again) => {
    const server = await cuttingServer();
    try {
      const client = createClient({ baseUrl: server.url, apiId: 'id', apiSecret: 'secret' });
      const e = await call(client).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(e).toBeInstanceOf(ApiClientError);
      const error = e as ApiClientError;
      expect([error.status, error.code]).toEqual([0, -20]);
      expect(error.message).toMatch(new RegExp(`^The connection to ${server.url}/${path} was lost before its answer arrived \\(fetch failed: [^)]+\\): the call may or may not have been charged\\. To check, compare the account's credits \\(GET /account; \`tracelab account --remote\`\\) with those before the call: ${again} may charge it twice\\.$`));
      expect((error.cause as Error).message).toBe('fetch failed');
      expect(server.requests()).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a call signal that is not an AbortSignal is 400 / 1019 before any request, not a TypeError from deep inside', async () => {
    const { fetch, calls } = stubFetch(svg());
    const c = createClient({ baseUrl: 'http://127.0.0.1:9/api/v1', apiId: 'id', apiSecret: 'secret', fetch });
    for (const run of [() => c.vectorize({ url: 'u' }, {}, { signal: 42 as never }), () => c.account({ signal: {} as never })]) {
      await expect(run()).rejects.toMatchObject({ name: 'TracelabError', code: 1019, message: expect.stringMatching(/^signal must be an AbortSignal; received (number|object)$/) });
    }
    expect(calls).toHaveLength(0);
  });

  it('a refused connection (nothing was sent, nothing charged) stays the plain network error', async () => {
    const server = await cuttingServer();
    await server.close(); // its port now refuses connections
    const client = createClient({ baseUrl: server.url, apiId: 'id', apiSecret: 'secret' });
    const e = await client.vectorize({ image: new Uint8Array(16) }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(TypeError);
    expect(((e as Error).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('a test-mode vectorize is free: still retried once, then the plain network error', async () => {
    const server = await cuttingServer();
    try {
      const client = createClient({ baseUrl: server.url, apiId: 'id', apiSecret: 'secret' });
      await expect(client.vectorize({ image: new Uint8Array(16) }, { mode: 'test' })).rejects.toThrow(/^fetch failed$/);
      expect(server.requests()).toBe(2);
    } finally {
      await server.close();
    }
  });
});

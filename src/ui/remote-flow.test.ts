/**
 * Remote mode controller against a fake fetch and a fake sessionStorage: the wire request (URL,
 * Basic auth, fields), proxy URLs, error mapping, and that the credentials never leak into the
 * store's call records, error messages, the console, or storage unless the user opted in.
 */

import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';

import type { FetchLike } from '../api/client.js';
import {
  callRemote,
  connectRemote,
  extensionFor,
  forget,
  loadRememberedCredentials,
  persistCredentials,
  proxyUrlProblem,
  redact,
  remoteBaseUrl,
  remoteCostText,
  remoteNotSentNote,
  REMOTE_STORAGE_KEY,
  type KeyValueStorage,
} from './remote-flow.js';
import { createTracelabStore, type ServiceCall, type TracelabStore } from './store.js';

const API_ID = 'vk_id_4f9a1c2e';
const API_SECRET = 's3cr3t-Pa55word-9d8e7f';
const BASIC = `Basic ${Buffer.from(`${API_ID}:${API_SECRET}`).toString('base64')}`;
/** Every form the credentials could leak in. */
const LEAKS = [API_ID, API_SECRET, BASIC.slice(6)];

const SVG = '<?xml version="1.0" encoding="UTF-8"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"/>';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  form: FormData;
}

/** A fake service: records each request and answers with `respond` (default: a test-mode SVG). */
function fakeFetch(respond: (sent: Sent) => Response | Promise<Response> = () => svgResponse()) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    const s: Sent = { url: input, method: init.method ?? 'GET', headers, form: init.body as FormData };
    sent.push(s);
    return respond(s);
  };
  return { fetch, sent };
}

function svgResponse(extra: Record<string, string> = {}): Response {
  return new Response(SVG, {
    status: 200,
    headers: {
      'Content-Type': 'image/svg+xml',
      'X-Credits-Charged': '0.000000',
      'X-Credits-Calculated': '1.000000',
      ...extra,
    },
  });
}

function errorResponse(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ error: { status, code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Basic realm="Vectorizer.AI"' },
  });
}

/** A Web Storage stand-in that counts writes. */
function fakeStorage(): KeyValueStorage & { map: Map<string, string>; writes: number } {
  const map = new Map<string, string>();
  return {
    map,
    writes: 0,
    getItem: (k) => map.get(k) ?? null,
    setItem(k, v) {
      this.writes++;
      map.set(k, v);
    },
    removeItem: (k) => void map.delete(k),
  };
}

function storeWithImage(): TracelabStore {
  const store = createTracelabStore();
  store.getState().setSource({ name: 'logo.png', bytes: new Uint8Array([137, 80, 78, 71, 1, 2, 3]), size: 7, type: 'image/png' });
  store.getState().setRemote({ apiId: API_ID, apiSecret: API_SECRET });
  return store;
}

function expectNoCredentials(text: string): void {
  for (const leak of LEAKS) expect(text).not.toContain(leak);
}

const consoleMethods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
let consoleSpies: MockInstance[] = [];
beforeEach(() => {
  consoleSpies = consoleMethods.map((m) => vi.spyOn(console, m).mockImplementation(() => undefined));
});
afterEach(() => {
  for (const spy of consoleSpies) {
    for (const call of spy.mock.calls) expectNoCredentials(call.map((a) => (a instanceof Error ? `${a.message}\n${a.stack}` : String(a))).join(' '));
  }
  vi.restoreAllMocks();
});

describe('callRemote: the request', () => {
  it('posts the image, the option fields and the service mode with Basic auth to the real service', async () => {
    const store = storeWithImage();
    store.getState().setOption('processing.max_colors', 4);
    store.getState().setOption('output.shape_stacking', 'stacked');
    const { fetch, sent } = fakeFetch();
    const call = await callRemote(store, { fetch });

    expect(sent).toHaveLength(1);
    const [req] = sent;
    expect(req!.url).toBe('https://api.vectorizer.ai/api/v1/vectorize');
    expect(req!.method).toBe('POST');
    expect(req!.headers['authorization']).toBe(BASIC);
    expect(req!.form.get('mode')).toBe('test'); // store.service.mode (default test: free)
    expect(req!.form.get('processing.max_colors')).toBe('4');
    expect(req!.form.get('output.shape_stacking')).toBe('stacked');
    expect(req!.form.get('policy.retention_days')).toBeNull();
    const image = req!.form.get('image') as File;
    expect(image.name).toBe('logo.png');
    expect([...new Uint8Array(await image.arrayBuffer())]).toEqual([137, 80, 78, 71, 1, 2, 3]);

    const { remote } = store.getState();
    expect(remote.busy).toBe(false);
    expect(call).toBe(remote.last);
    expect(remote.last).toMatchObject({
      endpoint: 'vectorize',
      mode: 'test',
      status: 200,
      contentType: 'image/svg+xml',
      charged: 0,
      calculated: 1,
      token: null,
      error: null,
    });
    expect(new TextDecoder().decode(remote.file!.body)).toBe(SVG);
    expect(remote.file!.extension).toBe('svg');
  });

  it('uses the mode of the service panel, or an explicit override', async () => {
    const store = storeWithImage();
    store.getState().setService({ mode: 'preview' });
    const { fetch, sent } = fakeFetch(() =>
      new Response(new Uint8Array([137, 80, 78, 71]), {
        headers: { 'Content-Type': 'image/png', 'X-Credits-Charged': '0.200000', 'X-Image-Token': 'tok123' },
      }),
    );
    await callRemote(store, { fetch });
    expect(sent[0]!.form.get('mode')).toBe('preview');
    expect(store.getState().remote.last).toMatchObject({ mode: 'preview', charged: 0.2, token: 'tok123', contentType: 'image/png' });
    expect(store.getState().remote.file!.extension).toBe('png');
    await callRemote(store, { fetch, mode: 'test_preview' });
    expect(sent[1]!.form.get('mode')).toBe('test_preview');
  });

  it('sends to the proxy URL when one is set', async () => {
    const store = storeWithImage();
    const { fetch, sent } = fakeFetch();
    store.getState().setRemote({ proxyUrl: 'http://127.0.0.1:8790' });
    await callRemote(store, { fetch });
    store.getState().setRemote({ proxyUrl: 'https://proxy.example.com/vectorizer/api/v1/' });
    await callRemote(store, { fetch });
    expect(sent.map((s) => s.url)).toEqual([
      'http://127.0.0.1:8790/api/v1/vectorize',
      'https://proxy.example.com/vectorizer/api/v1/vectorize',
    ]);
    expect(sent.every((s) => s.headers['authorization'] === BASIC)).toBe(true);
  });

  it('never sends Tracelab extension options, directly or through a proxy; the note names them while they are set', async () => {
    const store = storeWithImage();
    expect(remoteNotSentNote(store.getState().options)).toBe('');
    store.getState().setOption('tracelab.gradients', true);
    store.getState().setOption('processing.max_colors', 4);
    expect(remoteNotSentNote(store.getState().options)).toBe('Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension)');
    const { fetch, sent } = fakeFetch();
    await callRemote(store, { fetch });
    // A proxy has another host, and still fronts the real service.
    store.getState().setRemote({ proxyUrl: 'http://127.0.0.1:8790' });
    await callRemote(store, { fetch });
    expect(sent).toHaveLength(2);
    for (const req of sent) {
      expect([...req.form.keys()]).toEqual(['image', 'processing.max_colors', 'mode']);
    }
    expect(store.getState().remote.last).toMatchObject({ status: 200, error: null });
    store.getState().setOption('tracelab.gradients', false);
    expect(remoteNotSentNote(store.getState().options)).toBe('');
    // tracelab.profile is dropped the same way (the rule is the prefix, not a list).
    store.getState().setOption('tracelab.profile', 'photo');
    expect(remoteNotSentNote(store.getState().options)).toBe('Not sent to Vectorizer.AI: tracelab.profile (a Tracelab extension)');
    await callRemote(store, { fetch });
    expect([...sent[2]!.form.keys()]).toEqual(['image', 'processing.max_colors', 'mode']);
    store.getState().setOption('tracelab.profile', 'auto');
    store.getState().setOption('tracelab.strokes', 'centerline');
    store.getState().setOption('tracelab.max_stroke_width', 3);
    expect(remoteNotSentNote(store.getState().options)).toBe('Not sent to Vectorizer.AI: tracelab.strokes, tracelab.max_stroke_width (Tracelab extensions)');
    await callRemote(store, { fetch });
    expect([...sent[3]!.form.keys()]).toEqual(['image', 'processing.max_colors', 'mode']);
    store.getState().setOption('tracelab.strokes', 'none');
    store.getState().setOption('tracelab.max_stroke_width', 0);
    store.getState().setOption('tracelab.layers', true);
    expect(remoteNotSentNote(store.getState().options)).toBe('Not sent to Vectorizer.AI: tracelab.layers (a Tracelab extension)');
    await callRemote(store, { fetch });
    expect([...sent[4]!.form.keys()]).toEqual(['image', 'processing.max_colors', 'mode']);
  });

  it('refuses proxy URLs that would leak the credentials, without a request', async () => {
    const store = storeWithImage();
    const { fetch, sent } = fakeFetch();
    for (const bad of ['http://proxy.example.com', 'http://[::1]:8790', 'https://user:pw@proxy.example.com', 'ftp://x', 'not a url', 'https://p.example/?k=1']) {
      expect(proxyUrlProblem(bad), bad).toBeDefined();
      store.getState().setRemote({ proxyUrl: bad });
      await callRemote(store, { fetch });
      expect(store.getState().remote.last!.error!.message).toBe(proxyUrlProblem(bad));
    }
    expect(sent).toHaveLength(0);
    expect(proxyUrlProblem('')).toBeUndefined();
    expect(proxyUrlProblem('http://localhost:8790/')).toBeUndefined();
    expect(remoteBaseUrl('')).toBe('https://api.vectorizer.ai/api/v1');
    expect(remoteBaseUrl(' http://127.0.0.1:9000// ')).toBe('http://127.0.0.1:9000/api/v1');
  });

  it('asks for credentials and an image before calling', async () => {
    const { fetch, sent } = fakeFetch();
    const store = createTracelabStore();
    await callRemote(store, { fetch });
    expect(store.getState().remote.last!.error!.message).toBe('Choose an image first.');
    const withImage = storeWithImage();
    withImage.getState().setRemote({ apiSecret: '' });
    await callRemote(withImage, { fetch });
    expect(withImage.getState().remote.last!.error!.message).toBe('Enter your API Id and API Secret first.');
    expect(sent).toHaveLength(0);
  });

  it('does not start a second call while one runs', async () => {
    const store = storeWithImage();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { fetch, sent } = fakeFetch(async () => {
      await gate;
      return svgResponse();
    });
    const first = callRemote(store, { fetch });
    expect(store.getState().remote.busy).toBe(true);
    expect(await callRemote(store, { fetch })).toBeNull();
    release();
    await first;
    expect(sent).toHaveLength(1);
    expect(store.getState().remote.busy).toBe(false);
  });
});

describe('callRemote: errors', () => {
  it('maps a 401 to the API error code and message, and clears an older result', async () => {
    const store = storeWithImage();
    await callRemote(store, fakeFetch());
    expect(store.getState().remote.file).not.toBeNull();
    await callRemote(store, fakeFetch(() => errorResponse(401, 1004, 'Invalid API secret.')));
    const { last, file, busy } = store.getState().remote;
    expect(last).toMatchObject({ status: 401, error: { code: 1004, message: 'Invalid API secret.' }, charged: null });
    expect(file).toBeNull();
    expect(busy).toBe(false);
    expect(remoteCostText(last!)).toBe(`mode test · HTTP 401 · error 1004: Invalid API secret. · ${last!.ms} ms`);
  });

  it('maps 402 / 1008 and a non-JSON error page', async () => {
    const store = storeWithImage();
    await callRemote(store, fakeFetch(() => errorResponse(402, 1008, 'An API subscription is required.')));
    expect(store.getState().remote.last).toMatchObject({ status: 402, error: { code: 1008 } });
    await callRemote(store, fakeFetch(() => new Response('Bad gateway', { status: 502 })));
    expect(store.getState().remote.last).toMatchObject({ status: 502, error: { code: -1, message: 'Bad gateway' } });
  });

  it('retries 429 through the client back-off, then succeeds', async () => {
    const store = storeWithImage();
    let n = 0;
    const { fetch, sent } = fakeFetch(() => (++n === 1 ? errorResponse(429, 1015, 'Slow down.') : svgResponse()));
    await callRemote(store, { fetch, backoffStepMs: 1 });
    expect(sent).toHaveLength(2);
    expect(store.getState().remote.last).toMatchObject({ status: 200, error: null });
  });

  it('explains a blocked or unreachable service (CORS) with the proxy and CLI ways out', async () => {
    const store = storeWithImage();
    await callRemote(store, fakeFetch(() => Promise.reject(new TypeError('Failed to fetch'))));
    const { last } = store.getState().remote;
    expect(last).toMatchObject({ status: 0, error: { code: 0 } });
    expect(last!.error!.message).toMatch(/did not reach api\.vectorizer\.ai \(Failed to fetch\)/);
    expect(last!.error!.message).toMatch(/CORS/);
    expect(last!.error!.message).toMatch(/proxy URL/);
    expect(last!.error!.message).toMatch(/--remote/);
  });

  it('reports a cancelled call', async () => {
    const store = storeWithImage();
    const controller = new AbortController();
    const { fetch } = fakeFetch(
      (s) =>
        new Promise<Response>((_, reject) => {
          void s;
          controller.signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = callRemote(store, { fetch, signal: controller.signal });
    controller.abort();
    await pending;
    expect(store.getState().remote.last!.error!.message).toBe('The call was cancelled.');
    expect(store.getState().remote.busy).toBe(false);
  });

  it('never records, throws or logs the credentials, even when a hostile proxy echoes them', async () => {
    const store = storeWithImage();
    const echoes: ((s: Sent) => Response | Promise<Response>)[] = [
      (s) => errorResponse(401, 1001, `Unknown id ${API_ID} (auth ${s.headers['authorization']}, secret ${API_SECRET})`),
      (s) => new Response(`<html>proxy error: ${s.headers['authorization']} ${API_ID}:${API_SECRET}</html>`, { status: 500 }),
      () => Promise.reject(new TypeError(`connect failed for ${API_ID}:${API_SECRET}`)),
      () => Promise.reject(new Error(`boom ${BASIC}`)),
    ];
    const calls: ServiceCall[] = [];
    for (const respond of echoes) {
      const call = await callRemote(store, fakeFetch(respond));
      calls.push(call!);
      expect(call!.error).not.toBeNull();
      expect(call!.error!.message).toContain('[redacted]');
    }
    expectNoCredentials(JSON.stringify(calls));
    expectNoCredentials(calls.map(remoteCostText).join('\n'));
    // The console checks run in afterEach; this flow logs nothing at all.
    for (const spy of consoleSpies) expect(spy).not.toHaveBeenCalled();
  });

  it('redacts Id, Secret and the Basic header but leaves very short values alone', () => {
    expect(redact(`a ${API_ID} b ${API_SECRET} c ${BASIC}`, API_ID, API_SECRET)).toBe('a [redacted] b [redacted] c [redacted]');
    expect(redact('a cat', 'a', 'cat')).toBe('a cat');
  });
});

describe('credentials storage', () => {
  it('remember=false never writes storage', async () => {
    const storage = fakeStorage();
    const store = createTracelabStore();
    const disconnect = connectRemote(store, storage);
    store.getState().setRemote({ apiId: API_ID });
    store.getState().setRemote({ apiSecret: API_SECRET, proxyUrl: 'http://127.0.0.1:8790' });
    persistCredentials(store, storage);
    await callRemote(store, fakeFetch());
    expect(storage.writes).toBe(0);
    expect(storage.map.size).toBe(0);
    disconnect();
  });

  it('remember=true keeps exactly one sessionStorage entry in step; forget empties memory and storage', () => {
    const storage = fakeStorage();
    const store = createTracelabStore();
    const disconnect = connectRemote(store, storage);
    store.getState().setRemote({ apiId: API_ID, apiSecret: 'first' });
    store.getState().setRemote({ remember: true });
    expect(JSON.parse(storage.map.get(REMOTE_STORAGE_KEY)!)).toEqual({ apiId: API_ID, apiSecret: 'first', proxyUrl: '' });
    store.getState().setRemote({ apiSecret: API_SECRET });
    expect(JSON.parse(storage.map.get(REMOTE_STORAGE_KEY)!)).toEqual({ apiId: API_ID, apiSecret: API_SECRET, proxyUrl: '' });
    expect([...storage.map.keys()]).toEqual([REMOTE_STORAGE_KEY]);

    // Unticking remember removes the stored copy but keeps the credentials in memory.
    store.getState().setRemote({ remember: false });
    expect(storage.map.size).toBe(0);
    expect(store.getState().remote.apiSecret).toBe(API_SECRET);

    store.getState().setRemote({ remember: true });
    expect(storage.map.size).toBe(1);
    forget(store, storage);
    expect(storage.map.size).toBe(0);
    expect(store.getState().remote).toMatchObject({ apiId: '', apiSecret: '', remember: false });
    disconnect();
  });

  it('forget clears the stored copy even when nothing is connected', () => {
    const storage = fakeStorage();
    storage.setItem(REMOTE_STORAGE_KEY, JSON.stringify({ apiId: API_ID, apiSecret: API_SECRET, proxyUrl: '' }));
    const store = createTracelabStore();
    forget(store, storage);
    expect(storage.map.size).toBe(0);
  });

  it('restores remembered credentials in a new page of the same tab; drops a malformed entry', () => {
    const storage = fakeStorage();
    storage.setItem(REMOTE_STORAGE_KEY, JSON.stringify({ apiId: API_ID, apiSecret: API_SECRET, proxyUrl: 'http://localhost:8790' }));
    const store = createTracelabStore();
    expect(loadRememberedCredentials(store, storage)).toBe(true);
    expect(store.getState().remote).toMatchObject({ apiId: API_ID, apiSecret: API_SECRET, proxyUrl: 'http://localhost:8790', remember: true });

    storage.setItem(REMOTE_STORAGE_KEY, '{not json');
    expect(loadRememberedCredentials(createTracelabStore(), storage)).toBe(false);
    expect(storage.map.size).toBe(0);
  });

  it('survives a storage that throws (disabled storage)', () => {
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = createTracelabStore();
    const disconnect = connectRemote(store, broken);
    store.getState().setRemote({ apiId: API_ID, apiSecret: API_SECRET, remember: true });
    forget(store, broken);
    expect(store.getState().remote.apiSecret).toBe('');
    disconnect();
  });
});

describe('results and the cost line', () => {
  it('a new source drops the remote result; a result for a replaced source is not shown', async () => {
    const store = storeWithImage();
    const disconnect = connectRemote(store, null);
    await callRemote(store, fakeFetch());
    expect(store.getState().remote.file).not.toBeNull();
    store.getState().setSource({ name: 'b.png', bytes: new Uint8Array([1]), size: 1, type: 'image/png' });
    expect(store.getState().remote.file).toBeNull();

    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const pending = callRemote(
      store,
      fakeFetch(async () => {
        await gate;
        return svgResponse();
      }),
    );
    store.getState().setSource({ name: 'c.png', bytes: new Uint8Array([2]), size: 1, type: 'image/png' });
    release();
    await pending;
    expect(store.getState().remote.last).toMatchObject({ status: 200, charged: 0 }); // the cost is still shown
    expect(store.getState().remote.file).toBeNull();
    disconnect();
  });

  it('formats the cost line from the headers', () => {
    const base: ServiceCall = {
      endpoint: 'vectorize',
      mode: 'test',
      status: 200,
      contentType: 'image/svg+xml',
      charged: 0,
      calculated: 1,
      token: null,
      receipt: null,
      error: null,
      ms: 1234,
      id: 1,
    };
    expect(remoteCostText(base)).toBe('mode test · HTTP 200 · charged 0.000000 credits · would cost 1.000000 · 1,234 ms');
    expect(remoteCostText({ ...base, mode: 'production', charged: 1, calculated: 1, token: 'T' })).toBe(
      'mode production · HTTP 200 · charged 1.000000 credits · image token T · 1,234 ms',
    );
    expect(remoteCostText({ ...base, charged: null, calculated: null })).toBe('mode test · HTTP 200 · charged: no X-Credits-Charged header · 1,234 ms');
    expect(extensionFor('application/pdf')).toBe('pdf');
    expect(extensionFor('image/svg+xml; charset=utf-8')).toBe('svg');
    expect(extensionFor('text/html')).toBe('bin');
  });
});

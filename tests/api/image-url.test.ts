/**
 * The service's `image.url` (urlBytes, src/api/service-image.ts) and the playground's image URL
 * (fetchImageUrl, src/ui/image-sources.ts) make their checks through the same functions
 * (src/api/image-url.ts): the same condition gives the same status and code in both, and the same
 * message — except for a fetch that failed, where the service gives one message whatever the
 * cause (it must not tell what answers behind an address) and the page says more.
 */
import { describe, expect, it } from 'vitest';

import { urlNotFetchedError } from '../../src/api/image-url.js';
import { urlBytes } from '../../src/api/service-image.js';
import { MAX_IMAGE_BYTES, TracelabError } from '../../src/engine/errors.js';
import { fetchImageUrl } from '../../src/ui/image-sources.js';

type Answer = (signal: AbortSignal) => Promise<Response>;

async function errorOf(promise: Promise<unknown>): Promise<{ status: number; code: number; message: string }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof TracelabError) return { status: e.status, code: e.code, message: e.message };
    throw e;
  }
  throw new Error('expected a TracelabError');
}

/** The error of each side for the address `raw` answered by `answer`. */
async function both(raw: string, answer: Answer, timeoutMs = 5_000) {
  const service = await errorOf(urlBytes(raw, (_url, signal) => answer(signal), timeoutMs));
  const page = await errorOf(fetchImageUrl(raw, 'https://playground.example/', { timeoutMs, fetch: (_url, init) => answer(init.signal!) }));
  return { service, page };
}

const never: Answer = () => Promise.reject(new Error('not fetched'));
/** An answer made afresh for each side (a body stream can be read once). */
const png = (init: ResponseInit = {}, body: () => BodyInit | null = () => new Uint8Array(8)): Answer => async () =>
  new Response(body(), { status: 200, ...init, headers: { 'Content-Type': 'image/png', ...(init.headers as Record<string, string>) } });
/** More than MAX_IMAGE_BYTES, 1 MiB at a time. */
const endless = (): ReadableStream<Uint8Array> => {
  const chunk = new Uint8Array(1 << 20);
  return new ReadableStream({ pull: (c) => c.enqueue(chunk) });
};
const hang: Answer = (signal) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason)));

describe('image URL checks: one code and message per condition, service and playground', () => {
  const cases: [string, string, Answer, number, number][] = [
    ['empty', '  ', never, 400, 1024],
    ['words, not an address', 'not a url', never, 400, 1024],
    ['unparsable', 'http://[bad', never, 400, 1024],
    ['not http(s)', 'ftp://images.example/a.png', never, 400, 1024],
    ['not HTTP 200', 'https://images.example/a.png', png({ status: 404, statusText: 'Not Found' }), 400, 1020],
    ['a web page', 'https://images.example/a.png', png({ headers: { 'Content-Type': 'text/html; charset=utf-8' } }, () => '<html>'), 400, 1021],
    ['declared too large', 'https://images.example/a.png', png({ headers: { 'Content-Length': String(MAX_IMAGE_BYTES + 1) } }), 413, 1012],
    ['streamed too large', 'https://images.example/a.png', png({}, endless), 413, 1012],
  ];
  it.each(cases)('%s', async (name, raw, answer, status, code) => {
    const { service, page } = await both(raw, answer);
    expect(service).toMatchObject({ status, code });
    if (name === 'not HTTP 200') {
      // The service does not say what the address answered; the page (the user's own browser) does.
      expect(service.message).toBe(urlNotFetchedError('https://images.example/a.png').message);
      expect(page).toEqual({ status, code, message: 'https://images.example/a.png answered HTTP 404 Not Found instead of an image.' });
    } else expect(page).toEqual(service);
  });

  it('credentials in the address: 1024 on both sides, and neither message quotes them', async () => {
    const { service, page } = await both('https://alice7:hunter2@images.example/a.png', never);
    expect(service).toMatchObject({ status: 400, code: 1024 });
    expect(page).toEqual(service);
    expect(service.message).not.toMatch(/hunter2|alice7/);
  });

  it('timed out: the service gives its one message, the page names the time', async () => {
    const { service, page } = await both('https://images.example/slow.png', hang, 20);
    expect(service).toEqual({ status: 400, code: 1022, message: urlNotFetchedError('https://images.example/slow.png').message });
    expect(page).toMatchObject({ status: 400, code: 1022, message: expect.stringContaining('took longer than 0.02 s') });
  });

  it('not fetched: the same code; the service never repeats the network error, the page gives the reason it knows (CORS or network)', async () => {
    const { service, page } = await both('https://images.example/a.png', () => Promise.reject(new TypeError('getaddrinfo ENOTFOUND images.example')));
    expect(service).toEqual({ status: 400, code: 1022, message: urlNotFetchedError('https://images.example/a.png').message });
    expect(service.message).not.toContain('ENOTFOUND');
    expect(page).toMatchObject({ status: 400, code: 1022, message: expect.stringMatching(/^Could not fetch https:\/\/images\.example\/a\.png: .*\(CORS\)/) });
  });

  it('where the rules differ on purpose: the service wants image/*, the page looks at the bytes', async () => {
    const octets = png({ headers: { 'Content-Type': 'application/octet-stream' } });
    expect(await errorOf(urlBytes('https://images.example/a.bin', (_u, s) => octets(s)))).toMatchObject({ status: 400, code: 1021 });
    await expect(fetchImageUrl('https://images.example/a.bin', 'https://playground.example/', { fetch: (_u, init) => octets(init.signal!) })).resolves.toMatchObject({ size: 8 });
  });
});

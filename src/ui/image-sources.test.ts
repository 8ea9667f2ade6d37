/** Image URL and base64 sources of the page: API-style error codes, size cap, timeout, abort. */

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

import { TracelabError } from '../engine/errors.js';
import { decodeBase64Image, fetchImageUrl, fileNameOfUrl, MAX_SOURCE_BYTES } from './image-sources.js';

const png = new Uint8Array(readFileSync(new URL('../../public/samples/shapes.png', import.meta.url)));
const b64 = Buffer.from(png).toString('base64');
const BASE = 'http://example.test/app/';

async function failure(promise: Promise<unknown>): Promise<TracelabError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof TracelabError) return err;
    throw err;
  }
  throw new Error('expected a TracelabError');
}

function failureOf(fn: () => unknown): TracelabError {
  try {
    fn();
  } catch (err) {
    if (err instanceof TracelabError) return err;
    throw err;
  }
  throw new Error('expected a TracelabError');
}

describe('decodeBase64Image', () => {
  it('accepts raw base64, wrapped lines, URL-safe text and data: URLs', () => {
    for (const text of [b64, b64.replace(/(.{76})/g, '$1\n'), `  ${b64}  `, `data:image/png;base64,${b64}`, b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')]) {
      const source = decodeBase64Image(text);
      expect(Buffer.from(source.bytes).equals(Buffer.from(png))).toBe(true);
      expect(source).toMatchObject({ name: 'base64 image.png', size: png.length, type: 'image/png' });
    }
  });

  it('reports bad text as 1006 with what is wrong', () => {
    expect(failureOf(() => decodeBase64Image(''))).toMatchObject({ code: 1006 });
    const bad = failureOf(() => decodeBase64Image('iVBOR*w0KGgo'));
    expect(bad.code).toBe(1006);
    expect(bad.message).toBe('Failed to read the supplied image: the text is not valid base64 (unexpected "*" at character 6).');
    expect(failureOf(() => decodeBase64Image('data:image/png,%89PNG')).message).toMatch(/not base64-encoded/);
    expect(failureOf(() => decodeBase64Image('abcde')).message).toMatch(/truncated/);
    expect(failureOf(() => decodeBase64Image('ab=cd')).message).toMatch(/padding/);
  });

  it('caps the decoded size at 31,457,280 bytes (1012) before decoding', () => {
    const big = 'A'.repeat(Math.ceil((MAX_SOURCE_BYTES + 3) / 3) * 4);
    expect(failureOf(() => decodeBase64Image(big))).toMatchObject({ code: 1012, status: 413 });
  });

  it('non-image bytes still decode (the tracer reports 1006 for them)', () => {
    expect(decodeBase64Image(Buffer.from('hello').toString('base64'))).toMatchObject({ name: 'base64 image.bin', size: 5 });
  });
});

describe('fetchImageUrl', () => {
  const answer = (body: BodyInit | null, init: ResponseInit = {}) => async () => new Response(body, { status: 200, headers: { 'Content-Type': 'image/png' }, ...init });

  it('fetches relative and absolute URLs; the name is the last path segment', async () => {
    const seen: string[] = [];
    const source = await fetchImageUrl('samples/my%20logo.png?x=1', BASE, {
      fetch: async (url, init) => {
        seen.push(url);
        expect(init.credentials).toBe('omit');
        return new Response(png, { headers: { 'Content-Type': 'application/octet-stream' } });
      },
    });
    expect(seen).toEqual(['http://example.test/app/samples/my%20logo.png?x=1']);
    expect(source).toMatchObject({ name: 'my logo.png', size: png.length, type: 'image/png' });
    expect(fileNameOfUrl(new URL('https://x.test/'))).toBe('image');
  });

  it('maps failures to the API codes', async () => {
    expect(await failure(fetchImageUrl('', BASE))).toMatchObject({ code: 1024 });
    expect(await failure(fetchImageUrl('ftp://x.test/a.png', BASE))).toMatchObject({ code: 1024 });
    expect(await failure(fetchImageUrl('http://[bad', BASE))).toMatchObject({ code: 1024 });
    // Words are not an address: no fetch of the page, no "is a web page" (issue 29 item 7).
    let fetched = 0;
    const words = await failure(fetchImageUrl('not a url', BASE, { fetch: async () => (fetched++, new Response('<html></html>', { headers: { 'Content-Type': 'text/html' } })) }));
    expect(words).toMatchObject({ code: 1024, message: '"not a url" is not an image address; enter one such as https://example.com/logo.png.' });
    expect(fetched).toBe(0);
    // Plain http only to this machine (or the page's own origin): the page's CSP allows no more.
    expect((await failure(fetchImageUrl('http://elsewhere.test/a.png', BASE))).message).toMatch(/https:\/\//);
    const ok = { fetch: async () => new Response(png, { headers: { 'Content-Type': 'image/png' } }) };
    for (const u of ['http://localhost:8080/a.png', 'http://127.0.0.1/a.png', 'http://[::1]:1/a.png', 'http://example.test/other/a.png']) {
      expect((await fetchImageUrl(u, BASE, ok)).size).toBe(png.length);
    }
    const cors = await failure(fetchImageUrl('https://elsewhere.test/a.png', BASE, { fetch: () => Promise.reject(new TypeError('Failed to fetch')) }));
    expect(cors.code).toBe(1022);
    expect(cors.message).toMatch(/CORS/);
    expect(cors.message.split('. ').length).toBe(1); // one sentence
    expect(await failure(fetchImageUrl('a.png', BASE, { fetch: answer('nope', { status: 404, statusText: 'Not Found' }) }))).toMatchObject({
      code: 1020,
      message: 'http://example.test/app/a.png answered HTTP 404 Not Found instead of an image.',
    });
    expect(await failure(fetchImageUrl('a.png', BASE, { fetch: answer('<html>', { headers: { 'Content-Type': 'text/html; charset=utf-8' } }) }))).toMatchObject({ code: 1021 });
  });

  it('stops at the byte cap: declared or streamed', async () => {
    const declared = await failure(
      fetchImageUrl('a.png', BASE, { fetch: answer(png, { headers: { 'Content-Length': String(MAX_SOURCE_BYTES + 1) } }) }),
    );
    expect(declared).toMatchObject({ code: 1012, status: 413 });
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1000));
      },
      cancel() {
        cancelled = true;
      },
    });
    const streamed = await failure(fetchImageUrl('a.png', BASE, { maxBytes: 5000, fetch: answer(stream) }));
    expect(streamed.code).toBe(1012);
    expect(cancelled).toBe(true);
  });

  it('times out (1022) and honours the caller abort', async () => {
    const hang = (_url: string, init: RequestInit) =>
      new Promise<Response>((_, reject) => init.signal!.addEventListener('abort', () => reject(init.signal!.reason)));
    const slow = await failure(fetchImageUrl('a.png', BASE, { timeoutMs: 20, fetch: hang }));
    expect(slow.code).toBe(1022);
    expect(slow.message).toMatch(/longer than 0\.02 s/);
    const controller = new AbortController();
    const pending = fetchImageUrl('a.png', BASE, { signal: controller.signal, fetch: hang });
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('withScheme (issue 17: an address typed without https://)', () => {
  it('adds https:// to host names, keeps paths relative', async () => {
    const { withScheme } = await import('./image-sources.js');
    expect(withScheme('example.com/logo.png')).toBe('https://example.com/logo.png');
    expect(withScheme('cdn.example.co.uk:8443/a/b.png?x=1')).toBe('https://cdn.example.co.uk:8443/a/b.png?x=1');
    expect(withScheme('www.example.com')).toBe('https://www.example.com');
    for (const kept of ['a.png', 'samples/my%20logo.png?x=1', './a.png', '/a.png', 'http://x.test/a.png', 'https://x.test/a.png', 'ftp://x.test/a.png']) {
      expect(withScheme(kept)).toBe(kept);
    }
  });
});

/**
 * Parameter fuzzing of the `/api/v1` handler (src/api/service.ts), in process.
 *
 * A seeded generator (mulberry32; never Math.random) of form submissions to every endpoint:
 * random subsets of the real option names (OPTION_SCHEMA) with valid, boundary, out-of-range,
 * wrong-type, empty, unicode and very long (100 kB+) values, unknown and duplicated fields, image
 * sources (tiny valid PNGs, garbage, truncated, header-only giants, missing; `image` as text;
 * `image.url` answered from memory — the handler never touches the network; `image.base64`;
 * `image.token` real or random), wrong or missing auth, wrong methods, odd paths, odd content
 * types, url-encoded bodies and malformed multipart bodies.
 *
 * Submission `i` of seed `s` is generated from its own PRNG state (`submission(s, i)`), so a
 * failure is reproduced by its seed and index alone. Every answer must be 200 or one of
 * `ALLOWED_ERRORS` (the documented 4xx of reference §4.2, plus the service's own 404/405 with
 * code −1) with a JSON error body; a 500 (or anything else) is a failure.
 *
 * Used by tests/fuzz/params.test.ts (a deterministic CI slice) and scripts/fuzz-params.mjs (≥ 10,000).
 */

import { encode as encodePngImage } from 'fast-png';
import { LocalAccount } from '../../src/api/account.js';
import { OPTION_SCHEMA, type OptionSpec } from '../../src/api/options.js';
import { createService, type ApiHandler } from '../../src/api/service.js';
import { createMemoryStore, type ImageStore, type RandomSource } from '../../src/api/storage/index.js';
import { loadWebpDecoder } from '../../src/cli/config.js';
import { crc32 } from '../../src/decode/crc32.js';

// ---- PRNG ------------------------------------------------------------------------------------

/** mulberry32: a small, fast, seeded 32-bit PRNG. */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.#s = (this.#s + 0x6d2b79f5) >>> 0;
    let t = this.#s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** Integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

/** The PRNG of submission `index` under `seed` (independent of every other submission). */
export function submissionRng(seed: number, index: number): Rng {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (index + 0x85ebca6b), 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return new Rng(h);
}

// ---- fixtures --------------------------------------------------------------------------------

function png(width: number, height: number, pixel: (x: number, y: number) => readonly [number, number, number, number]): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(pixel(x, y), (y * width + x) * 4);
  }
  return encodePngImage({ width, height, data, channels: 4, depth: 8 });
}

/** A PNG signature + IHDR claiming `width × height` and no pixel data. */
function pngHeaderOnly(width: number, height: number): Uint8Array {
  const chunk = new Uint8Array(12 + 13);
  const cv = new DataView(chunk.buffer);
  cv.setUint32(0, 13);
  chunk.set([0x49, 0x48, 0x44, 0x52], 4);
  cv.setUint32(8, width);
  cv.setUint32(12, height);
  chunk.set([8, 6, 0, 0, 0], 16);
  cv.setUint32(21, crc32(chunk.subarray(4, 21)));
  const out = new Uint8Array(8 + chunk.length);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  out.set(chunk, 8);
  return out;
}

const WHITE = [255, 255, 255, 255] as const;
const BLUE = [20, 20, 200, 255] as const;
const RED = [220, 30, 30, 255] as const;
const CLEAR = [0, 0, 0, 0] as const;

/** Tiny valid PNGs (fast to trace). */
export const VALID_IMAGES: readonly Uint8Array[] = [
  png(16, 16, (x, y) => (((x >> 3) + (y >> 3)) % 2 === 0 ? WHITE : BLUE)),
  png(24, 12, (x, y) => (x < 12 ? RED : y < 6 ? BLUE : WHITE)),
  png(1, 1, () => RED),
  png(20, 20, (x, y) => ((x - 10) ** 2 + (y - 10) ** 2 < 49 ? BLUE : CLEAR)),
  png(8, 8, () => WHITE),
];

const enc = new TextEncoder();

function invalidImages(rng: Rng): Uint8Array {
  const valid = rng.pick(VALID_IMAGES);
  switch (rng.int(10)) {
    case 0:
      return new Uint8Array(0);
    case 1:
      return rng.bytes(rng.range(1, 64));
    case 2:
      return valid.subarray(0, rng.range(1, valid.length - 1)); // truncated PNG
    case 3:
      return pngHeaderOnly(rng.pick([0, 1, 6000, 70000, 0x7fffffff]), rng.pick([0, 1, 6000, 70000, 0x7fffffff]));
    case 4: {
      const b = valid.slice();
      for (let k = 0; k < 4; k++) b[rng.range(8, b.length - 1)] = rng.int(256); // corrupt bytes
      return b;
    }
    case 5:
      return enc.encode('RIFF\x20\x00\x00\x00WEBPVP8 garbage garbage garbage');
    case 6:
      return enc.encode(rng.pick(['GIF89a', 'GIF87a\x01\x00\x01\x00', 'BM', 'II*\x00', 'MM\x00*', '\xff\xd8\xff\xe0', '<svg/>', '%PDF-1.4']));
    case 7:
      return Uint8Array.from([0xff, 0xd8, 0xff, ...rng.bytes(rng.range(0, 200))]);
    case 8:
      return Uint8Array.from([0x42, 0x4d, ...rng.bytes(rng.range(0, 80))]);
    default:
      return Uint8Array.from([0x49, 0x49, 0x2a, 0x00, ...rng.bytes(rng.range(0, 120))]);
  }
}

// ---- the target ------------------------------------------------------------------------------

export const FUZZ_CREDENTIALS = { apiId: 'fuzz-id', apiSecret: 'fuzz-secret' } as const;
const BASE = 'http://tracelab.invalid';

/** Where `image.url` values point; `fetchImage` answers these from memory and fails everything else. */
const URL_HOST = 'http://images.fuzz.invalid';

function memoryFetchImage(url: string): Promise<Response> {
  const path = url.startsWith(URL_HOST) ? url.slice(URL_HOST.length) : undefined;
  switch (path) {
    case '/ok.png':
      return Promise.resolve(new Response(VALID_IMAGES[0] as Uint8Array<ArrayBuffer>, { status: 200, headers: { 'Content-Type': 'image/png' } }));
    case '/garbage.png':
      return Promise.resolve(new Response('not an image at all', { status: 200, headers: { 'Content-Type': 'image/png' } }));
    case '/page.html':
      return Promise.resolve(new Response('<html></html>', { status: 200, headers: { 'Content-Type': 'text/html' } }));
    case '/none':
      return Promise.resolve(new Response('nope', { status: 404 }));
    case '/huge.png':
      return Promise.resolve(new Response('x', { status: 200, headers: { 'Content-Type': 'image/png', 'Content-Length': '99999999999' } }));
    case '/empty.png':
      return Promise.resolve(new Response(null, { status: 200, headers: { 'Content-Type': 'image/png' } }));
    case '/redirect':
      return Promise.resolve(new Response(null, { status: 302, headers: { Location: '/ok.png' } }));
    default:
      return Promise.reject(new TypeError(`fetch failed (the fuzz target has no network): ${url.slice(0, 100)}`));
  }
}

export interface FuzzTarget {
  readonly handler: ApiHandler;
  /** Real tokens (retention 30 days), one per mode. */
  readonly tokens: readonly string[];
  /** Real receipts (preview tokens upgraded by /download). */
  readonly receipts: readonly string[];
  /** Unexpected exceptions the service reported (its `onError`), in order. */
  readonly unexpected: unknown[];
}

function seededRandom(seed: number): RandomSource {
  const rng = new Rng(seed);
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = rng.int(256);
    return bytes;
  };
}

/** A fresh service (memory store, a rich account, seeded tokens) and a few real tokens and receipts. */
export async function createFuzzTarget(): Promise<FuzzTarget> {
  loadWebpDecoder();
  const unexpected: unknown[] = [];
  const memory = createMemoryStore();
  const tokens: string[] = [];
  // The seeded tokens survive /delete (which still answers success), so later submissions keep
  // reaching real records instead of 1027 once each has been deleted once.
  const store: ImageStore = {
    get: (token) => memory.get(token),
    put: (record) => memory.put(record),
    delete: (token) => (tokens.includes(token) ? Promise.resolve(true) : memory.delete(token)),
  };
  const handler = createService({
    store,
    account: new LocalAccount({ subscriptionPlan: 'fuzz', subscriptionState: 'active', credits: 1_000_000 }),
    credentials: FUZZ_CREDENTIALS,
    now: () => Date.UTC(2026, 0, 1),
    random: seededRandom(12345),
    fetchImage: (url) => memoryFetchImage(url),
    onError: (e) => unexpected.push(e),
  });
  const auth = basic(FUZZ_CREDENTIALS.apiId, FUZZ_CREDENTIALS.apiSecret);
  const receipts: string[] = [];
  for (const mode of ['test', 'test_preview', 'preview', 'production', 'preview']) {
    const form = new FormData();
    form.append('image', new Blob([VALID_IMAGES[tokens.length % 2]! as Uint8Array<ArrayBuffer>]), 'seed.png');
    form.append('mode', mode);
    form.append('policy.retention_days', '30');
    const res = await handler(new Request(`${BASE}/api/v1/vectorize`, { method: 'POST', headers: { Authorization: auth }, body: form }));
    const token = res.headers.get('X-Image-Token');
    if (res.status !== 200 || token === null) throw new Error(`seeding a ${mode} token failed: ${res.status} ${await res.text()}`);
    tokens.push(token);
    if (mode === 'preview') {
      const d = new FormData();
      d.append('image.token', token);
      const dl = await handler(new Request(`${BASE}/api/v1/download`, { method: 'POST', headers: { Authorization: auth }, body: d }));
      const receipt = dl.headers.get('X-Receipt');
      if (dl.status !== 200 || receipt === null) throw new Error(`upgrading a preview token failed: ${dl.status} ${await dl.text()}`);
      receipts.push(receipt);
    }
  }
  return { handler, tokens, receipts, unexpected };
}

// ---- values ----------------------------------------------------------------------------------

function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`, 'utf8').toString('base64')}`;
}

const UNICODE = ['é', '🎨', '\u0000', '\uFFFD', '\u202E', 'e\u0301', '５', 'ß', '\u2028', '\uD800', '日本語', '\t', '\r\n', '"', '\\', '%00', '%zz', '&', '=', ';', '--'];

function longString(rng: Rng): string {
  const n = rng.pick([1_000, 100_001, 150_000, 300_000]);
  const unit = rng.pick(['a', '9', '#', '🎨', 'é', '0.5', 'true', ' ', '\r\n--x']);
  return unit.repeat(Math.ceil(n / unit.length));
}

function validValue(spec: OptionSpec, rng: Rng, receipts: readonly string[]): string {
  switch (spec.kind) {
    case 'enum':
      return rng.pick(spec.values);
    case 'int':
      return String(rng.range(spec.min, Math.min(spec.max, spec.min + 1000)));
    case 'float': {
      // Mostly small sizes, so PNG results stay small and the run stays quick.
      const hi = spec.name.startsWith('output.size.') && spec.max > 10 ? Math.min(spec.max, 40) : spec.max;
      const lo = Math.max(spec.min, spec.name.startsWith('output.size.') && spec.min === 0 ? 0.01 : spec.min);
      return String(Math.round((lo + rng.next() * (hi - lo)) * 1000) / 1000 || lo);
    }
    case 'bool':
      return rng.pick(['true', 'false']);
    case 'string':
      return rng.chance(0.5) && receipts.length > 0 ? rng.pick(receipts) : rng.pick(['', 'r', 'receipt-0', 'x'.repeat(32)]);
    case 'color':
      return rng.pick(['#000000', '#FF00FF', '#ff00ff80', 'rgba(1,2,3,0.5)', 'rgb(255,255,255)', '#12345678']);
    case 'palette':
      return rng.pick(['', '#FFFFFF;', '#FF0000 -> #00FF00;', '#000000 ~ 0.1;', '#FFFFFF00 ~ 0.1;', '#123456 -> #654321 ~ 2;#ABCDEF;']);
  }
}

function boundaryValue(spec: OptionSpec, rng: Rng): string {
  if (spec.kind === 'int' || spec.kind === 'float') {
    const { min, max } = spec;
    const eps = spec.kind === 'int' ? 1 : rng.pick([1e-9, 0.001, 1]);
    return String(rng.pick([min, max, min - eps, max + eps, -min, -max, max * 10, Number.MAX_SAFE_INTEGER, -0]));
  }
  return rng.pick(['', ' ', '0', '1', '-1', 'null', 'undefined']);
}

function wrongValue(spec: OptionSpec, rng: Rng): string {
  const generic = ['', ' ', 'true', 'false', 'TRUE', 'True', 'yes', '1', '0', '-0', '+5', '1e3', '1E-3', '.5', '5.', '0x10', '0b1', '1_000', 'Infinity', '-Infinity', 'NaN', ' 5', '5 ', '1,5', '[]', '{}', 'null', '9'.repeat(400), '1e999', '-1e999', '#GGGGGG', '#FFF', 'rgba(256,0,0,1)', 'rgba(1,2,3,1.5)', 'rgba(1,2,3)', '#FF0000 ->', '~', ';;;', '#FF0000 ~ 3;', '#FF0000 -> #00FF00 -> #0000FF;', Array.from({ length: 1100 }, (_, i) => `#${(i * 4099).toString(16).padStart(6, '0').slice(-6)};`).join('')];
  if (spec.kind === 'enum') {
    const v = rng.pick(spec.values);
    generic.push(v.toUpperCase(), ` ${v}`, `${v} `, `${v}\u0000`, `${v},${v}`);
  }
  return rng.pick(generic);
}

function optionValue(spec: OptionSpec, rng: Rng, receipts: readonly string[]): string {
  const r = rng.next();
  if (r < 0.78) return validValue(spec, rng, receipts);
  if (r < 0.86) return boundaryValue(spec, rng);
  if (r < 0.93) return wrongValue(spec, rng);
  if (r < 0.97) return rng.pick(UNICODE) + (rng.chance(0.5) ? validValue(spec, rng, receipts) : '');
  return longString(rng);
}

const UNKNOWN_NAMES = ['foo', 'mode ', ' mode', 'MODE', 'Mode', 'output.file_format[]', 'output.fileformat', 'output', 'output.', '.', '', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'image.', 'image[]', 'images', 'image.file', 'token', 'processing.palette\u0000', 'ｍｏｄｅ', 'mode\r\nX-Injected: 1', 'a"b', 'name; filename="x"', 'é🎨'];

// ---- submissions -----------------------------------------------------------------------------

type Part =
  | { readonly name: string; readonly value: string }
  | { readonly name: string; readonly file: Uint8Array; readonly filename: string; readonly type: string };

export interface Submission {
  readonly index: number;
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | FormData | string | undefined;
  /** One line a human can read (the request, shortened). */
  readonly summary: string;
}

const ENDPOINTS = ['vectorize', 'vectorize', 'vectorize', 'vectorize', 'vectorize', 'vectorize', 'download', 'download', 'delete', 'account'] as const;
const ODD_PATHS = ['/api/v1/', '/api/v2/vectorize', '/api/v1/vectorize/', '/x/api/v1/download', '/api/v1/VECTORIZE', '/api/v1/vectorize?x=1&mode=test', '/api/v1/vectorize/extra', '/', '/%2e%2e/api/v1/account', '/api/v1/%F0%9F%8E%A8', '/api/v1/account/', '/api/v1//delete', `/api/v1/${'a'.repeat(5000)}`];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'];

function authHeader(rng: Rng): string | undefined {
  if (rng.chance(0.88)) return basic(FUZZ_CREDENTIALS.apiId, FUZZ_CREDENTIALS.apiSecret);
  switch (rng.int(10)) {
    case 0:
      return undefined;
    case 1:
      return basic('wrong-id', FUZZ_CREDENTIALS.apiSecret);
    case 2:
      return basic(FUZZ_CREDENTIALS.apiId, 'wrong-secret');
    case 3:
      return 'Basic !!!';
    case 4:
      return 'Bearer abc';
    case 5:
      return `Basic ${Buffer.from('no-colon').toString('base64')}`;
    case 6:
      return `Basic ${Buffer.from([0xff, 0xfe, 0x3a, 0x80]).toString('base64')}`;
    case 7:
      return basic('x'.repeat(20_000), 'y');
    case 8:
      return basic(`${FUZZ_CREDENTIALS.apiId}:`, FUZZ_CREDENTIALS.apiSecret);
    default:
      return 'basic';
  }
}

function imageParts(rng: Rng, target: FuzzTarget): Part[] {
  const parts: Part[] = [];
  const count = rng.pick([1, 1, 1, 1, 1, 1, 1, 0, 2]);
  for (let k = 0; k < count; k++) {
    const r = rng.next();
    if (r < 0.5) {
      const bytes = rng.chance(0.7) ? rng.pick(VALID_IMAGES) : invalidImages(rng);
      parts.push({ name: 'image', file: bytes, filename: rng.pick(['a.png', '', 'x.jpg', 'é🎨.png', 'a"b.png', 'x'.repeat(300)]), type: rng.pick(['image/png', 'application/octet-stream', '', 'text/plain']) });
    } else if (r < 0.57) {
      parts.push({ name: 'image', value: rng.pick(['a.png', '', 'C:\\image.png', longString(rng)]) });
    } else if (r < 0.7) {
      const path = rng.pick(['/ok.png', '/ok.png', '/garbage.png', '/page.html', '/none', '/huge.png', '/empty.png', '/redirect', '/other']);
      const url = rng.chance(0.8)
        ? URL_HOST + path
        : rng.pick(['not a url', '', 'ftp://x/y.png', 'file:///etc/passwd', 'javascript:alert(1)', 'http://127.0.0.1:1/x.png', 'http://[::1]/x', 'https://example.com/a.png', 'http://', `http://${'a'.repeat(70)}.invalid/`, 'data:image/png;base64,AAAA', `${URL_HOST}/ok.png?${'q'.repeat(100_000)}`]);
      parts.push({ name: 'image.url', value: url });
    } else if (r < 0.82) {
      const img = rng.chance(0.7) ? rng.pick(VALID_IMAGES) : invalidImages(rng);
      const b64 = Buffer.from(img).toString('base64');
      const value = rng.pick([
        b64,
        `data:image/png;base64,${b64}`,
        b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''),
        b64.replace(/(.{10})/g, '$1\n'),
        `${b64}!`,
        b64.slice(0, -1),
        '',
        '====',
        'A'.repeat(1_048_577),
        'AAAA'.repeat(200_000),
      ]);
      parts.push({ name: 'image.base64', value });
    } else {
      parts.push({ name: 'image.token', value: tokenValue(rng, target) });
    }
  }
  return parts;
}

function tokenValue(rng: Rng, target: FuzzTarget): string {
  if (rng.chance(0.6) && target.tokens.length > 0) return rng.pick(target.tokens);
  return rng.pick(['', 'x', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', '../../etc/passwd', 'tok/../../x', '🎨', '\u0000', 'a'.repeat(200_000), target.tokens[0]?.toUpperCase() ?? 'T', `${target.tokens[0] ?? ''} `]);
}

function optionParts(rng: Rng, target: FuzzTarget, endpoint: 'vectorize' | 'download'): Part[] {
  const parts: Part[] = [];
  const n = rng.pick([0, 0, 0, 1, 1, 1, 2, 2, 3, 5, 10]);
  for (let k = 0; k < n; k++) {
    if (rng.chance(0.07)) {
      parts.push({ name: rng.chance(0.1) ? longString(rng) : rng.pick(UNKNOWN_NAMES), value: rng.pick(['1', '', 'true', longString(rng)]) });
      continue;
    }
    // Mostly names the endpoint accepts, so more submissions get past validation.
    const pool = rng.chance(0.85) ? OPTION_SCHEMA.filter((o) => (o.endpoints as readonly string[]).includes(endpoint)) : OPTION_SCHEMA;
    const spec = rng.pick(pool) as OptionSpec;
    // Keep mode mostly free (test modes) so production stays the minority.
    const value = spec.name === 'mode' && rng.chance(0.5) ? rng.pick(['test', 'test_preview']) : optionValue(spec, rng, target.receipts);
    parts.push({ name: spec.name, value });
  }
  if (parts.length > 0 && rng.chance(0.12)) {
    const dup = rng.pick(parts);
    parts.splice(rng.int(parts.length + 1), 0, rng.chance(0.5) ? dup : { name: dup.name, value: 'true' });
  }
  return parts;
}

function shuffle<T>(rng: Rng, items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let o = 0;
  for (const c of chunks) {
    out.set(c, o);
    o += c.length;
  }
  return out;
}

const escapeName = (s: string): string => s.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

/** A multipart body written by hand; `malform` breaks it in one of several ways. */
function multipartBytes(rng: Rng, parts: readonly Part[], boundary: string, malform: boolean): Uint8Array {
  const chunks: Uint8Array[] = [];
  const crlf = '\r\n';
  for (const p of parts) {
    let head = `--${boundary}${crlf}Content-Disposition: form-data; name="${escapeName(p.name)}"`;
    if ('file' in p) head += `; filename="${escapeName(p.filename)}"${crlf}Content-Type: ${p.type || 'application/octet-stream'}`;
    else if (rng.chance(0.05)) head += `${crlf}Content-Type: text/plain; charset=${rng.pick(['utf-8', 'iso-8859-1', 'utf-16le', 'bogus'])}`;
    head += `${crlf}${crlf}`;
    chunks.push(enc.encode(head));
    chunks.push('file' in p ? p.file : rng.chance(0.03) ? Uint8Array.from([0xff, 0xfe, 0xc3, 0x28, ...enc.encode(p.value)]) : enc.encode(p.value));
    chunks.push(enc.encode(crlf));
  }
  chunks.push(enc.encode(`--${boundary}--${crlf}`));
  let body = concat(chunks);
  if (!malform) return body;
  switch (rng.int(9)) {
    case 0:
      return body.subarray(0, rng.int(body.length)); // truncated anywhere
    case 1:
      return enc.encode(new TextDecoder().decode(body).replace(`--${boundary}--`, '')); // no closing boundary
    case 2:
      return enc.encode(new TextDecoder().decode(body).replace(/\r\n\r\n/, '\r\n')); // header/body separator missing
    case 3:
      return enc.encode(new TextDecoder().decode(body).replace(/Content-Disposition: form-data; /, '')); // no disposition
    case 4:
      return enc.encode(new TextDecoder().decode(body).replace(/name="[^"]*"/, 'name=')); // empty unquoted name
    case 5:
      return concat([enc.encode(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n`), body]); // part without a name
    case 6:
      return rng.bytes(rng.range(0, 300));
    case 7:
      return enc.encode(new TextDecoder().decode(body).replace(/\r\n/g, '\n')); // bare LF
    default:
      body = body.slice();
      for (let k = 0; k < 6 && body.length > 0; k++) body[rng.int(body.length)] = rng.int(256);
      return body;
  }
}

function urlencoded(rng: Rng, parts: readonly Part[]): string {
  const pieces = parts.map((p) => {
    const value = 'file' in p ? Buffer.from(p.file).toString('latin1') : p.value;
    return `${encodeURIComponent(p.name)}=${encodeURIComponent(value.replace(/[\uD800-\uDFFF]/g, '?'))}`;
  });
  if (rng.chance(0.15)) pieces.push(rng.pick(['%zz=1', '%', 'mode=%E0%A4%A', '&&&', '=x', 'mode', '+=+', 'a=b=c']));
  return pieces.join('&');
}

/** Submission `index` of `seed` (a pure function of both, given the target's tokens and receipts). */
export function submission(seed: number, index: number, target: FuzzTarget): Submission {
  const rng = submissionRng(seed, index);
  const endpoint = rng.pick(ENDPOINTS);
  const path = rng.chance(0.93) ? `/api/v1/${endpoint}` : rng.pick(ODD_PATHS);
  const wantMethod = endpoint === 'account' ? 'GET' : 'POST';
  const method = rng.chance(0.93) ? wantMethod : rng.pick(METHODS);
  const headers: Record<string, string> = {};
  const auth = authHeader(rng);
  if (auth !== undefined) headers['Authorization'] = auth;

  let parts: Part[] = [];
  if (endpoint === 'vectorize') parts = [...imageParts(rng, target), ...optionParts(rng, target, 'vectorize')];
  else if (endpoint === 'download' || endpoint === 'delete') {
    if (rng.chance(0.93)) parts.push({ name: 'image.token', value: tokenValue(rng, target) });
    if (rng.chance(0.05)) parts.push({ name: 'image.token', value: tokenValue(rng, target) });
    if (rng.chance(0.05)) parts.push(...imageParts(rng, target));
    if (endpoint === 'download' || rng.chance(0.15)) parts.push(...optionParts(rng, target, 'download'));
  } else if (rng.chance(0.2)) parts = optionParts(rng, target, 'vectorize');
  if (rng.chance(0.3)) shuffle(rng, parts);

  let body: Submission['body'];
  let encoding: string;
  const canHaveBody = method !== 'GET' && method !== 'HEAD';
  const r = rng.next();
  if (!canHaveBody || (endpoint === 'account' && rng.chance(0.8))) {
    encoding = 'none';
  } else if (r < 0.4) {
    encoding = 'formdata';
    const form = new FormData();
    for (const p of parts) {
      if ('file' in p) form.append(p.name, new Blob([p.file as Uint8Array<ArrayBuffer>], { type: p.type }), p.filename);
      else form.append(p.name, p.value);
    }
    body = form;
  } else if (r < 0.78) {
    const malform = rng.chance(0.08);
    encoding = malform ? 'multipart(malformed)' : 'multipart';
    const boundary = rng.pick(['----fuzz', `b${rng.int(1e9)}`, 'x'.repeat(70), '--', 'a b', '"quoted"']);
    body = multipartBytes(rng, parts, boundary.replace(/"/g, ''), malform);
    headers['Content-Type'] = rng.chance(0.95)
      ? rng.pick([`multipart/form-data; boundary=${boundary}`, `multipart/form-data; boundary="${boundary.replace(/"/g, '')}"`, `Multipart/Form-Data; charset=utf-8; boundary=${boundary}`])
      : rng.pick(['multipart/form-data', 'multipart/form-data; boundary=', `multipart/form-data; boundary=wrong${boundary}`, `multipart/mixed; boundary=${boundary}`]);
  } else if (r < 0.9) {
    encoding = 'urlencoded';
    body = urlencoded(rng, parts);
    headers['Content-Type'] = rng.pick(['application/x-www-form-urlencoded', 'application/x-www-form-urlencoded;charset=UTF-8', 'application/x-www-form-urlencoded; charset=latin1']);
  } else {
    encoding = 'odd';
    body = rng.pick([
      () => JSON.stringify(Object.fromEntries(parts.map((p) => [p.name, 'value' in p ? p.value.slice(0, 50) : 'file']))),
      () => rng.bytes(rng.range(0, 500)),
      () => '',
      () => rng.pick(VALID_IMAGES),
    ])();
    const type = rng.pick(['application/json', 'text/plain', 'application/octet-stream', 'image/png', '', 'multipart/form-data', '*/*; boundary=x']);
    if (type !== '') headers['Content-Type'] = type;
  }
  if (rng.chance(0.03)) headers['Content-Encoding'] = rng.pick(['gzip', 'br', 'identity']);

  const fieldSummary = parts
    .map((p) => ('file' in p ? `${short(p.name)}=<file ${p.file.length} B>` : `${short(p.name)}=${short(p.value)}`))
    .join(' & ');
  const authKind = auth === undefined ? 'no auth' : auth === basic(FUZZ_CREDENTIALS.apiId, FUZZ_CREDENTIALS.apiSecret) ? 'auth ok' : `auth ${short(auth)}`;
  const summary = `#${index} ${method} ${short(path)} [${authKind}; ${encoding}; ${short(headers['Content-Type'] ?? '-')}] ${fieldSummary}`;
  return { index, method, path, headers, body, summary };
}

function short(s: string): string {
  const t = JSON.stringify(s);
  return t.length > 90 ? `${t.slice(0, 80)}…(${s.length} chars)"` : t;
}

export function toRequest(s: Submission): Request {
  const init: RequestInit = { method: s.method, headers: s.headers };
  if (s.body !== undefined) init.body = s.body as BodyInit;
  return new Request(`${BASE}${s.path}`, init);
}

// ---- checking --------------------------------------------------------------------------------

/**
 * Status/code pairs a submission may get besides 200: the 4xx of reference §4.2 (1017 and 1023
 * under both statuses the reference gives), plus 404/−1 (unknown path) and 405/−1 (wrong method),
 * which the reference has no code for and service.ts documents.
 */
export const ALLOWED_ERRORS: ReadonlyMap<number, ReadonlySet<number>> = new Map([
  [400, new Set([1005, 1006, 1016, 1017, 1019, 1020, 1021, 1022, 1023, 1024, 1026, 1027])],
  [401, new Set([1001, 1002, 1003, 1004])],
  [402, new Set([1008, 1010, 1011])],
  [404, new Set([-1])],
  [405, new Set([-1])],
  [413, new Set([1012, 1013, 1023])],
  [429, new Set([1015, 1017])],
]);

export interface Outcome {
  readonly status: number;
  /** Error code of the JSON body (undefined for 200). */
  readonly code?: number;
  /** Why this outcome is not allowed (undefined when it is). */
  readonly problem?: string;
}

/** Sends one submission and checks the answer. */
export async function check(target: FuzzTarget, s: Submission): Promise<Outcome> {
  const before = target.unexpected.length;
  let res: Response;
  try {
    res = await target.handler(toRequest(s));
  } catch (e) {
    return { status: 0, problem: `the handler threw: ${e instanceof Error ? e.stack ?? e.message : String(e)}` };
  }
  const text = await res.text();
  const thrown = target.unexpected.slice(before);
  const cause = thrown.length > 0 ? ` — cause: ${thrown.map((e) => (e instanceof Error ? e.stack ?? e.message : String(e))).join('; ')}` : '';
  if (res.status === 200) return thrown.length > 0 ? { status: 200, problem: `200 but the service reported an error${cause}` } : { status: 200 };
  let parsed: { error?: { status?: unknown; code?: unknown; message?: unknown } } | undefined;
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return { status: res.status, problem: `non-JSON error body: ${JSON.stringify(text.slice(0, 200))}${cause}` };
  }
  const err = parsed?.error;
  if (typeof err?.code !== 'number' || err.status !== res.status || typeof err.message !== 'string') {
    return { status: res.status, problem: `malformed error body: ${text.slice(0, 200)}${cause}` };
  }
  if (!(res.headers.get('Content-Type') ?? '').startsWith('application/json')) {
    return { status: res.status, code: err.code, problem: `error without a JSON Content-Type${cause}` };
  }
  if (!ALLOWED_ERRORS.get(res.status)?.has(err.code)) {
    return { status: res.status, code: err.code, problem: `undocumented ${res.status}/${err.code}: ${err.message.slice(0, 200)}${cause}` };
  }
  return { status: res.status, code: err.code };
}

export interface FuzzSummary {
  readonly total: number;
  /** "200", "400/1019", … → count. */
  readonly counts: Record<string, number>;
  readonly failures: { readonly summary: string; readonly outcome: Outcome }[];
  readonly ms: number;
  /** The five slowest submissions. */
  readonly slowest: { readonly summary: string; readonly ms: number; readonly key: string }[];
}

/** Runs submissions `from … from+count-1` of `seed` against one fresh target. */
export async function runFuzz(seed: number, from: number, count: number, onProgress?: (done: number) => void): Promise<FuzzSummary> {
  const target = await createFuzzTarget();
  const counts: Record<string, number> = {};
  const failures: { summary: string; outcome: Outcome }[] = [];
  const slowest: { summary: string; ms: number; key: string }[] = [];
  const t0 = performance.now();
  for (let i = from; i < from + count; i++) {
    const s = submission(seed, i, target);
    const t1 = performance.now();
    const outcome = await check(target, s);
    const ms = performance.now() - t1;
    const key = outcome.code === undefined ? String(outcome.status) : `${outcome.status}/${outcome.code}`;
    if (slowest.length < 5 || ms > slowest[slowest.length - 1]!.ms) {
      slowest.push({ summary: s.summary, ms, key });
      slowest.sort((a, b) => b.ms - a.ms);
      slowest.length = Math.min(slowest.length, 5);
    }
    counts[key] = (counts[key] ?? 0) + 1;
    if (outcome.problem !== undefined) failures.push({ summary: s.summary, outcome });
    if (onProgress && (i - from + 1) % 500 === 0) onProgress(i - from + 1);
  }
  return { total: count, counts, failures, ms: performance.now() - t0, slowest };
}

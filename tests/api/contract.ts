/**
 * The API contract every host of the service handler must pass (in-process handler here; the Node
 * HTTP server's tests can call `runContract` with a harness that starts a real server).
 *
 * A harness gives a base URL and a fetch for one fresh service built from `setup` (fresh memory
 * store, account from `setup.account`, credentials `CONTRACT_CREDENTIALS`, a fixed clock starting
 * at `CONTRACT_EPOCH` that `advance` moves, seeded randomness, and `setup.fetchImage` for
 * `image.url`).
 *
 * `runContract(makeHarness, { testModesOnly: true })` registers only the cases that use the free
 * `test` / `test_preview` modes (and free calls: `/account`, failed authentication, unknown routes and
 * tokens), for running against a real, paid service: cases that use `production` or `preview` mode
 * (including a request without `mode`, which defaults to production), move the clock, stub
 * `fetchImage` or set up an account are not registered at all. The default run registers every case.
 */
import { describe, expect, it } from 'vitest';
import type { AccountStatus } from '../../src/api/account.js';
import { createClient, type ApiClient, type FetchLike, ApiClientError, basicAuth } from '../../src/api/client.js';
import { encodePng } from '../helpers/encode.js';
import { drawCells } from '../helpers/raster.js';
import { crc32 } from '../../src/decode/crc32.js';

export const CONTRACT_CREDENTIALS = { apiId: 'contract-id', apiSecret: 'contract-secret' } as const;
export const CONTRACT_EPOCH = Date.UTC(2026, 0, 1);
export const DAY = 86_400_000;

export interface ContractSetup {
  readonly account?: AccountStatus;
  readonly fetchImage?: (url: string, signal: AbortSignal) => Promise<Response>;
}

export interface ContractHarness {
  /** e.g. `http://tracelab.invalid/api/v1` (no trailing slash). */
  readonly baseUrl: string;
  readonly fetch: FetchLike;
  /** Moves the service clock forward. */
  advance(ms: number): void;
  close?(): Promise<void>;
  /** Credentials to call it with (default `CONTRACT_CREDENTIALS`). */
  readonly credentials?: { readonly apiId: string; readonly apiSecret: string };
}

/** What a contract case needs beyond free test-mode calls. */
export type ContractNeed =
  /** a `production`-mode request (also any request without `mode`): may spend credits */
  | 'production'
  /** a `preview`-mode request: spends credits */
  | 'preview'
  /** `ContractHarness.advance` */
  | 'clock'
  /** `ContractSetup.fetchImage` */
  | 'fetchImage'
  /** `ContractSetup.account` */
  | 'account'
  /** expectations only Tracelab's local service meets (its default account, watermark text, realm, error wording) */
  | 'local';

export interface ContractOptions {
  /** Register only the cases that need none of `ContractNeed` (for a real, paid service). */
  readonly testModesOnly?: boolean;
}

export type MakeHarness = (setup: ContractSetup) => Promise<ContractHarness>;

// ---- images --------------------------------------------------------------------------------

const WHITE = [255, 255, 255] as const;
const BLUE = [20, 20, 200] as const;
const RED = [220, 30, 30] as const;
const GREEN = [30, 180, 60] as const;

/** 16×16 two-colour checker. */
export const SMALL_PNG = encodePng(drawCells([[0, 1], [1, 0]], [WHITE, BLUE], 8));
/** 32×32, four flat colours in quadrants. */
export const FOUR_COLOUR_PNG = encodePng(drawCells([[0, 1], [2, 3]], [WHITE, BLUE, RED, GREEN], 16));

/** A PNG signature + IHDR claiming `width × height` (no pixel data): tests the pixel limit cheaply. */
export function pngHeaderOnly(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunk = new Uint8Array(12 + 13);
  const cv = new DataView(chunk.buffer);
  cv.setUint32(0, 13);
  chunk.set([0x49, 0x48, 0x44, 0x52], 4);
  chunk.set(ihdr, 8);
  cv.setUint32(21, crc32(chunk.subarray(4, 21)));
  const out = new Uint8Array(8 + chunk.length);
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  out.set(chunk, 8);
  return out;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const text = (b: Uint8Array): string => new TextDecoder().decode(b);
const fills = (svg: string): Set<string> => new Set([...svg.matchAll(/<(?:path|circle|ellipse|rect)(?: id="[^"]*")? fill="(#[0-9A-Fa-f]{3,8})"/g)].map((m) => m[1]!.toUpperCase()));

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

// ---- the suite -----------------------------------------------------------------------------

export function runContract(makeHarness: MakeHarness, options: ContractOptions = {}): void {
  /** Registers a case, unless `testModesOnly` is set and it needs anything beyond free test-mode calls. */
  function contractCase(name: string, needs: readonly ContractNeed[], fn: () => Promise<void>): void {
    if (options.testModesOnly && needs.length > 0) return;
    it(name, fn);
  }

  async function setup(s: ContractSetup = {}) {
    const h = await makeHarness(s);
    const creds = h.credentials ?? CONTRACT_CREDENTIALS;
    const client = (c: { apiId: string; apiSecret: string } = creds): ApiClient =>
      createClient({ baseUrl: h.baseUrl, ...c, fetch: h.fetch, validateFields: false, maxAttempts: 1 });
    const auth = basicAuth(creds.apiId, creds.apiSecret);
    /** A raw authenticated multipart POST (for requests the typed client refuses to build). */
    const post = (path: string, form: FormData, authorization = auth) =>
      h.fetch(`${h.baseUrl}/${path}`, { method: 'POST', body: form, headers: { Authorization: authorization } });
    return { h, api: client(), client, post, creds, auth };
  }

  async function expectError(p: Promise<unknown>, status: number, code: number): Promise<ApiClientError> {
    const e = await p.then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(e, `expected ${status}/${code}`).toBeInstanceOf(ApiClientError);
    expect({ status: (e as ApiClientError).status, code: (e as ApiClientError).code, message: (e as ApiClientError).message }).toMatchObject({ status, code });
    return e as ApiClientError;
  }

  async function expectRawError(res: Response, status: number, code: number) {
    expect(res.status).toBe(status);
    expect(res.headers.get('Content-Type')).toContain('application/json');
    expect(res.headers.get('X-Credits-Charged')).toBe('0.000000');
    const body = (await res.json()) as { error: { status: number; code: number; message: string }; dataReceived: unknown };
    expect(body.error).toMatchObject({ status, code });
    expect(typeof body.error.message).toBe('string');
    expect(body.error.message).not.toMatch(/\n\s+at /);
    return body;
  }

  describe('API contract', () => {
    // ---- cases any conforming service passes in test modes (also run against the real one) ----

    contractCase('GET /account answers plan, state and a numeric credit balance', [], async () => {
      const { api, h } = await setup();
      const status = await api.account();
      expect(typeof status.subscriptionPlan).toBe('string');
      expect(['active', 'pastDue', 'ended']).toContain(status.subscriptionState);
      expect(typeof status.credits).toBe('number');
      await h.close?.();
    });

    contractCase('test-mode retention: api-test- token → free download of another option → delete', [], async () => {
      const { api, h } = await setup();
      const made = await api.vectorize({ image: SMALL_PNG, filename: 'in.png' }, { mode: 'test', 'policy.retention_days': 1 });
      expect(made.creditsCharged).toBe(0);
      expect(made.imageToken).toMatch(/^api-test-/);
      const again = await api.download(made.imageToken!, { 'output.svg.fixed_size': true });
      expect(again.contentType).toContain('image/svg+xml');
      expect(again.creditsCharged).toBe(0);
      expect(text(again.body)).toMatch(/<svg[^>]* width="16"/);
      expect(await api.delete(made.imageToken!)).toEqual({ success: true });
      await h.close?.();
    });

    contractCase('a request without an image is 400 / 1005; a wrong secret is 401 / 1004', [], async () => {
      const { h, post, creds } = await setup();
      const form = new FormData();
      form.append('mode', 'test');
      await expectRawError(await post('vectorize', form), 400, 1005);
      const wrong = await h.fetch(`${h.baseUrl}/account`, { headers: { Authorization: basicAuth(creds.apiId, `${creds.apiSecret}-wrong`) } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('WWW-Authenticate')).toMatch(/^Basic/);
      expect(((await wrong.json()) as { error: { code: number } }).error.code).toBe(1004);
      await h.close?.();
    });

    contractCase('GET /account answers the account status', ['local'], async () => {
      const { api, h } = await setup();
      expect(await api.account()).toEqual({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 });
      await h.close?.();
    });

    contractCase('test mode: full SVG with a heavy watermark, charged 0, calculated 1', ['local'], async () => {
      const { api, h } = await setup();
      const r = await api.vectorize({ image: SMALL_PNG, filename: 'in.png' }, { mode: 'test' });
      expect(r.status).toBe(200);
      expect(r.contentType).toBe('image/svg+xml');
      expect(r.filename).toBe('vectorized.svg');
      expect(r.creditsCharged).toBe(0);
      expect(r.creditsCalculated).toBe(1);
      const svg = text(r.body);
      expect(svg.startsWith('<?xml')).toBe(true);
      expect(svg).toContain('TRACELAB TEST');
      // The watermark group comes after the shapes.
      expect(svg.lastIndexOf('<path')).toBeLessThan(svg.indexOf('tracelab-test-watermark'));
      expect(r.imageToken).toBeUndefined();
      expect((await api.account()).credits).toBe(100);
      await h.close?.();
    });

    contractCase('test mode headers are six-decimal strings', [], async () => {
      const { h, auth } = await setup();
      const form = new FormData();
      form.append('image', new Blob([new Uint8Array(SMALL_PNG)], { type: 'image/png' }), 'in.png');
      form.append('mode', 'test');
      const res = await h.fetch(`${h.baseUrl}/vectorize`, {
        method: 'POST',
        body: form,
        headers: { Authorization: auth },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('X-Credits-Charged')).toBe('0.000000');
      expect(res.headers.get('X-Credits-Calculated')).toBe('1.000000');
      expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename=".+\.svg"$/);
      await h.close?.();
    });

    contractCase('production: the real SVG, charged 1.000000, credits decrease', ['production'], async () => {
      const { api, h } = await setup();
      const r = await api.vectorize({ image: SMALL_PNG }, {});
      expect(r.creditsCharged).toBe(1);
      expect(r.creditsCalculated).toBeUndefined();
      const svg = text(r.body);
      expect(svg).toContain('<path');
      expect(svg).not.toContain('TRACELAB');
      expect((await api.account()).credits).toBe(99);
      await h.close?.();
    });

    contractCase('production PNG output is a 4× PNG', ['production'], async () => {
      const { api, h } = await setup();
      const r = await api.vectorize({ image: SMALL_PNG }, { 'output.file_format': 'png' });
      expect(r.contentType).toBe('image/png');
      expect(r.filename).toBe('vectorized.png');
      expect([...r.body.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      const dv = new DataView(r.body.buffer, r.body.byteOffset);
      expect([dv.getUint32(16), dv.getUint32(20)]).toEqual([64, 64]);
      expect(r.creditsCharged).toBe(1);
      await h.close?.();
    });

    contractCase('image.base64 and image.url inputs give the same SVG as an upload', ['fetchImage'], async () => {
      const fetchImage = async (url: string) =>
        url === 'https://images.example/ok.png'
          ? new Response(new Uint8Array(SMALL_PNG), { status: 200, headers: { 'Content-Type': 'image/png' } })
          : new Response('nope', { status: 404 });
      const { api, h } = await setup({ fetchImage });
      const a = await api.vectorize({ image: SMALL_PNG }, { mode: 'test' });
      const b = await api.vectorize({ base64: toBase64(SMALL_PNG) }, { mode: 'test' });
      const c = await api.vectorize({ url: 'https://images.example/ok.png' }, { mode: 'test' });
      expect(text(b.body)).toBe(text(a.body));
      expect(text(c.body)).toBe(text(a.body));
      await h.close?.();
    });

    contractCase('retention → token → download another SVG option → delete → 1027', ['production'], async () => {
      const { api, h } = await setup();
      const v = await api.vectorize({ image: SMALL_PNG }, { 'policy.retention_days': 3 });
      expect(v.imageToken).toMatch(/^[a-z2-7]{32}$/);
      expect(v.creditsCharged).toBe(1.02);
      const d = await api.download(v.imageToken!, { 'output.svg.fixed_size': true });
      expect(d.creditsCharged).toBe(0.1);
      expect(d.receipt).toBeUndefined();
      const svg = text(d.body);
      expect(svg).toMatch(/<svg [^>]*width="16" height="16"/);
      // Same shapes as the vectorize result: only the size attributes differ.
      expect(svg.replace(' width="16" height="16"', '')).toBe(text(v.body));
      const png = await api.download(v.imageToken!, { 'output.file_format': 'png' });
      expect([...png.body.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      expect(await api.delete(v.imageToken!)).toEqual({ success: true });
      await expectError(api.download(v.imageToken!), 400, 1027);
      await expectError(api.delete(v.imageToken!), 400, 1027);
      expect((await api.account()).credits).toBeCloseTo(100 - 1.02 - 0.1 - 0.1, 9);
      await h.close?.();
    });

    contractCase('preview → 4× PNG → production upgrade 0.9 with X-Receipt → 0.1 with the receipt', ['preview'], async () => {
      const { api, h } = await setup();
      const p = await api.vectorize({ image: SMALL_PNG }, { mode: 'preview', 'policy.retention_days': 1 });
      expect(p.contentType).toBe('image/png');
      expect([...p.body.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
      const dv = new DataView(p.body.buffer, p.body.byteOffset);
      expect([dv.getUint32(16), dv.getUint32(20)]).toEqual([64, 64]);
      expect(p.creditsCharged).toBe(0.2);
      const token = p.imageToken!;
      const up = await api.download(token);
      expect(up.creditsCharged).toBe(0.9);
      expect(up.receipt).toMatch(/^rcpt-[a-z2-7]{32}$/);
      const svg = text(up.body);
      expect(svg).toContain('<path');
      expect(svg).not.toContain('TRACELAB');
      const again = await api.download(token, { receipt: up.receipt!, 'output.svg.fixed_size': true });
      expect(again.creditsCharged).toBe(0.1);
      expect(again.receipt).toBeUndefined();
      // Without the receipt the upgrade price applies again, with the same receipt.
      const repay = await api.download(token);
      expect(repay.creditsCharged).toBe(0.9);
      expect(repay.receipt).toBe(up.receipt);
      await expectError(api.download(token, { receipt: 'rcpt-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' }), 400, 1019);
      expect((await api.account()).credits).toBeCloseTo(100 - 0.2 - 0.9 - 0.1 - 0.9, 9);
      await h.close?.();
    });

    contractCase('preview PNG carries a discreet watermark (differs from the production PNG)', ['production', 'preview'], async () => {
      const { api, h } = await setup();
      const big = encodePng(drawCells([[0, 1, 0], [1, 0, 1], [0, 1, 0]], [WHITE, BLUE], 20));
      const prod = await api.vectorize({ image: big }, { 'output.file_format': 'png' });
      const prev = await api.vectorize({ image: big }, { mode: 'preview' });
      const tp = await api.vectorize({ image: big }, { mode: 'test_preview' });
      expect(prev.contentType).toBe('image/png');
      expect(Buffer.from(prev.body).equals(Buffer.from(prod.body))).toBe(false);
      expect(Buffer.from(tp.body).equals(Buffer.from(prev.body))).toBe(false);
      expect(tp.creditsCharged).toBe(0);
      expect(tp.creditsCalculated).toBe(0.2);
      await h.close?.();
    });

    contractCase('test tokens: api-test- prefix, downloads free with X-Credits-Calculated, still watermarked', ['local'], async () => {
      const { api, h } = await setup();
      const v = await api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 2 });
      expect(v.imageToken).toMatch(/^api-test-[a-z2-7]{32}$/);
      expect(v.creditsCharged).toBe(0);
      expect(v.creditsCalculated).toBe(1.01);
      const d = await api.download(v.imageToken!);
      expect(d.creditsCharged).toBe(0);
      expect(d.creditsCalculated).toBe(0.1);
      expect(text(d.body)).toContain('TRACELAB TEST');
      const tp = await api.vectorize({ image: SMALL_PNG }, { mode: 'test_preview', 'policy.retention_days': 1 });
      const up = await api.download(tp.imageToken!);
      expect(up.creditsCharged).toBe(0);
      expect(up.creditsCalculated).toBe(0.9);
      expect(text(up.body)).toContain('TRACELAB TEST');
      expect((await api.account()).credits).toBe(100);
      await h.close?.();
    });

    contractCase('iterates with image.token and different processing.max_colors', ['production'], async () => {
      const { api, h } = await setup();
      const v = await api.vectorize({ image: FOUR_COLOUR_PNG }, { mode: 'test', 'policy.retention_days': 1 });
      expect(fills(text(v.body)).size).toBe(4);
      const two = await api.vectorize({ token: v.imageToken! }, { mode: 'test', 'processing.max_colors': 2 });
      expect(fills(text(two.body)).size).toBeLessThanOrEqual(2);
      const prod = await api.vectorize({ token: v.imageToken! }, { 'processing.max_colors': 3, 'policy.retention_days': 1 });
      expect(prod.creditsCharged).toBe(1);
      expect(fills(text(prod.body)).size).toBeLessThanOrEqual(3);
      expect(prod.imageToken).toMatch(/^[a-z2-7]{32}$/);
      expect(prod.imageToken).not.toBe(v.imageToken);
      await h.close?.();
    });

    contractCase('tokens expire with the clock (1027)', ['clock'], async () => {
      const { api, h } = await setup();
      const v = await api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 2 });
      h.advance(2 * DAY - 1);
      await api.download(v.imageToken!);
      h.advance(1);
      await expectError(api.download(v.imageToken!), 400, 1027);
      await expectError(api.vectorize({ token: v.imageToken! }, { mode: 'test' }), 400, 1027);
      await h.close?.();
    });

    contractCase('credit arithmetic to six decimals', ['account', 'production', 'preview'], async () => {
      const { api, h } = await setup({ account: { subscriptionPlan: 'p', subscriptionState: 'active', credits: 3 } });
      const a = await api.vectorize({ image: SMALL_PNG }, { 'policy.retention_days': 30 });
      expect(a.creditsCharged).toBe(1.29);
      const b = await api.vectorize({ image: SMALL_PNG }, { mode: 'preview', 'policy.retention_days': 2 });
      expect(b.creditsCharged).toBe(0.21);
      const c = await api.download(a.imageToken!);
      expect(c.creditsCharged).toBe(0.1);
      // 3 − 1.29 − 0.21 − 0.1 = 1.4 exactly (micro-credits, no drift)
      expect((await api.account()).credits).toBe(1.4);
      // 1.4 left: production + 30 days (1.29) fits, a second does not.
      await api.vectorize({ image: SMALL_PNG }, { 'policy.retention_days': 30 });
      expect((await api.account()).credits).toBe(0.11);
      await expectError(api.vectorize({ image: SMALL_PNG }), 402, 1011);
      await expectError(api.download(b.imageToken!), 402, 1011);
      expect((await api.account()).credits).toBe(0.11);
      const d = await api.download(a.imageToken!);
      expect(d.creditsCharged).toBe(0.1);
      expect((await api.account()).credits).toBe(0.01);
      await h.close?.();
    });

    contractCase('errors: auth 401 with WWW-Authenticate (1001 unknown id, 1004 wrong secret)', ['local'], async () => {
      const { client, h, api, creds } = await setup();
      const e1 = await expectError(client({ apiId: 'who-is-this', apiSecret: 'x' }).account(), 401, 1001);
      expect(e1.message).toContain('who-is-this');
      await expectError(client({ apiId: creds.apiId, apiSecret: 'wrong' }).account(), 401, 1004);
      const res = await h.fetch(`${h.baseUrl}/account`, { method: 'GET' });
      const body = await expectRawError(res, 401, 1001);
      expect(body.dataReceived).toBeNull();
      expect(res.headers.get('WWW-Authenticate')).toBe('Basic realm="tracelab"');
      const bad = await h.fetch(`${h.baseUrl}/account`, { method: 'GET', headers: { Authorization: 'Bearer abc' } });
      await expectRawError(bad, 401, 1001);
      const wrong = await h.fetch(`${h.baseUrl}/vectorize`, { method: 'POST', headers: { Authorization: basicAuth(creds.apiId, 'nope') } });
      expect(wrong.headers.get('WWW-Authenticate')).toBe('Basic realm="tracelab"');
      await expectRawError(wrong, 401, 1004);
      expect((await api.account()).credits).toBe(100);
      await h.close?.();
    });

    contractCase('errors: 404 unknown path and 405 wrong method (code -1)', ['local'], async () => {
      const { h, api, auth: authorization } = await setup();
      const auth = { Authorization: authorization };
      await expectRawError(await h.fetch(`${h.baseUrl}/nothing`, { method: 'GET', headers: auth }), 404, -1);
      const r405 = await h.fetch(`${h.baseUrl}/vectorize`, { method: 'GET', headers: auth });
      expect(r405.headers.get('Allow')).toBe('POST');
      await expectRawError(r405, 405, -1);
      const a405 = await h.fetch(`${h.baseUrl}/account`, { method: 'POST', headers: auth });
      expect(a405.headers.get('Allow')).toBe('GET');
      await expectRawError(a405, 405, -1);
      expect((await api.account()).credits).toBe(100);
      await h.close?.();
    });

    contractCase('errors: image sources 1005, 1016, 1019 (several), with dataReceived', ['production'], async () => {
      const { post, api, h } = await setup();
      const none = new FormData();
      none.append('mode', 'test');
      const b1 = await expectRawError(await post('vectorize', none), 400, 1005);
      expect(b1.dataReceived).toEqual({ mode: 'test' });
      const empty = await expectRawError(await post('vectorize', new FormData()), 400, 1005);
      expect(empty.dataReceived).toBeNull();

      const asString = new FormData();
      asString.append('image', 'photo.png');
      await expectRawError(await post('vectorize', asString), 400, 1016);

      const two = new FormData();
      two.append('image', new Blob([new Uint8Array(SMALL_PNG)], { type: 'image/png' }), 'a.png');
      two.append('image.url', 'https://images.example/ok.png');
      two.append('mode', 'test');
      const b3 = await expectRawError(await post('vectorize', two), 400, 1019);
      expect(b3.dataReceived).toEqual({
        image: { filename: 'a.png', bytes: SMALL_PNG.length, type: 'image/png' },
        'image.url': 'https://images.example/ok.png',
        mode: 'test',
      });
      const long = new FormData();
      long.append('image.token', 'x');
      long.append('processing.palette', 'y'.repeat(5000));
      long.append('nonsense', '1');
      const b4 = await expectRawError(await post('vectorize', long), 400, 1019);
      expect(((b4.dataReceived as Record<string, string>)['processing.palette']!).length).toBeLessThan(300);
      expect(await api.vectorize({ image: SMALL_PNG }, { mode: 'test' })).toMatchObject({ status: 200 });
      await h.close?.();
    });

    contractCase('errors: 1019 unknown field, bad value, contradictory output options, download-only rules', ['production'], async () => {
      const { api, h } = await setup();
      const e = await expectError(api.vectorize({ image: SMALL_PNG }, [['processing.maxcolors', '3']]), 400, 1019);
      expect(e.message).toContain('processing.maxcolors');
      await expectError(api.vectorize({ image: SMALL_PNG }, { 'processing.max_colors': 999 }), 400, 1019);
      await expectError(api.vectorize({ image: SMALL_PNG }, { mode: 'cheap' as 'test' }), 400, 1019);
      await expectError(api.vectorize({ image: SMALL_PNG }, { 'output.size.width': 0 }), 400, 1019);
      await expectError(api.vectorize({ image: SMALL_PNG }, { 'policy.retention_days': 31 }), 400, 1019);
      const v = await api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 1 });
      await expectError(api.download(v.imageToken!, [['processing.max_colors', '2']]), 400, 1019);
      await expectError(api.download(v.imageToken!, [['mode', 'test']]), 400, 1019);
      await expectError(api.download(v.imageToken!, [['output.size.scale', '0']]), 400, 1019);
      // Validation failures cost nothing and change nothing.
      expect((await api.account()).credits).toBe(100);
      expect((await api.download(v.imageToken!)).status).toBe(200);
      await h.close?.();
    });

    contractCase('errors: /download and /delete need image.token (1005), unknown token 1027', ['local'], async () => {
      const { post, api, h } = await setup();
      const form = new FormData();
      form.append('output.file_format', 'svg');
      await expectRawError(await post('download', form), 400, 1005);
      await expectRawError(await post('delete', new FormData()), 400, 1005);
      await expectError(api.download('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), 400, 1027);
      await expectError(api.download('../../etc/passwd'), 400, 1027);
      await expectError(api.delete('api-test-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), 400, 1027);
      await expectError(api.vectorize({ token: 'nope' }, { mode: 'test' }), 400, 1027);
      expect((await api.account()).credits).toBe(100);
      await h.close?.();
    });

    contractCase('errors: 1006 unreadable image, 1013 too many pixels, 1012 too many bytes', ['production'], async () => {
      const { api, h } = await setup();
      await expectError(api.vectorize({ image: new TextEncoder().encode('this is not an image') }, { mode: 'test' }), 400, 1006);
      await expectError(api.vectorize({ image: SMALL_PNG.subarray(0, 40) }, { mode: 'test' }), 400, 1006);
      await expectError(api.vectorize({ base64: '!!!not base64!!!' }, { mode: 'test' }), 400, 1019);
      await expectError(api.vectorize({ image: pngHeaderOnly(10_000, 10_000) }, { mode: 'test' }), 413, 1013);
      await expectError(api.vectorize({ image: new Uint8Array(31_457_281) }, { mode: 'test' }), 413, 1012);
      await expectError(api.vectorize({ base64: 'A'.repeat(1_048_580) }, { mode: 'test' }), 413, 1012);
      // Production failures are not charged.
      await expectError(api.vectorize({ image: new TextEncoder().encode('junk') }), 400, 1006);
      expect((await api.account()).credits).toBe(100);
      expect((await api.vectorize({ image: SMALL_PNG }, { mode: 'test' })).status).toBe(200);
      await h.close?.();
    });

    contractCase('errors: image.url 1020, 1021, 1022, 1024, 1012', ['fetchImage'], async () => {
      const fetchImage = async (url: string) => {
        if (url.endsWith('/404')) return new Response('gone', { status: 404 });
        if (url.endsWith('/html')) return new Response('<html>', { status: 200, headers: { 'Content-Type': 'text/html' } });
        if (url.endsWith('/big')) {
          return new Response(
            new ReadableStream<Uint8Array>({
              pull(controller) {
                controller.enqueue(new Uint8Array(4 * 1024 * 1024));
              },
            }),
            { status: 200, headers: { 'Content-Type': 'image/png' } },
          );
        }
        throw new TypeError('getaddrinfo ENOTFOUND images.example');
      };
      const { api, h } = await setup({ fetchImage });
      await expectError(api.vectorize({ url: 'https://images.example/404' }, { mode: 'test' }), 400, 1020);
      await expectError(api.vectorize({ url: 'https://images.example/html' }, { mode: 'test' }), 400, 1021);
      const e = await expectError(api.vectorize({ url: 'https://images.example/down' }, { mode: 'test' }), 400, 1022);
      // One message for every failed fetch: the network error is never repeated (issue 37 item 1).
      expect(e.message).toContain('No image could be fetched from https://images.example/down');
      expect(e.message).not.toContain('ENOTFOUND');
      await expectError(api.vectorize({ url: 'not a url' }, { mode: 'test' }), 400, 1024);
      await expectError(api.vectorize({ url: 'ftp://images.example/a.png' }, { mode: 'test' }), 400, 1024);
      await expectError(api.vectorize({ url: 'https://images.example/big' }, { mode: 'test' }), 413, 1012);
      expect((await api.vectorize({ image: SMALL_PNG }, { mode: 'test' })).status).toBe(200);
      await h.close?.();
    });

    contractCase('errors: 402 account states 1008, 1010, 1011; test modes still work', ['account', 'production', 'preview'], async () => {
      for (const [account, code] of [
        [{ subscriptionPlan: 'none', subscriptionState: 'active', credits: 100 }, 1008],
        [{ subscriptionPlan: 'p', subscriptionState: 'ended', credits: 100 }, 1008],
        [{ subscriptionPlan: 'p', subscriptionState: 'pastDue', credits: 100 }, 1010],
        [{ subscriptionPlan: 'p', subscriptionState: 'active', credits: 0.5 }, 1011],
      ] as const) {
        const { api, h } = await setup({ account });
        await expectError(api.vectorize({ image: SMALL_PNG }), 402, code);
        const t = await api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 1 });
        expect(t.status).toBe(200);
        expect((await api.download(t.imageToken!)).creditsCharged).toBe(0);
        expect((await api.account()).credits).toBe(account.credits);
        await h.close?.();
      }
      // 0.5 credits: preview (0.2) works, production (1.0) does not.
      const { api, h } = await setup({ account: { subscriptionPlan: 'p', subscriptionState: 'active', credits: 0.5 } });
      expect((await api.vectorize({ image: SMALL_PNG }, { mode: 'preview' })).creditsCharged).toBe(0.2);
      expect((await api.account()).credits).toBe(0.3);
      await h.close?.();
    });
  });
}

import { describe, expect, it } from 'vitest';
import { LocalAccount } from '../../src/api/account.js';
import { createClient, ApiClientError } from '../../src/api/client.js';
import { createService, type ServiceOptions } from '../../src/api/service.js';
import { createMemoryStore, type ImageStore, type RandomSource } from '../../src/api/storage/index.js';
import { watermarkRgba, watermarkSvg } from '../../src/api/watermark.js';
import { encodePng } from '../helpers/encode.js';
import { concat, pngChunk } from '../decode/build.js';
import { drawShape, rect } from '../helpers/raster.js';
import { CONTRACT_CREDENTIALS, CONTRACT_EPOCH, runContract, SMALL_PNG, type ContractSetup } from './contract.js';

/** Deterministic xorshift32 byte source. */
function seededRandom(seed = 0x9e3779b9): RandomSource {
  let s = seed >>> 0 || 1;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      s ^= s << 13;
      s >>>= 0;
      s ^= s >>> 17;
      s ^= s << 5;
      s >>>= 0;
      bytes[i] = s & 0xff;
    }
    return bytes;
  };
}

const BASE = 'http://tracelab.invalid/api/v1';

function inProcess(setup: ContractSetup, extra: Partial<ServiceOptions> = {}) {
  let t = CONTRACT_EPOCH;
  const store = extra.store ?? createMemoryStore();
  const handler = createService({
    store,
    account: new LocalAccount(setup.account),
    credentials: CONTRACT_CREDENTIALS,
    now: () => t,
    random: seededRandom(),
    ...(setup.fetchImage ? { fetchImage: setup.fetchImage } : {}),
    ...extra,
  });
  const fetch = (input: string, init: RequestInit) => handler(new Request(input, init));
  return {
    store,
    handler,
    harness: { baseUrl: BASE, fetch, advance: (ms: number) => void (t += ms) },
    api: createClient({ baseUrl: BASE, ...CONTRACT_CREDENTIALS, fetch, validateFields: false, maxAttempts: 1 }),
  };
}

runContract(async (setup) => inProcess(setup).harness);

async function failure(p: Promise<unknown>): Promise<ApiClientError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiClientError);
  return e as ApiClientError;
}

describe('service (in-process specifics)', () => {
  it('/download re-renders the stored trace without re-tracing (the stored image is never read)', async () => {
    const { api, store } = inProcess({});
    const v = await api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 1 });
    const record = (await store.get(v.imageToken!))!;
    expect(record.mode).toBe('test');
    expect(record.image.mimeType).toBe('image/png');
    expect([...record.image.bytes]).toEqual([...SMALL_PNG]);
    expect(record.options).toEqual([['mode', 'test'], ['policy.retention_days', '1']]);
    // Replace the image with garbage: a re-trace would fail with 1006.
    await store.put({ ...record, image: { bytes: new Uint8Array([1, 2, 3]), mimeType: 'image/png' } });
    const d = await api.download(v.imageToken!);
    expect(new TextDecoder().decode(d.body)).toBe(new TextDecoder().decode(v.body));
    // …while a token-input /vectorize does re-trace the stored image.
    const e = await failure(api.vectorize({ token: v.imageToken! }, { mode: 'test' }));
    expect(e.code).toBe(1006);
  });

  it('/download with the other output.shape_stacking traces the stored image again with it', async () => {
    const { api } = inProcess({});
    const png = encodePng(drawShape(60, 60, [255, 255, 255], [{ color: [200, 30, 30], inside: rect(10, 10, 50, 50) }, { color: [30, 30, 200], inside: rect(25, 25, 35, 35) }]));
    const v = await api.vectorize({ image: png }, { mode: 'test', 'policy.retention_days': 1 });
    // The red square's path: two subpaths (outline + hole) under cutouts, one when stacked.
    const redSubpaths = (svg: string): number => (/<(?:path|rect) fill="#c81e1e"(?: d="([^"]*)")?/.exec(svg)![1] ?? 'm').split(/[mM]/).length - 1;
    expect(redSubpaths(new TextDecoder().decode(v.body))).toBe(2);
    const stacked = await api.download(v.imageToken!, [['output.shape_stacking', 'stacked']]);
    expect(redSubpaths(new TextDecoder().decode(stacked.body))).toBe(1);
    const again = await api.download(v.imageToken!);
    expect(new TextDecoder().decode(again.body)).toBe(new TextDecoder().decode(v.body));
  });

  it('a corrupt stored trace is 500/1028', async () => {
    const { api, store } = inProcess({});
    const v = await api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 1 });
    const record = (await store.get(v.imageToken!))!;
    await store.put({ ...record, trace: new TextEncoder().encode('{"width":') });
    const e = await failure(api.download(v.imageToken!));
    expect([e.status, e.code]).toEqual([500, 1028]);
  });

  it('store failures: put → 500/−4 and nothing is charged; other exceptions → 500/−1 without details', async () => {
    const memory = createMemoryStore();
    const errors: unknown[] = [];
    const failing: ImageStore = {
      put: async () => {
        throw new Error('disk full');
      },
      get: async () => {
        throw new Error('secret internal detail');
      },
      delete: (t) => memory.delete(t),
    };
    const { api, harness } = inProcess({}, { store: failing, onError: (e) => errors.push(e) });
    const e1 = await failure(api.vectorize({ image: SMALL_PNG }, { 'policy.retention_days': 2 }));
    expect([e1.status, e1.code]).toEqual([500, -4]);
    expect((await api.account()).credits).toBe(100);
    const e2 = await failure(api.download('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'));
    expect([e2.status, e2.code]).toEqual([500, -1]);
    expect(e2.message).not.toContain('secret internal detail');
    expect(errors).toHaveLength(1);
    // The handler keeps working.
    expect((await api.vectorize({ image: SMALL_PNG }, { mode: 'test' })).status).toBe(200);
    const raw = await harness.fetch(`${BASE}/account`, {
      method: 'GET',
      headers: { Authorization: `Basic ${btoa(`${CONTRACT_CREDENTIALS.apiId}:${CONTRACT_CREDENTIALS.apiSecret}`)}` },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('X-Credits-Charged')).toBe('0.000000');
  });

  it('routes under any path prefix', async () => {
    const { handler } = inProcess({});
    const auth = { Authorization: `Basic ${btoa(`${CONTRACT_CREDENTIALS.apiId}:${CONTRACT_CREDENTIALS.apiSecret}`)}` };
    const res = await handler(new Request('http://x/some/prefix/api/v1/account', { headers: auth }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ credits: 100 });
  });

  it('a malformed multipart body is 400/1019', async () => {
    const { handler } = inProcess({});
    const res = await handler(
      new Request(`${BASE}/vectorize`, {
        method: 'POST',
        body: 'garbage',
        headers: {
          'Content-Type': 'multipart/form-data; boundary=zzz',
          Authorization: `Basic ${btoa(`${CONTRACT_CREDENTIALS.apiId}:${CONTRACT_CREDENTIALS.apiSecret}`)}`,
        },
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(1019);
  });

  it('same request, same bytes (seeded tokens, fixed clock)', async () => {
    const a = inProcess({});
    const b = inProcess({});
    const ra = await a.api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 1 });
    const rb = await b.api.vectorize({ image: SMALL_PNG }, { mode: 'test', 'policy.retention_days': 1 });
    expect(ra.imageToken).toBe(rb.imageToken);
    expect(Buffer.from(ra.body).equals(Buffer.from(rb.body))).toBe(true);
  });
});

describe('watermark', () => {
  it('draws dots over transparent and opaque pixels, heavy more than discreet', () => {
    const w = 200;
    const h = 120;
    const count = (style: 'heavy' | 'discreet') => {
      const rgba = new Uint8Array(w * h * 4);
      watermarkRgba(rgba, w, h, style);
      let n = 0;
      for (let i = 3; i < rgba.length; i += 4) if (rgba[i]! > 0) n++;
      return n;
    };
    const heavy = count('heavy');
    const discreet = count('discreet');
    expect(heavy).toBeGreaterThan(w * h * 0.1);
    expect(discreet).toBeGreaterThan(0);
    expect(discreet).toBeLessThan(heavy / 3);
  });

  it('appends the SVG group before </svg>', () => {
    const svg = watermarkSvg('<svg viewBox="0 0 10 10">\n<path d="M0 0"/>\n</svg>\n', 10, 10);
    expect(svg.endsWith('</g>\n</svg>\n')).toBe(true);
    expect(svg.indexOf('<path')).toBeLessThan(svg.indexOf('<g id="tracelab-test-watermark"'));
  });
});

describe('X-Tracelab-Request-Id (a fleet behind haproxy)', () => {
  /** The request ids the account was asked to charge under, one per production call. */
  async function chargedIds(trustRequestId: boolean | undefined): Promise<(string | undefined)[]> {
    const ids: (string | undefined)[] = [];
    class RecordingAccount extends LocalAccount {
      override charge(microCredits: number, requestId?: string): number {
        ids.push(requestId);
        return super.charge(microCredits);
      }
    }
    const handler = createService({
      store: createMemoryStore(),
      account: new RecordingAccount(),
      credentials: CONTRACT_CREDENTIALS,
      ...(trustRequestId !== undefined ? { trustRequestId } : {}),
    });
    const form = new FormData();
    form.set('image', new Blob([SMALL_PNG as Uint8Array<ArrayBuffer>], { type: 'image/png' }), 'small.png');
    form.set('mode', 'production');
    const auth = `Basic ${btoa(`${CONTRACT_CREDENTIALS.apiId}:${CONTRACT_CREDENTIALS.apiSecret}`)}`;
    const response = await handler(new Request(`${BASE}/vectorize`, { method: 'POST', body: form, headers: { Authorization: auth, 'X-Tracelab-Request-Id': 'client-chosen-id' } }));
    expect(response.status).toBe(200);
    return ids;
  }

  it('is ignored unless the deployment says a load balancer sets it (a client cannot pay once for many calls)', async () => {
    expect(await chargedIds(undefined)).toEqual([undefined]);
    expect(await chargedIds(false)).toEqual([undefined]);
    expect(await chargedIds(true)).toEqual(['client-chosen-id']);
  });
});

describe('issue 41: the image.base64 cap counts base64 characters, not whitespace', () => {
  /** SMALL_PNG padded with a private ancillary chunk (decoders skip it) to exactly `bytes` bytes. */
  function pngOfSize(bytes: number): Uint8Array {
    const afterIhdr = 8 + 25;
    const pad = bytes - SMALL_PNG.length - 12;
    const out = concat(SMALL_PNG.subarray(0, afterIhdr), pngChunk('prVt', new Uint8Array(pad).fill(7)), SMALL_PNG.subarray(afterIhdr));
    expect(out.length).toBe(bytes);
    return out;
  }
  const exact = Buffer.from(pngOfSize((1_048_576 / 4) * 3)).toString('base64');

  it('exactly 1,048,576 base64 characters plus a trailing newline are accepted, and so is the same text wrapped at 76 columns', async () => {
    expect(exact.length).toBe(1_048_576);
    const { api } = inProcess({});
    const plain = await api.vectorize({ base64: `${exact}\n` }, { mode: 'test' });
    expect(plain.status).toBe(200);
    const wrapped = exact.replace(/.{76}/g, '$&\r\n');
    const mime = await api.vectorize({ base64: wrapped }, { mode: 'test' });
    expect(new TextDecoder().decode(mime.body)).toBe(new TextDecoder().decode(plain.body));
  });

  it('one base64 character more is 413 / 1012 whatever the whitespace', async () => {
    const { api } = inProcess({});
    const e = await failure(api.vectorize({ base64: `${exact}AAAA\n` }, { mode: 'test' }));
    expect([e.status, e.code]).toEqual([413, 1012]);
    expect(e.message).toContain('1048580 characters');
  });
});

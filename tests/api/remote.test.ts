/**
 * The API contract against the REAL Vectorizer.AI service, in free test modes only.
 *
 * Runs only when both `TRACELAB_REMOTE_ID` and `TRACELAB_REMOTE_SECRET` are set (otherwise every case
 * is reported as skipped); base URL `TRACELAB_REMOTE_URL` or https://api.vectorizer.ai/api/v1.
 *
 * Credits: `runContract(…, { testModesOnly: true })` registers only the cases that use `mode=test` /
 * `test_preview` or free calls. As a second guard, the harness's fetch refuses (before any network
 * access) a `/vectorize` request that carries an image source without `mode=test` or `test_preview`,
 * and any `/download` of a token that is not an `api-test-` token unless the token is one the suite
 * invents to test 1027 (it never obtained a paid token).
 */
import { describe, expect, it } from 'vitest';
import type { FetchLike } from '../../src/api/client.js';
import { runContract, type ContractHarness } from './contract.js';

const env = process.env;
const apiId = env['TRACELAB_REMOTE_ID'];
const apiSecret = env['TRACELAB_REMOTE_SECRET'];
const baseUrl = (env['TRACELAB_REMOTE_URL'] || 'https://api.vectorizer.ai/api/v1').replace(/\/+$/, '');

const FREE_MODES = new Set(['test', 'test_preview']);
const IMAGE_SOURCES = ['image', 'image.base64', 'image.url', 'image.token'];
/** Tokens the contract invents for its unknown-token (1027) checks; they cannot belong to a paid image. */
const INVENTED_TOKENS = new Set(['aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '../../etc/passwd']);

/** Throws when a request could spend credits (see the module comment). */
export function assertFreeRequest(url: string, init: RequestInit): void {
  const path = new URL(url).pathname;
  const form = init.body instanceof FormData ? init.body : undefined;
  if (path.endsWith('/vectorize') && form && IMAGE_SOURCES.some((k) => form.has(k))) {
    const mode = form.get('mode');
    if (typeof mode !== 'string' || !FREE_MODES.has(mode)) {
      throw new Error(`remote contract: refusing a paid /vectorize request (mode ${JSON.stringify(mode)})`);
    }
  }
  if (path.endsWith('/download') && form) {
    const token = form.get('image.token');
    if (typeof token === 'string' && !token.startsWith('api-test-') && !INVENTED_TOKENS.has(token)) {
      throw new Error(`remote contract: refusing /download of a non-test token ${token}`);
    }
  }
  if (init.body !== undefined && init.body !== null && !form) {
    throw new Error('remote contract: refusing a request body that is not multipart form data (cannot check its mode)');
  }
}

const remoteFetch: FetchLike = async (input, init) => {
  assertFreeRequest(input, init);
  return globalThis.fetch(input, init);
};

describe.skipIf(!apiId || !apiSecret)(`remote Vectorizer.AI contract (${baseUrl}, test modes only)`, () => {
  runContract(
    async (setup): Promise<ContractHarness> => {
      if (setup.account || setup.fetchImage) throw new Error('remote contract: the real service has no account or fetchImage set-up');
      return {
        baseUrl,
        fetch: remoteFetch,
        credentials: { apiId: apiId!, apiSecret: apiSecret! },
        advance() {
          throw new Error('remote contract: the real service clock cannot be moved');
        },
      };
    },
    { testModesOnly: true },
  );
});

describe('remote contract credit guard (no network)', () => {
  const form = (entries: [string, string][]) => {
    const f = new FormData();
    for (const [k, v] of entries) f.append(k, v);
    return f;
  };
  const u = (p: string) => `${baseUrl}/${p}`;
  it('lets free requests through', () => {
    expect(() => assertFreeRequest(u('vectorize'), { method: 'POST', body: form([['image.base64', 'AA=='], ['mode', 'test']]) })).not.toThrow();
    expect(() => assertFreeRequest(u('vectorize'), { method: 'POST', body: form([['image.token', 'x'], ['mode', 'test_preview']]) })).not.toThrow();
    expect(() => assertFreeRequest(u('vectorize'), { method: 'POST' })).not.toThrow();
    expect(() => assertFreeRequest(u('account'), { method: 'GET' })).not.toThrow();
    expect(() => assertFreeRequest(u('download'), { method: 'POST', body: form([['image.token', 'api-test-abc']]) })).not.toThrow();
    expect(() => assertFreeRequest(u('download'), { method: 'POST', body: form([['image.token', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']]) })).not.toThrow();
  });
  it('refuses anything that could spend credits', () => {
    expect(() => assertFreeRequest(u('vectorize'), { method: 'POST', body: form([['image.base64', 'AA==']]) })).toThrow(/paid/);
    expect(() => assertFreeRequest(u('vectorize'), { method: 'POST', body: form([['image.url', 'https://x/a.png'], ['mode', 'preview']]) })).toThrow(/paid/);
    expect(() => assertFreeRequest(u('download'), { method: 'POST', body: form([['image.token', 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb']]) })).toThrow(/non-test/);
    expect(() => assertFreeRequest(u('vectorize'), { method: 'POST', body: 'mode=production' })).toThrow(/multipart/);
  });
});

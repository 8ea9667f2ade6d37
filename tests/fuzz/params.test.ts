/**
 * CI slice of the parameter fuzzing (tests/fuzz/params.ts; the full ≥ 10,000 run is
 * scripts/fuzz-params.mjs): 1,500 seeded random submissions to the in-process handler, each
 * answered 200 or a documented 4xx with a JSON error body — never a 500.
 */
import { describe, expect, it } from 'vitest';
import { LocalAccount } from '../../src/api/account.js';
import { createService } from '../../src/api/service.js';
import { createMemoryStore } from '../../src/api/storage/index.js';
import { ALLOWED_ERRORS, runFuzz, submission, createFuzzTarget, toRequest } from './params.js';

const SEED = 1;
const SLICE = 1_500;

describe('parameter fuzzing (in-process /api/v1 handler)', () => {
  it(`${SLICE} random submissions: only 200 or a documented 4xx, never 500`, async () => {
    const summary = await runFuzz(SEED, 0, SLICE);
    const report = summary.failures.map((f) => `${f.summary}\n  → ${f.outcome.status}: ${f.outcome.problem}`).join('\n');
    expect(report).toBe('');
    // The mix reaches every layer: successes, validation, auth, routing, image reading.
    for (const key of ['200', '400/1019', '400/1005', '401/1001', '404/-1', '405/-1', '400/1006']) {
      expect(summary.counts[key] ?? 0, key).toBeGreaterThan(0);
    }
    for (const key of Object.keys(summary.counts)) {
      if (key === '200') continue;
      const [status, code] = key.split('/').map(Number);
      expect(ALLOWED_ERRORS.get(status!)?.has(code!), key).toBe(true);
    }
  }, 120_000);

  it('is deterministic: the same seed and index give the same request', async () => {
    const target = await createFuzzTarget();
    for (const i of [0, 7, 123, 1499]) {
      expect(submission(SEED, i, target).summary).toBe(submission(SEED, i, target).summary);
    }
  });

  it('a 150 kB unknown parameter name is answered 1019, quoted short, with no suggestion (its time: bench/guards.mjs)', async () => {
    const handler = createService({
      store: createMemoryStore(),
      account: new LocalAccount(),
      credentials: { apiId: 'a', apiSecret: 'b' },
    });
    for (const endpoint of ['vectorize', 'download']) {
      const form = new FormData();
      form.append('image.token', 'x');
      form.append('9'.repeat(150_000), 'true');
      const res = await handler(
        toRequest({ index: 0, method: 'POST', path: `/api/v1/${endpoint}`, headers: { Authorization: `Basic ${btoa('a:b')}` }, body: form, summary: '' }),
      );
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.code).toBe(1019);
      expect(error.message).toMatch(/^Unknown parameter '9{1,200}…/);
      expect(error.message).not.toMatch(/did you mean/);
      expect(error.message.length).toBeLessThan(600);
    }
  });
});

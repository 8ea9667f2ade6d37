/**
 * The bounded request queue of `tracelab serve`: beyond the bound a request gets 429 / 1015 with
 * Retry-After at once, the requests inside it are unaffected, and the client's back-off turns the
 * 429 into a success once there is room.
 */
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../../src/api/client.js';
import { withQueueLimit } from '../../src/api/service-queue.js';

/** A handler whose answers the test releases one by one. */
function gatedHandler() {
  const waiting: (() => void)[] = [];
  let handled = 0;
  const handler = (_request: Request): Promise<Response> =>
    new Promise((resolve) => {
      waiting.push(() => {
        handled++;
        resolve(new Response('{"subscriptionPlan":"p","subscriptionState":"active","credits":1}', { status: 200, headers: { 'Content-Type': 'application/json' } }));
      });
    });
  return { handler, release: () => waiting.shift()?.(), waiting, handled: () => handled };
}

const request = (): Request => new Request('http://tracelab.invalid/api/v1/account');

describe('withQueueLimit', () => {
  it('answers 429 / 1015 with Retry-After beyond the bound, and takes requests again once there is room', async () => {
    const gate = gatedHandler();
    const limited = withQueueLimit(gate.handler, { maxInFlight: 2, retryAfterSeconds: 7 });
    const first = limited(request());
    const second = limited(request());
    const third = await limited(request());
    expect(third.status).toBe(429);
    expect(third.headers.get('Retry-After')).toBe('7');
    expect((await third.json()).error).toMatchObject({ status: 429, code: 1015 });
    expect(gate.waiting).toHaveLength(2); // the refused request never reached the handler
    gate.release();
    expect((await first).status).toBe(200);
    const fourth = limited(request());
    expect(gate.waiting).toHaveLength(2);
    gate.release();
    gate.release();
    expect((await second).status).toBe(200);
    expect((await fourth).status).toBe(200);
    expect(gate.handled()).toBe(3);
  });

  it("the client's back-off absorbs the 429: it waits Retry-After and succeeds", async () => {
    const gate = gatedHandler();
    const limited = withQueueLimit(gate.handler, { maxInFlight: 1, retryAfterSeconds: 5 });
    const waits: number[] = [];
    const client = createClient({
      baseUrl: 'http://tracelab.invalid/api/v1',
      apiId: 'a',
      apiSecret: 'b',
      fetch: (input, init) => limited(new Request(input, init)),
      sleep: async (ms) => {
        waits.push(ms);
        gate.release(); // room frees up while the client waits
      },
      validateFields: false,
    });
    const busy = limited(request());
    const account = client.account();
    // After its wait the client tries again and gets in; answer it.
    await vi.waitFor(() => expect(gate.waiting).toHaveLength(1));
    expect((await busy).status).toBe(200);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(5000);
    gate.release();
    await expect(account).resolves.toBeDefined();
  });
});

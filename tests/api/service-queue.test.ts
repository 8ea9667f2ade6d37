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

describe('withQueueLimit: slots are taken once the body has arrived (issue 37 item 3)', () => {
  /** A POST whose body arrives when the test says so. */
  function upload(): { request: Request; finish: () => void } {
    let finish!: () => void;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('mode=test'));
        finish = () => controller.close();
      },
    });
    const request = new Request('http://tracelab.invalid/api/v1/vectorize', { method: 'POST', body, duplex: 'half' } as RequestInit);
    return { request, finish };
  }

  it('an upload still arriving holds no slot; once in, it waits for one like any request', async () => {
    const gate = gatedHandler();
    const limited = withQueueLimit(gate.handler, { maxInFlight: 1, retryAfterSeconds: 5 });
    const slow = upload();
    const slowAnswer = limited(slow.request);
    const account = limited(request());
    expect(gate.waiting).toHaveLength(1); // the GET got the one slot although the upload came first
    slow.finish();
    expect((await slowAnswer).status).toBe(429); // its body is in, and the slot is still taken
    gate.release();
    expect((await account).status).toBe(200);
  });

  it('bodies being received are bounded too (maxReceiving): one more is 429 at once', async () => {
    const gate = gatedHandler();
    const limited = withQueueLimit(gate.handler, { maxInFlight: 4, retryAfterSeconds: 5, maxReceiving: 1 });
    const first = upload();
    const firstAnswer = limited(first.request);
    const second = await limited(upload().request);
    expect(second.status).toBe(429);
    expect((await second.json()).error.message).toContain('1 uploads are already being received');
    first.finish();
    await vi.waitFor(() => expect(gate.waiting).toHaveLength(1));
    gate.release();
    expect((await firstAnswer).status).toBe(200);
  });

  it('state() tells since when every slot has been taken, and forgets it when one frees', async () => {
    let now = 1000;
    const gate = gatedHandler();
    const limited = withQueueLimit(gate.handler, { maxInFlight: 2, retryAfterSeconds: 5, now: () => now });
    expect(limited.state().fullSinceMs).toBeUndefined();
    const a = limited(request());
    now = 2000;
    expect(limited.state()).toEqual({ inFlight: 1, receiving: 0, fullSinceMs: undefined });
    const b = limited(request());
    now = 5000;
    expect(limited.state()).toEqual({ inFlight: 2, receiving: 0, fullSinceMs: 2000 });
    gate.release();
    await a;
    expect(limited.state().fullSinceMs).toBeUndefined();
    gate.release();
    await b;
  });
});

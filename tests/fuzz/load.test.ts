/**
 * Short CI version of scripts/load.mjs: 6 concurrent clients (src/api/client.ts, with its 429
 * back-off), 4 rounds each, against a real node:http server (startServer) in front of the service
 * with a bounded queue of 2, posting small PNGs in mixed modes and formats. Every call must
 * succeed — the only non-200 answers allowed are the queue's 429/1015, and the back-off must absorb
 * all of them — and 429s must occur, so the queue path is exercised. They occur on any machine:
 * the first two requests to reach the service are held (filling the queue) until the other four
 * clients have been answered 429. Nothing depends on speed: the run is a number of rounds, not a
 * duration.
 */
import { encode as encodePngImage } from 'fast-png';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalAccount } from '../../src/api/account.js';
import { ApiClientError, createClient, type FetchLike } from '../../src/api/client.js';
import { withQueueLimit } from '../../src/api/service-queue.js';
import { createService } from '../../src/api/service.js';
import { createMemoryStore } from '../../src/api/storage/index.js';
import { startServer, type RunningServer } from '../../src/cli/server.js';

const CREDENTIALS = { apiId: 'load-id', apiSecret: 'load-secret' } as const;
const CLIENTS = 6;
const ROUNDS = 4;
const QUEUE = 2;
const FORMATS = ['svg', 'pdf', 'eps', 'dxf', 'png'] as const;
const MODES = ['test', 'test_preview', 'preview', 'production'] as const;

function image(variant: number): Uint8Array {
  const size = 48;
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const inside = variant % 2 === 0 ? (x - 24) ** 2 + (y - 24) ** 2 < 15 ** 2 : x > 8 + variant && x < 40 && y > 10 && y < 36;
      data.set(inside ? [20, 20, 200, 255] : [255, 255, 255, 255], (y * size + x) * 4);
    }
  }
  return encodePngImage({ width: size, height: size, data, channels: 4, depth: 8 });
}
const IMAGES = [0, 1, 2, 3].map(image);

let server: RunningServer | undefined;
afterAll(async () => {
  await server?.close();
});

describe('load (CI version of scripts/load.mjs)', () => {
  it(`${CLIENTS} clients × ${ROUNDS} rounds through a queue of ${QUEUE}: no errors, 429s absorbed`, async () => {
    const service = createService({
      store: createMemoryStore(),
      account: new LocalAccount({ subscriptionPlan: 'load', subscriptionState: 'active', credits: 1_000_000 }),
      credentials: CREDENTIALS,
    });
    // The first QUEUE requests to reach the service wait until the other clients' first requests
    // have been refused (429) by the full queue. (Should the queue let them all through instead,
    // the gate opens when every client's first request has arrived, and the 429 check below fails.)
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    let arrived = 0;
    const gated = async (request: Request): Promise<Response> => {
      arrived++;
      if (arrived >= CLIENTS) openGate();
      if (arrived <= QUEUE) await gate;
      return service(request);
    };
    server = await startServer({ handler: withQueueLimit(gated, { maxInFlight: QUEUE, retryAfterSeconds: 1 }), port: 0 });
    const baseUrl = `${server.url}/api/v1`;

    let seen429 = 0;
    let ok = 0;
    const errors: string[] = [];
    const counting: FetchLike = async (input, init) => {
      const res = await fetch(input, init);
      if (res.status === 429) {
        seen429++;
        expect(res.headers.get('Retry-After')).toBe('1');
        if (seen429 >= CLIENTS - QUEUE) openGate();
      }
      return res;
    };
    const call = async <T>(p: () => Promise<T>): Promise<T | undefined> => {
      try {
        const r = await p();
        ok++;
        return r;
      } catch (e) {
        errors.push(e instanceof ApiClientError ? `${e.status}/${e.code} ${e.message}` : String(e));
        return undefined;
      }
    };

    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, c) => {
        // Retry-After (1 s) sets the wait; enough attempts that a client is never starved out.
        const client = createClient({ baseUrl, ...CREDENTIALS, fetch: counting, backoffStepMs: 100, maxAttempts: 30 });
        for (let n = 0; n < ROUNDS; n++) {
          const mode = MODES[(c + n) % MODES.length]!;
          const format = FORMATS[(c * 2 + n) % FORMATS.length]!;
          const img = IMAGES[(c + n) % IMAGES.length]!;
          if (mode === 'preview') {
            const v = await call(() => client.vectorize({ image: img }, { mode, 'policy.retention_days': 1 }));
            if (v?.imageToken === undefined) continue;
            await call(() => client.download(v.imageToken!, { 'output.file_format': format }));
            await call(() => client.delete(v.imageToken!));
          } else {
            await call(() => client.vectorize({ image: img }, { mode, 'output.file_format': format }));
          }
        }
      }),
    );

    expect(errors).toEqual([]);
    // Every call answered: one per round, three (vectorize, download, delete) in a preview round.
    let calls = 0;
    for (let c = 0; c < CLIENTS; c++) for (let n = 0; n < ROUNDS; n++) calls += MODES[(c + n) % MODES.length] === 'preview' ? 3 : 1;
    expect(ok).toBe(calls);
    // The other clients' first requests were refused while the queue was full.
    expect(seen429).toBeGreaterThanOrEqual(CLIENTS - QUEUE);
  }, 60_000);
});

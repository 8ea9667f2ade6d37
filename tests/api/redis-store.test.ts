/**
 * The Redis side of a fleet (src/api/storage/redis.ts) against a real `/usr/bin/redis-server` on a
 * random loopback port (installed by scripts/test-all.sh), through the real ioredis connection of
 * `tracelab serve` (src/cli/redis-client.ts): records and their expiry, set-once receipts, the
 * blob-store seam, atomic charges, the fleet-wide slot limit, and 503 / −3 while Redis is away.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TracelabError } from '../../src/engine/errors.js';
import { encodeRecord } from '../../src/api/storage/codec.js';
import { createRedisLimiter, createRedisStore, RedisAccount } from '../../src/api/storage/redis.js';
import type { BlobStore, ImageRecord } from '../../src/api/storage/types.js';
import { connectRedis, type RedisConnection } from '../../src/cli/redis-client.js';
import { startRedis, stopAll, type RedisProc } from '../helpers/fleet.js';

let dir: string;
let redis: RedisProc;
let client: RedisConnection;
const logs: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tracelab-redis-'));
  redis = await startRedis(dir);
  client = await connectRedis(redis.url, (l) => logs.push(l));
}, 30_000);

afterAll(async () => {
  await client?.quit();
  await stopAll();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let n = 0;
function record(overrides: Partial<ImageRecord> = {}): ImageRecord {
  const now = Date.now();
  const token = (++n).toString(32).padStart(32, 'a').replace(/[^a-z2-7]/g, 'b');
  return {
    token,
    createdAt: now,
    expiresAt: now + 2 * 86_400_000,
    mode: 'preview',
    image: { bytes: new Uint8Array([137, 80, 78, 71, 1, 2, 3]), mimeType: 'image/png' },
    options: [['mode', 'preview']],
    trace: new Uint8Array([9, 8, 7]),
    receipt: null,
    ...overrides,
  };
}

async function thrown(p: Promise<unknown>): Promise<TracelabError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof TracelabError) return e;
    throw e;
  }
  throw new Error('expected a TracelabError');
}

function prefixOf(name: string): string {
  return `t-${name}-${Math.random().toString(36).slice(2)}:`;
}

describe('Redis image store', () => {
  it('stores a record whole with its retention as the key expiry, reads it back, deletes it', async () => {
    const prefix = prefixOf('rec');
    const store = createRedisStore(client, { prefix });
    const r = record();
    await store.put(r);
    expect(await store.get(r.token)).toEqual(r);
    const ttl = Number(await client.eval(`return redis.call('PTTL', KEYS[1])`, [`${prefix}img:${r.token}`], []));
    expect(ttl).toBeGreaterThan(2 * 86_400_000 - 60_000);
    expect(ttl).toBeLessThanOrEqual(2 * 86_400_000);
    expect(await store.delete(r.token)).toBe(true);
    expect(await store.get(r.token)).toBeUndefined();
    expect(await store.delete(r.token)).toBe(false);
    // Malformed tokens never reach Redis keys.
    expect(await store.get('../x')).toBeUndefined();
    await expect(store.put({ ...r, token: 'A*' })).rejects.toThrow(TypeError);
    // A record whose retention already ended is not kept.
    const old = record({ createdAt: 0, expiresAt: 1 });
    await store.put(old);
    expect(await store.get(old.token)).toBeUndefined();
  });

  it('remembers which request deleted a token, so a retry of that request can answer as the first attempt did', async () => {
    const store = createRedisStore(client, { prefix: prefixOf('del') });
    const r = record();
    await store.put(r);
    expect(await store.delete(r.token, 'req-00000001')).toBe(true);
    expect(await store.deletedBy(r.token, 'req-00000001')).toBe(true);
    expect(await store.deletedBy(r.token, 'req-00000002')).toBe(false);
    expect(await store.deletedBy(record().token, 'req-00000001')).toBe(false);
  });

  it('issues one receipt when several replicas upgrade the same token at once', async () => {
    const store = createRedisStore(client, { prefix: prefixOf('rcpt') });
    const r = record();
    await store.put(r);
    const candidates = Array.from({ length: 8 }, (_, i) => ({ receipt: `rcpt-${String(i).repeat(32)}`.slice(0, 37), issuedAt: 1000 + i }));
    const kept = await Promise.all(candidates.map((c) => store.setReceipt(r.token, c)));
    expect(new Set(kept.map((k) => k?.receipt)).size).toBe(1);
    expect((await store.get(r.token))?.receipt).toEqual(kept[0]);
    // Replacing the record keeps the receipt it carries; an unknown token gets none.
    expect(await store.setReceipt(record().token, candidates[0]!)).toBeUndefined();
  });

  it('answers 500 / 1028 for a damaged record', async () => {
    const prefix = prefixOf('bad');
    const store = createRedisStore(client, { prefix });
    const r = record();
    const bytes = encodeRecord(r);
    bytes[bytes.length - 1] ^= 0xff;
    await client.eval(`redis.call('HSET', KEYS[1], 'rec', ARGV[1])`, [`${prefix}img:${r.token}`], [bytes]);
    const e = await thrown(store.get(r.token));
    expect([e.status, e.code]).toEqual([500, 1028]);
  });

  it('keeps large records in a blob store (the S3 seam) and only their key in Redis', async () => {
    const objects = new Map<string, Uint8Array>();
    const blobs: BlobStore = {
      async put(key, bytes) {
        objects.set(key, new Uint8Array(bytes));
      },
      async get(key) {
        return objects.get(key);
      },
      async delete(key) {
        objects.delete(key);
      },
    };
    const prefix = prefixOf('blob');
    const store = createRedisStore(client, { prefix, blobs, inlineMaxBytes: 16 });
    const r = record();
    await store.put(r);
    expect([...objects.keys()]).toEqual([`img/${r.token}`]);
    const [rec, ref] = await client.hmgetBuffer(`${prefix}img:${r.token}`, ['rec', 'ref']);
    expect(rec).toBeNull();
    expect(new TextDecoder().decode(ref!)).toBe(`img/${r.token}`);
    expect(await store.get(r.token)).toEqual(r);
    expect(await store.delete(r.token)).toBe(true);
    expect(objects.size).toBe(0);
  });
});

describe('Redis account', () => {
  it('is seeded once, and concurrent charges never spend more than the balance', async () => {
    const prefix = prefixOf('acct');
    const account = new RedisAccount(client, prefix);
    expect(await account.seed({ subscriptionPlan: 'p', subscriptionState: 'active', credits: 3 })).toBe(true);
    expect(await account.seed({ subscriptionPlan: 'p', subscriptionState: 'active', credits: 100 })).toBe(false);
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => account.charge(1_000_000)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results) {
      if (r.status === 'rejected') expect([(r.reason as TracelabError).status, (r.reason as TracelabError).code]).toEqual([402, 1011]);
    }
    expect((await account.status()).credits).toBe(0);
    const e = await thrown(Promise.resolve(account.checkCanSpend('production', 1_000_000)));
    expect(e.code).toBe(1011);
    await account.checkCanSpend('test', 1_000_000); // test modes never need credits
  });

  it('charges a request id once: a retried request whose first attempt was charged is not charged again', async () => {
    const account = new RedisAccount(client, prefixOf('once'));
    await account.seed({ subscriptionPlan: 'p', subscriptionState: 'active', credits: 10 });
    const id = '7F000001-ABCD-1234-0001';
    expect(await account.charge(1_000_000, id)).toBe(1_000_000);
    expect(await account.charge(1_000_000, id)).toBe(1_000_000);
    expect((await account.status()).credits).toBe(9);
    await account.charge(1_000_000, 'another-request-1');
    await account.charge(1_000_000); // no id: always charged
    expect((await account.status()).credits).toBe(7);
  });

  it('refuses charges of a past-due or ended subscription with 1010 / 1008', async () => {
    const pastDue = new RedisAccount(client, prefixOf('due'));
    await pastDue.seed({ subscriptionPlan: 'p', subscriptionState: 'pastDue', credits: 5 });
    expect((await thrown(pastDue.charge(1))).code).toBe(1010);
    const ended = new RedisAccount(client, prefixOf('end'));
    await ended.seed({ subscriptionPlan: 'none', subscriptionState: 'active', credits: 5 });
    expect((await thrown(ended.charge(1))).code).toBe(1008);
  });
});

describe('fleet-wide request slots', () => {
  it('counts slots across replicas, gives them back on release, and frees a dead replica’s slots when its lease ends', async () => {
    const prefix = prefixOf('slots');
    const a = createRedisLimiter(client, { prefix, account: 'acc', limit: 2, replicaId: 'a', leaseMs: 300 });
    const b = createRedisLimiter(client, { prefix, account: 'acc', limit: 2, replicaId: 'b', leaseMs: 300 });
    const r1 = await a.acquire();
    const r2 = await b.acquire();
    expect(r1).not.toBeNull();
    expect(r2).not.toBeNull();
    expect(await b.acquire()).toBeNull();
    r2!();
    // The release is sent without waiting; the next acquire on the same connection follows it.
    const r3 = await b.acquire();
    expect(r3).not.toBeNull();
    // Replica a "dies": it stops renewing. b's own slot is renewed while held.
    a.close();
    let freed: (() => void) | null = null;
    for (let i = 0; i < 40 && freed === null; i++) {
      await new Promise((r) => setTimeout(r, 50));
      freed = await b.acquire();
    }
    expect(freed).not.toBeNull();
    expect(await b.acquire()).toBeNull(); // r3 (renewed) and the new one
    b.close();
  });
});

describe('Redis away', () => {
  it('answers 503 / −3 for every store, account and slot call, and works again once Redis is back', async () => {
    const prefix = prefixOf('down');
    const store = createRedisStore(client, { prefix });
    const account = new RedisAccount(client, prefix);
    await account.seed({ subscriptionPlan: 'p', subscriptionState: 'active', credits: 5 });
    const limiter = createRedisLimiter(client, { prefix, account: 'acc', limit: 4, replicaId: 'x' });
    const r = record();
    await store.put(r);
    const port = redis.port;
    await redis.stop(); // SIGTERM: Redis writes its append-only file and exits
    // One call at a time: a call started before the previous one is awaited could reject while
    // nothing listens yet (an unhandled rejection on a loaded machine).
    const calls: (() => Promise<unknown>)[] = [() => store.get(r.token), () => store.put(record()), () => account.charge(1_000_000), () => account.status(), () => limiter.acquire()];
    for (const start of calls) {
      const e = await thrown(start());
      expect([e.status, e.code]).toEqual([503, -3]);
    }
    redis = await startRedis(dir, port);
    for (let i = 0; i < 100 && !client.isReady(); i++) await new Promise((res) => setTimeout(res, 50));
    expect(client.isReady()).toBe(true);
    // Persistence on: what was written before the restart is there.
    expect(await store.get(r.token)).toEqual(r);
    expect(await account.charge(1_000_000)).toBe(1_000_000);
    expect((await account.status()).credits).toBe(4);
    limiter.close();
    expect(logs.join('\n')).toMatch(/connected again/);
  }, 30_000);
});

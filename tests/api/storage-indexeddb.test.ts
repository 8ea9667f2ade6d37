/**
 * The IndexedDB image store over fake-indexeddb. Each test gets its own `IDBFactory` passed in
 * explicitly (the global `indexedDB` is never set). `idb` recognises IndexedDB objects with
 * `instanceof` against the global interface classes, so fake-indexeddb's classes are installed as
 * globals for the duration of this file (useFakeIndexedDbGlobals; see indexeddb.ts).
 */
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DAY_MS,
  encodeRecord,
  generateToken,
  getRecord,
  newRecord,
  purgeExpired,
  receiptMatches,
  withReceipt,
  type ImageRecord,
  type RandomSource,
} from '../../src/api/storage/index.js';
import { INDEXEDDB_OBJECT_STORE, createIndexedDbStore } from '../../src/api/storage/indexeddb.js';
import { TracelabError } from '../../src/engine/errors.js';
import { useFakeIndexedDbGlobals } from '../helpers/fake-indexeddb.js';

const T0 = Date.UTC(2025, 0, 1);

useFakeIndexedDbGlobals();

function counterRandom(): RandomSource {
  let n = 0;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = (n + i * 7) & 255;
    n++;
    return bytes;
  };
}

function sample(mode: ImageRecord['mode'] = 'production', random = counterRandom(), retentionDays = 2): ImageRecord {
  return newRecord({
    mode,
    retentionDays,
    image: { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), mimeType: 'image/png' },
    options: [
      ['processing.max_colors', '4'],
      ['processing.palette', '#FF0000;'],
    ],
    trace: new Uint8Array([9, 8, 7, 6, 5]),
    now: () => T0,
    random,
  });
}

async function expectCode(p: Promise<unknown>, code: number, status: number): Promise<TracelabError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e, `expected error ${code}`).toBeInstanceOf(TracelabError);
  expect((e as TracelabError).code).toBe(code);
  expect((e as TracelabError).status).toBe(status);
  return e as TracelabError;
}

/** Writes `value` under `key` straight into the database, bypassing the store (raw IndexedDB API). */
function rawPut(factory: IDBFactory, name: string, key: string, value: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = factory.open(name);
    req.onerror = () => reject(req.error);
    req.onsuccess = () => {
      const db = req.result;
      const tx = db.transaction(INDEXEDDB_OBJECT_STORE, 'readwrite');
      tx.objectStore(INDEXEDDB_OBJECT_STORE).put(value, key);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
      tx.onerror = () => reject(tx.error);
    };
  });
}

/** A factory that counts `open` calls (and forwards them). */
function countingFactory(inner: IDBFactory): { factory: IDBFactory; opens: () => number } {
  let n = 0;
  const factory = new Proxy(inner, {
    get(target, prop) {
      if (prop === 'open') {
        return (name: string, version?: number) => {
          n++;
          return target.open(name, version);
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { factory, opens: () => n };
}

describe('IndexedDB store', () => {
  let factory: IDBFactory;
  beforeEach(() => {
    factory = new FakeIDBFactory();
  });

  it('put / get / delete round trip', async () => {
    const store = createIndexedDbStore({ indexedDB: factory });
    const r = sample('test');
    expect(r.token.startsWith('api-test-')).toBe(true);
    expect(await store.get(r.token)).toBeUndefined();
    await store.put(r);
    expect(await store.get(r.token)).toEqual(r);
    expect(await store.list()).toEqual([r.token]);
    expect(await store.delete(r.token)).toBe(true);
    expect(await store.get(r.token)).toBeUndefined();
    expect(await store.delete(r.token)).toBe(false);
    expect(await store.list()).toEqual([]);
    await expectCode(getRecord(store, r.token, () => T0), 1027, 400);
    await store.close();
  });

  it('put replaces; returned records are copies; receipts survive', async () => {
    const store = createIndexedDbStore({ indexedDB: factory });
    const r = sample();
    await store.put(r);
    const got = (await store.get(r.token))!;
    got.image.bytes[0] = 0;
    expect((await store.get(r.token))!.image.bytes[0]).toBe(0x89);
    const upgraded = withReceipt(r, () => T0 + 1, counterRandom());
    await store.put(upgraded);
    const again = await getRecord(store, r.token, () => T0 + 2);
    expect(again).toEqual(upgraded);
    expect(receiptMatches(again, upgraded.receipt!.receipt)).toBe(true);
    expect(await store.list()).toEqual([r.token]);
    await store.close();
  });

  it('survives re-opening (a new store over the same factory and name = a page reload)', async () => {
    const random = counterRandom();
    const records = [sample('production', random), sample('test', random), sample('preview', random)];
    const first = createIndexedDbStore({ indexedDB: factory });
    await Promise.all(records.map((r) => first.put(r)));
    // Reload without closing the first connection, then again after closing it.
    const second = createIndexedDbStore({ indexedDB: factory });
    for (const r of records) expect(await second.get(r.token)).toEqual(r);
    await first.close();
    await second.close();
    const third = createIndexedDbStore({ indexedDB: factory, name: 'tracelab' });
    expect((await third.list()).sort()).toEqual(records.map((r) => r.token).sort());
    // Another database name (or another factory = another origin) is a separate store.
    expect(await createIndexedDbStore({ indexedDB: factory, name: 'other' }).list()).toEqual([]);
    expect(await createIndexedDbStore({ indexedDB: new FakeIDBFactory() }).get(records[0]!.token)).toBeUndefined();
    await third.close();
  });

  it('expiry via getRecord with a fake clock → 1027; purgeExpired removes it', async () => {
    const store = createIndexedDbStore({ indexedDB: factory });
    const r = sample('production', counterRandom(), 2);
    await store.put(r);
    let now = T0 + 2 * DAY_MS - 1;
    const clock = () => now;
    expect((await getRecord(store, r.token, clock)).token).toBe(r.token);
    now = T0 + 2 * DAY_MS;
    const e = await expectCode(getRecord(store, r.token, clock), 1027, 400);
    expect(e.message).toMatch(/expired/);
    expect(await purgeExpired(store, clock)).toEqual([r.token]);
    expect(await store.get(r.token)).toBeUndefined();
    await store.close();
  });

  it('corrupt entry → 500/1028 (truncated, bit-flipped, not bytes, another token’s record)', async () => {
    const store = createIndexedDbStore({ indexedDB: factory, name: 'db' });
    const r = sample();
    await store.put(r);
    const bytes = encodeRecord(r);
    await rawPut(factory, 'db', r.token, bytes.subarray(0, bytes.length - 3));
    await expectCode(getRecord(store, r.token, () => T0), 1028, 500);
    const flipped = bytes.slice();
    flipped[flipped.length - 1]! ^= 1;
    await rawPut(factory, 'db', r.token, flipped);
    await expectCode(store.get(r.token), 1028, 500);
    await rawPut(factory, 'db', r.token, 'not a record at all');
    await expectCode(store.get(r.token), 1028, 500);
    await rawPut(factory, 'db', r.token, { token: r.token });
    await expectCode(store.get(r.token), 1028, 500);
    const other = generateToken('test', counterRandom());
    await rawPut(factory, 'db', other, bytes);
    const e = await expectCode(store.get(other), 1028, 500);
    expect(e.message).toMatch(/does not match/);
    // Corrupt records are left in place by purgeExpired, and can still be deleted.
    expect(await purgeExpired(store, () => T0 + 100 * DAY_MS)).toEqual([]);
    expect(await store.delete(other)).toBe(true);
    await store.close();
  });

  it('malformed tokens are unknown tokens and never touch the database', async () => {
    const { factory: counted, opens } = countingFactory(factory);
    const store = createIndexedDbStore({ indexedDB: counted });
    for (const bad of ['../x', '../../etc/passwd', '/etc/passwd', 'a\0b', '.', '', 'A'.repeat(32), 'a'.repeat(32) + '.tlrec']) {
      expect(await store.get(bad)).toBeUndefined();
      expect(await store.delete(bad)).toBe(false);
      await expectCode(getRecord(store, bad, () => T0), 1027, 400);
    }
    await expect(store.put({ ...sample(), token: '../x' })).rejects.toThrow(TypeError);
    expect(opens()).toBe(0);
    // A valid token does open it.
    expect(await store.get(sample().token)).toBeUndefined();
    expect(opens()).toBe(1);
    // Keys that are not valid tokens (written by something else) are not listed.
    await rawPut(factory, 'tracelab', '../x', encodeRecord(sample()));
    expect(await store.list()).toEqual([]);
    await store.close();
  });

  it('storage failures: get/delete → 500/1025, put → 500/−4; the open is retried', async () => {
    let fail = true;
    const flaky = new Proxy(factory, {
      get(target, prop) {
        if (prop === 'open') {
          return (name: string, version?: number) => {
            if (fail) throw new Error('storage denied');
            return target.open(name, version);
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const store = createIndexedDbStore({ indexedDB: flaky });
    const r = sample();
    const e = await expectCode(store.get(r.token), 1025, 500);
    expect(e.message).toContain('storage denied');
    await expectCode(store.delete(r.token), 1025, 500);
    await expectCode(store.put(r), -4, 500);
    fail = false;
    await store.put(r);
    expect(await store.get(r.token)).toEqual(r);
    await store.close();
  });

  it('steps aside when another connection deletes the database, then reopens', async () => {
    const store = createIndexedDbStore({ indexedDB: factory });
    const r = sample();
    await store.put(r);
    await new Promise<void>((resolve, reject) => {
      const req = factory.deleteDatabase('tracelab');
      req.onsuccess = () => resolve();
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error('blocked by the store connection'));
    });
    expect(await store.get(r.token)).toBeUndefined();
    await store.put(r);
    expect(await store.get(r.token)).toEqual(r);
    await store.close();
  });

  it('without a factory and without a global indexedDB it fails as a storage error', async () => {
    expect((globalThis as { indexedDB?: unknown }).indexedDB).toBeUndefined();
    const store = createIndexedDbStore();
    const e = await expectCode(store.get(sample().token), 1025, 500);
    expect(e.message).toMatch(/IndexedDB is not available/);
  });
});

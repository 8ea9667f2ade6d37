/**
 * `ImageStore` on IndexedDB (the browser; tests pass fake-indexeddb's factory), built on `idb`.
 *
 * - One database `name` (default `tracelab`), version 1, one object store `records` with out-of-line
 *   keys: key = Image Token, value = the record encoded by codec.ts (a Uint8Array). Going through the
 *   codec means a damaged or foreign value is caught by `decodeRecord` and becomes 500/1028, exactly as
 *   for the directory store, and the stored token must match its key.
 * - Tokens are checked against `TOKEN_PATTERN` (token.ts) before the database is opened or touched:
 *   `get`/`delete` treat malformed tokens as unknown tokens and `put` refuses them (TypeError).
 * - Failures: opening or reading fails → 500/1025; writing fails → 500/−4; `list` rethrows as is.
 * - The store keeps no records in memory, so a new store over the same factory and name (a page
 *   reload) sees every record written before. The connection is opened lazily, reopened after a
 *   failure, and closed when another connection asks for a version change (another tab upgrading or
 *   deleting the database), so this store never blocks it; the next call reopens.
 *
 * `idb` is pure JS, but it recognises IndexedDB objects with `instanceof` against the global
 * `IDBRequest`, `IDBDatabase`, … classes. Browsers have them; in Node the caller (tests) must install
 * the classes matching the factory it passes (fake-indexeddb exports them). Nothing here reads the
 * global `indexedDB` unless no factory is given.
 *
 * Not re-exported from storage/index.ts (import `./storage/indexeddb.js`, as with directory.js), so
 * Node-only consumers (CLI, HTTP server) do not bundle `idb`.
 */

import { wrap, type DBSchema, type IDBPDatabase } from 'idb';
import { decodeStoredRecord, encodeRecord } from './codec.js';
import { retrievalFailedError, storeFailedError } from './errors.js';
import { isValidToken } from './token.js';
import type { ImageRecord, ImageStore } from './types.js';

/** Name of the object store inside the database. */
export const INDEXEDDB_OBJECT_STORE = 'records';
/** Schema version of the database. */
export const INDEXEDDB_VERSION = 1;

interface TracelabDb extends DBSchema {
  records: { key: string; value: Uint8Array };
}

export interface IndexedDbStoreOptions {
  /** Database name (default `tracelab`). */
  readonly name?: string;
  /** The IndexedDB factory (default the global `indexedDB`). */
  readonly indexedDB?: IDBFactory;
}

export interface IndexedDbStore extends ImageStore {
  list(): Promise<string[]>;
  /** Closes the connection (the next call reopens it). */
  close(): Promise<void>;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function createIndexedDbStore(options: IndexedDbStoreOptions = {}): IndexedDbStore {
  const name = options.name ?? 'tracelab';
  let opening: Promise<IDBPDatabase<TracelabDb>> | undefined;

  function factory(): IDBFactory {
    const f = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
    if (!f) throw new TypeError('IndexedDB is not available: pass options.indexedDB');
    return f;
  }

  function open(): Promise<IDBPDatabase<TracelabDb>> {
    if (opening) return opening;
    const forget = () => {
      if (opening === pending) opening = undefined;
    };
    const pending = (async () => {
      const request = factory().open(name, INDEXEDDB_VERSION);
      if (typeof IDBRequest === 'undefined' || !(request instanceof IDBRequest)) {
        throw new TypeError('the global IDBRequest/IDBDatabase/… classes do not match the IndexedDB factory (idb needs them)');
      }
      request.addEventListener('upgradeneeded', () => {
        const db = request.result;
        if (!db.objectStoreNames.contains(INDEXEDDB_OBJECT_STORE)) db.createObjectStore(INDEXEDDB_OBJECT_STORE);
      });
      const db = (await wrap(request)) as unknown as IDBPDatabase<TracelabDb>;
      // Another connection wants a version change (upgrade or deleteDatabase): step aside.
      db.addEventListener('versionchange', () => {
        forget();
        db.close();
      });
      // Closed by the browser (storage cleared, …): reopen on the next call.
      db.addEventListener('close', forget);
      return db;
    })();
    opening = pending;
    // A failed open is not cached: the next call tries again.
    pending.catch(forget);
    return pending;
  }

  return {
    async put(record: ImageRecord) {
      if (!isValidToken(record.token)) throw new TypeError(`malformed image token ${JSON.stringify(record.token)}`);
      const bytes = encodeRecord(record);
      try {
        const db = await open();
        const tx = db.transaction(INDEXEDDB_OBJECT_STORE, 'readwrite');
        await Promise.all([tx.store.put(bytes, record.token), tx.done]);
      } catch (e) {
        throw storeFailedError(record.token, describe(e));
      }
    },

    async get(token) {
      if (!isValidToken(token)) return undefined;
      let value: unknown;
      try {
        const db = await open();
        value = await db.get(INDEXEDDB_OBJECT_STORE, token);
      } catch (e) {
        throw retrievalFailedError(token, describe(e));
      }
      if (value === undefined) return undefined;
      return decodeStoredRecord(value, token);
    },

    async delete(token) {
      if (!isValidToken(token)) return false;
      try {
        const db = await open();
        const tx = db.transaction(INDEXEDDB_OBJECT_STORE, 'readwrite');
        const existed = (await tx.store.getKey(token)) !== undefined;
        if (existed) await tx.store.delete(token);
        await tx.done;
        return existed;
      } catch (e) {
        throw retrievalFailedError(token, describe(e));
      }
    },

    async list() {
      const db = await open();
      const keys = await db.getAllKeys(INDEXEDDB_OBJECT_STORE);
      return keys.filter((k): k is string => typeof k === 'string' && isValidToken(k));
    },

    async close() {
      const pending = opening;
      opening = undefined;
      if (!pending) return;
      try {
        (await pending).close();
      } catch {
        // a failed open has nothing to close
      }
    },
  };
}

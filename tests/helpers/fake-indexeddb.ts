/**
 * fake-indexeddb for tests that pass their own `IDBFactory` (the global `indexedDB` is never set):
 * `idb` recognises IndexedDB objects with `instanceof` against the global interface classes, so
 * fake-indexeddb's classes are installed as globals for the duration of the calling test file
 * (see src/api/storage/indexeddb.ts).
 */
import { IDBCursor, IDBDatabase, IDBIndex, IDBKeyRange, IDBObjectStore, IDBOpenDBRequest, IDBRequest, IDBTransaction } from 'fake-indexeddb';
import { afterAll, beforeAll, vi } from 'vitest';

const INTERFACES = { IDBCursor, IDBDatabase, IDBIndex, IDBKeyRange, IDBObjectStore, IDBOpenDBRequest, IDBRequest, IDBTransaction };

/** Registers a beforeAll that stubs the IndexedDB interface globals and an afterAll that restores them. */
export function useFakeIndexedDbGlobals(): void {
  beforeAll(() => {
    for (const [name, value] of Object.entries(INTERFACES)) vi.stubGlobal(name, value);
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });
}

/**
 * The local Vectorizer.AI-compatible service inside the browser (it runs in the export worker):
 * the same `/api/v1` handler as `tracelab serve` (src/api/service.ts) over an IndexedDB image
 * store, with the local account kept in IndexedDB too, so tokens, receipts and credits survive a
 * reload. In: plain request objects (method, endpoint, form fields). Out: status, headers, body.
 * No comlink here (tracer.worker.ts exposes it).
 */

import { DEFAULT_ACCOUNT, LocalAccount, type AccountStatus } from '../api/account.js';
import { createService, type ApiHandler } from '../api/service.js';
import { createIndexedDbStore, type IndexedDbStore } from '../api/storage/indexeddb.js';
import type { RetainedImage, ServiceRequest, ServiceResponse } from './protocol.js';

/** The credentials the in-browser service accepts (the page adds them; they protect nothing). */
export const BROWSER_CREDENTIALS = { apiId: 'tracelab', apiSecret: 'tracelab' } as const;
const ACCOUNT_DB = 'tracelab-account';
const ACCOUNT_KEY = 'account';

export interface ServiceHost {
  call(request: ServiceRequest): Promise<ServiceResponse>;
  account(): Promise<AccountStatus>;
  /** Replaces the local account (plan, state, credits); invalid values throw AccountConfigError. */
  setAccount(status: AccountStatus): Promise<AccountStatus>;
  resetAccount(): Promise<AccountStatus>;
  /** Retained images, newest first, with their expiry (expired ones are dropped from the list). */
  listRetained(): Promise<RetainedImage[]>;
}

export interface ServiceHostOptions {
  readonly indexedDB?: IDBFactory;
  readonly now?: () => number;
  /** Database name of the image store (default `tracelab`). */
  readonly storeName?: string;
}

export function createServiceHost(options: ServiceHostOptions = {}): ServiceHost {
  const now = options.now ?? (() => Date.now());
  const store: IndexedDbStore = createIndexedDbStore({
    ...(options.storeName ? { name: options.storeName } : {}),
    ...(options.indexedDB ? { indexedDB: options.indexedDB } : {}),
  });
  let accountDb: Promise<IDBDatabase> | undefined;
  let state: { account: LocalAccount; handler: ApiHandler } | undefined;

  function db(): Promise<IDBDatabase> {
    accountDb ??= new Promise<IDBDatabase>((resolve, reject) => {
      const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
      if (!factory) return reject(new TypeError('IndexedDB is not available'));
      const request = factory.open(ACCOUNT_DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('kv');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error ?? new Error('cannot open the account database'));
    });
    return accountDb;
  }

  /** One get or put on the account key, as a promise. */
  async function kv<T>(mode: IDBTransactionMode, op: (s: IDBObjectStore) => IDBRequest): Promise<T> {
    const d = await db();
    return new Promise<T>((resolve, reject) => {
      const request = op(d.transaction('kv', mode).objectStore('kv'));
      request.onsuccess = () => resolve(request.result as T);
      request.onerror = () => reject(request.error ?? new Error('account database request failed'));
    });
  }

  async function load(): Promise<{ account: LocalAccount; handler: ApiHandler }> {
    if (state) return state;
    const saved = await kv<AccountStatus | undefined>('readonly', (s) => s.get(ACCOUNT_KEY));
    let account: LocalAccount;
    try {
      account = saved ? LocalAccount.fromJson(JSON.stringify(saved)) : new LocalAccount(DEFAULT_ACCOUNT);
    } catch {
      account = new LocalAccount(DEFAULT_ACCOUNT); // a damaged saved account falls back to the default
    }
    return use(account);
  }

  function use(account: LocalAccount): { account: LocalAccount; handler: ApiHandler } {
    state = { account, handler: createService({ store, account, credentials: BROWSER_CREDENTIALS, now }) };
    return state;
  }

  async function save(account: LocalAccount): Promise<void> {
    await kv('readwrite', (s) => s.put(account.status(), ACCOUNT_KEY));
  }

  return {
    async call(request) {
      const { account, handler } = await load();
      const before = account.microCredits;
      const form = new FormData();
      for (const [name, value] of request.fields) {
        if (typeof value === 'string') form.append(name, value);
        else form.append(name, new Blob([value.bytes as Uint8Array<ArrayBuffer>], { type: value.type }), value.filename);
      }
      const auth = `Basic ${btoa(`${BROWSER_CREDENTIALS.apiId}:${BROWSER_CREDENTIALS.apiSecret}`)}`;
      const response = await handler(
        new Request(`http://tracelab.local/api/v1/${request.endpoint}`, {
          method: request.endpoint === 'account' ? 'GET' : 'POST',
          headers: { Authorization: auth },
          ...(request.endpoint === 'account' ? {} : { body: form }),
        }),
      );
      if (account.microCredits !== before) await save(account);
      const headers: [string, string][] = [];
      response.headers.forEach((value, name) => headers.push([name, value]));
      return { status: response.status, headers, body: new Uint8Array(await response.arrayBuffer()) };
    },
    async account() {
      return (await load()).account.status();
    },
    async setAccount(status) {
      const account = LocalAccount.fromJson(JSON.stringify(status));
      use(account);
      await save(account);
      return account.status();
    },
    async resetAccount() {
      const account = new LocalAccount(DEFAULT_ACCOUNT);
      use(account);
      await save(account);
      return account.status();
    },
    async listRetained() {
      const out: RetainedImage[] = [];
      const t = now();
      for (const token of await store.list()) {
        let record;
        try {
          record = await store.get(token);
        } catch {
          continue; // corrupt: /download reports it as 1028
        }
        if (!record || record.expiresAt <= t) continue;
        out.push({
          token,
          mode: record.mode,
          createdAt: record.createdAt,
          expiresAt: record.expiresAt,
          receipt: record.receipt?.receipt ?? null,
          bytes: record.image.bytes.length,
        });
      }
      return out.sort((a, b) => b.createdAt - a.createdAt || (a.token < b.token ? -1 : 1));
    },
  };
}

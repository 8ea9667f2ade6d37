/**
 * In-memory `ImageStore` (any platform; tests, the browser before IndexedDB, a throw-away server).
 * Records are copied on `put` and `get`, so callers can never mutate what is stored.
 */

import { isValidToken } from './token.js';
import type { ImageRecord, ImageStore } from './types.js';

/** Deep copy; byte arrays become plain Uint8Arrays (a Node Buffer's `slice` would alias, `new Uint8Array(x)` copies). */
export function copyRecord(record: ImageRecord): ImageRecord {
  return {
    token: record.token,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    mode: record.mode,
    image: { bytes: new Uint8Array(record.image.bytes), mimeType: record.image.mimeType },
    options: record.options.map(([k, v]) => [k, v] as const),
    trace: new Uint8Array(record.trace),
    receipt: record.receipt ? { receipt: record.receipt.receipt, issuedAt: record.receipt.issuedAt } : null,
  };
}

export function createMemoryStore(): ImageStore {
  const records = new Map<string, ImageRecord>();
  return {
    async put(record) {
      if (!isValidToken(record.token)) throw new TypeError(`malformed image token ${JSON.stringify(record.token)}`);
      records.set(record.token, copyRecord(record));
    },
    async get(token) {
      if (!isValidToken(token)) return undefined;
      const record = records.get(token);
      return record && copyRecord(record);
    },
    async delete(token) {
      return isValidToken(token) && records.delete(token);
    },
    async list() {
      return [...records.keys()];
    },
  };
}

/**
 * Retained images of the Vectorizer.AI-compatible service (reference §2.1.1 `policy.retention_days`,
 * §2.2 `/download`, §2.3 `/delete`, §5.2 retention). A store keeps one `ImageRecord` per Image Token;
 * implementations: `createMemoryStore` (memory.ts, any platform) and `createDirectoryStore`
 * (directory.ts, Node only). An IndexedDB store for the browser can implement the same interface.
 *
 * Contract shared by every implementation:
 * - `get` / `delete` of a token that does not match `TOKEN_PATTERN` (token.ts) behave as for an
 *   unknown token (`undefined` / `false`) — a token can never address anything outside the store;
 * - `get` throws TracelabError 500/1028 when a stored record is unreadable (corrupt) and 500/1025
 *   when the storage itself fails; `put` throws 500/−4 ("failed to store the image token", §4.2)
 *   when it cannot store;
 * - stores never check expiry: `getRecord` (records.ts) does, with an injected clock. A store may
 *   also forget a record once its retention ended (the Redis store sets the key's expiry to
 *   `expiresAt`), which reads as an unknown token — the same 400/1027.
 *
 * The Redis store (redis.ts) is shared by many `tracelab serve` replicas, so it adds `setReceipt`:
 * two replicas upgrading the same preview token at once must hand out one receipt, not two.
 * Image bytes beyond what Redis should hold can go to a `BlobStore` (an S3-compatible bucket);
 * see `BlobStore` below and docs/fleet.md "Limits".
 */

import type { Mode } from '../pricing.js';

/** Receipt issued when a preview token was upgraded to production by `/download` (§2.2 `X-Receipt`). */
export interface ReceiptInfo {
  /** The `X-Receipt` value; later downloads sending it pay the additional-format rate (§6.2). */
  readonly receipt: string;
  /** When it was issued (ms since the epoch). */
  readonly issuedAt: number;
}

export interface ImageRecord {
  /** The Image Token (`X-Image-Token`); test-mode tokens start with `api-test-` (§2.1.2, §6.3). */
  readonly token: string;
  /** Creation time, ms since the epoch. */
  readonly createdAt: number;
  /** End of retention, ms since the epoch; the token is expired when `now >= expiresAt` (§5.2). */
  readonly expiresAt: number;
  /** The `mode` of the `/vectorize` call that made the token (prices `/download`, §6.2). */
  readonly mode: Mode;
  /** The original uploaded image bytes and their media type. */
  readonly image: { readonly bytes: Uint8Array; readonly mimeType: string };
  /** The processing options of that call, as API field entries (`toFields(opts, 'vectorize')`). */
  readonly options: ReadonlyArray<readonly [string, string]>;
  /** Opaque serialised trace (filled by the engine side); output-only `/download`s re-render from it. */
  readonly trace: Uint8Array;
  /** The receipt of a preview → production upgrade, or null while none was issued (§2.2). */
  readonly receipt: ReceiptInfo | null;
}

export interface ImageStore {
  /** Stores (or replaces) the record under `record.token`. */
  put(record: ImageRecord): Promise<void>;
  /** The record, or undefined for an unknown, deleted or malformed token. */
  get(token: string): Promise<ImageRecord | undefined>;
  /**
   * Removes the record; true when it existed. Malformed tokens → false. `requestId` (shared
   * stores): remember for a while that this request deleted it, for `deletedBy`.
   */
  delete(token: string, requestId?: string): Promise<boolean>;
  /**
   * True when the request `requestId` deleted `token` (shared stores, a few minutes): a retry of
   * that request — its replica died before answering — then answers as the first attempt would.
   */
  deletedBy?(token: string, requestId: string): Promise<boolean>;
  /** Tokens currently stored (expired ones included), when the store can enumerate. */
  list?(): Promise<string[]>;
  /**
   * Sets the record's receipt unless it already has one, atomically, and returns the receipt now
   * in effect (the existing one when another writer was first), or undefined for an unknown token.
   * Stores shared by several processes implement it; without it the service reads, adds the
   * receipt (`withReceipt`) and `put`s the whole record back.
   */
  setReceipt?(token: string, receipt: ReceiptInfo): Promise<ReceiptInfo | undefined>;
}

/**
 * Where large byte strings (the encoded record of a big upload) can live instead of the shared
 * key-value store: the seam for an S3-compatible object store (PUT/GET/DELETE of one object per
 * key, with a lifecycle rule or `Expires` for retention). Keys are store-made (`img/<token>`,
 * never user input). `get` of a missing key resolves undefined; failures reject.
 */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, expiresAt: number): Promise<void>;
  get(key: string): Promise<Uint8Array | undefined>;
  delete(key: string): Promise<void>;
}

/**
 * Record-level rules on top of any `ImageStore`: creating a record for a retaining `/vectorize` call,
 * looking a token up with expiry (reference §5.2, §4.2 1025–1028), receipts (§2.2) and purging.
 * The clock is always injected (`now: () => number`, ms since the epoch).
 */

import { MAX_RETENTION_DAYS, type Mode } from '../pricing.js';
import { parameterError } from '../../engine/errors.js';
import { expiredTokenError, unknownTokenError } from './errors.js';
import { defaultRandom, generateReceipt, generateToken, type RandomSource } from './token.js';
import type { ImageRecord, ImageStore } from './types.js';

export const DAY_MS = 86_400_000;

/** End of retention for a record created at `createdAt` retained `retentionDays` days (1 … 30, §2.1.1). */
export function expiryFor(createdAt: number, retentionDays: number): number {
  if (!Number.isInteger(retentionDays) || retentionDays < 1 || retentionDays > MAX_RETENTION_DAYS) {
    throw parameterError(
      `policy.retention_days must be an integer from 1 to ${MAX_RETENTION_DAYS} to retain an image; received ${String(retentionDays)}`,
    );
  }
  return createdAt + retentionDays * DAY_MS;
}

export interface NewRecordInput {
  readonly mode: Mode;
  /** `policy.retention_days`, 1 … 30 (0 means no token at all, §2.1.1). */
  readonly retentionDays: number;
  readonly image: { readonly bytes: Uint8Array; readonly mimeType: string };
  readonly options: ReadonlyArray<readonly [string, string]>;
  readonly trace: Uint8Array;
  readonly now: () => number;
  readonly random?: RandomSource;
}

/** A fresh record with a new token (`api-test-…` for test modes, §6.3); not yet stored. */
export function newRecord(input: NewRecordInput): ImageRecord {
  const createdAt = input.now();
  return {
    token: generateToken(input.mode, input.random ?? defaultRandom),
    createdAt,
    expiresAt: expiryFor(createdAt, input.retentionDays),
    mode: input.mode,
    image: input.image,
    options: input.options,
    trace: input.trace,
    receipt: null,
  };
}

/** True when `now` is at or past the end of the record's retention. */
export function isExpired(record: ImageRecord, now: number): boolean {
  return now >= record.expiresAt;
}

/**
 * The live record of `token`, or throws:
 * - unknown / deleted / malformed token → 400/1027 (choice explained in errors.ts);
 * - expired (`now() >= expiresAt`) → 400/1027;
 * - unreadable record → 500/1028, storage I/O failure → 500/1025 (thrown by the store).
 */
export async function getRecord(store: ImageStore, token: string, now: () => number): Promise<ImageRecord> {
  const record = await store.get(token);
  if (!record) throw unknownTokenError(token);
  if (isExpired(record, now())) throw expiredTokenError(token, record.expiresAt);
  return record;
}

/** True when `receipt` is the receipt issued for this record's upgrade (prices `/download`, §2.2, §6.2). */
export function receiptMatches(record: ImageRecord, receipt: string | undefined): boolean {
  return record.receipt !== null && receipt !== undefined && receipt === record.receipt.receipt;
}

/**
 * The record with a receipt for its preview → production upgrade (§2.2 `X-Receipt`). An existing
 * receipt is kept, so paying the upgrade again (without sending the receipt) returns the same one.
 * The caller stores the result with `store.put`.
 */
export function withReceipt(record: ImageRecord, now: () => number, random: RandomSource = defaultRandom): ImageRecord {
  if (record.receipt) return record;
  return { ...record, receipt: { receipt: generateReceipt(random), issuedAt: now() } };
}

/** Deletes every expired record of a store that can `list`; returns the tokens removed. Corrupt records are left for inspection. */
export async function purgeExpired(store: ImageStore, now: () => number): Promise<string[]> {
  if (!store.list) return [];
  const removed: string[] = [];
  const t = now();
  for (const token of await store.list()) {
    let record: ImageRecord | undefined;
    try {
      record = await store.get(token);
    } catch {
      continue;
    }
    if (record && isExpired(record, t) && (await store.delete(token))) removed.push(token);
  }
  return removed;
}

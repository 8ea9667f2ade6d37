/**
 * The state a fleet of `tracelab serve` replicas shares in one Redis: retained images, the account
 * and the per-account concurrency limit. Store logic only — the connection (the npm `ioredis`
 * client, loaded on demand) is made in src/cli/redis-client.ts and comes in as a `RedisClient`.
 *
 * In:  a `RedisClient` (five calls: eval, hmgetBuffer, ping, isReady, quit) and a key prefix.
 * Out: `createRedisStore` (an `ImageStore`), `RedisAccount` (what the service needs of an
 *      account), `createRedisLimiter` (acquire/release of a fleet-wide request slot).
 *
 * Keys (prefix default `tracelab:`):
 *   <p>img:<token>          hash {rec: encoded record (codec.ts, receipt left out) | ref: blob key,
 *                           receipt: JSON ReceiptInfo}; the key's expiry is the record's `expiresAt`,
 *                           so Redis itself drops a record when its retention ends.
 *   <p>account              hash {plan, state, micro}: the one local account, micro-credits as an integer.
 *   <p>inflight:<apiId>     sorted set of request slots, score = lease end (ms, Redis clock).
 *   <p>charge:…             a charge's note (10 min): by request id, so a request re-sent by the
 *                           load balancer is charged once; the answer of a charge lost with the
 *                           connection is looked up there once Redis is back.
 *   <p>deleted:req:<id>     the token request <id> deleted (10 min), so its re-sent copy answers alike.
 *
 * Why Lua scripts: each write is one script, which Redis runs atomically — a record is replaced
 * whole (never a hash with `rec` of one upload and `receipt` of another), a charge checks and takes
 * the balance in one step (two replicas never both spend the last credit), a slot is counted and
 * taken in one step. A script that was not run left nothing behind.
 *
 * Failures of Redis itself (refused connection, reset, timeout, not ready) become 503 / −3 with
 * the default `Retry-After` (service-http.ts): the replica is fine, the shared state is not there
 * for a moment, and the client's back-off (client.ts) retries. Nothing is queued while Redis is
 * away (the client is made with its offline queue off), so a request never waits on an outage.
 */

import { ERROR_CODES, TracelabError } from '../../engine/errors.js';
import { LocalAccount, outOfCreditsError, type AccountStatus, type ServiceAccount, type SubscriptionState } from '../account.js';
import { isTestMode, microToCredits, type Mode } from '../pricing.js';
import { decodeStoredRecord, encodeRecord } from './codec.js';
import { corruptTokenError } from './errors.js';
import { isValidToken } from './token.js';
import type { BlobStore, ImageRecord, ImageStore, ReceiptInfo } from './types.js';

/** The Redis calls this module makes; src/cli/redis-client.ts adapts ioredis to it. */
export interface RedisClient {
  /** EVAL of a Lua script; binary arguments go as byte arrays. */
  eval(script: string, keys: readonly string[], args: ReadonlyArray<string | number | Uint8Array>): Promise<unknown>;
  /** HMGET with byte-array values (null for a missing field or key). */
  hmgetBuffer(key: string, fields: readonly string[]): Promise<(Uint8Array | null)[]>;
  ping(): Promise<void>;
  /** True while the connection is up (commands would be sent now). */
  isReady(): boolean;
  quit(): Promise<void>;
}

export const DEFAULT_REDIS_PREFIX = 'tracelab:';

/** 503 / −3: the shared store cannot be reached; retry (the answer carries `Retry-After`). */
export function storeUnavailableError(detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.unavailable, 503, `The shared store (Redis) is unavailable; retry in a few seconds. (${detail})`);
}

/** 503s raised before anything was sent (Redis was known to be away): nothing to look up later. */
const NOT_SENT = new WeakSet<TracelabError>();

/** False for a 503 raised before anything was sent (Redis was known to be away). */
function sent(e: TracelabError): boolean {
  return !NOT_SENT.has(e);
}

/** Runs one Redis call; a transport failure becomes 503 / −3, a TracelabError passes through. */
async function call<T>(client: RedisClient, run: () => Promise<T>): Promise<T> {
  if (!client.isReady()) {
    const e = storeUnavailableError('not connected');
    NOT_SENT.add(e);
    throw e;
  }
  try {
    return await run();
  } catch (e) {
    if (e instanceof TracelabError) throw e;
    throw storeUnavailableError(e instanceof Error ? e.message : String(e));
  }
}

/** How long a write whose answer was lost waits for Redis to come back to learn what happened. */
const RECHECK_MS = 10_000;

/**
 * After a write whose answer was lost with the connection: waits until Redis is back (at most
 * RECHECK_MS) and runs `check` there; undefined when Redis stays away.
 */
async function recheck<T>(client: RedisClient, check: () => Promise<T>): Promise<T | undefined> {
  const end = Date.now() + RECHECK_MS;
  while (Date.now() < end) {
    if (client.isReady()) {
      try {
        return await check();
      } catch {
        // dropped again; keep waiting
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Image records

const PUT_SCRIPT = `
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'receipt', ARGV[3]) end
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`;

const SET_RECEIPT_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSETNX', KEYS[1], 'receipt', ARGV[1])
return redis.call('HGET', KEYS[1], 'receipt')`;

const DELETE_SCRIPT = `return redis.call('DEL', KEYS[1])`;
// DEL, and when a request id is given a note (KEYS[2], 10 min) that this request deleted the token.
const DELETE_NOTED_SCRIPT = `
local n = redis.call('DEL', KEYS[1])
if n == 1 then redis.call('SET', KEYS[2], ARGV[1], 'PX', 600000) end
return n`;
const DELETED_BY_SCRIPT = `return redis.call('GET', KEYS[1])`;
const EXISTS_SCRIPT = `return redis.call('EXISTS', KEYS[1])`;

export interface RedisStoreOptions {
  readonly prefix?: string;
  /** Clock of the retention decisions (the key expiry is `expiresAt − now()`); default `Date.now`. */
  readonly now?: () => number;
  /**
   * Where encoded records larger than `inlineMaxBytes` go (an S3-compatible bucket); Redis then
   * keeps only the key. Without it every record is kept in Redis.
   */
  readonly blobs?: BlobStore;
  /** Default 1 MiB. */
  readonly inlineMaxBytes?: number;
}

export const DEFAULT_INLINE_MAX_BYTES = 1024 * 1024;

function receiptJson(receipt: ReceiptInfo | null): string {
  return receipt === null ? '' : JSON.stringify({ receipt: receipt.receipt, issuedAt: receipt.issuedAt });
}

function parseReceipt(token: string, bytes: Uint8Array | string | null): ReceiptInfo | null {
  if (bytes === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(typeof bytes === 'string' ? bytes : new TextDecoder().decode(bytes));
  } catch {
    throw corruptTokenError(token, 'stored receipt is not JSON');
  }
  const r = value as Partial<ReceiptInfo> | null;
  if (typeof r?.receipt !== 'string' || typeof r.issuedAt !== 'number') throw corruptTokenError(token, 'stored receipt is malformed');
  return { receipt: r.receipt, issuedAt: r.issuedAt };
}

export function createRedisStore(client: RedisClient, options: RedisStoreOptions = {}): ImageStore & Required<Pick<ImageStore, 'setReceipt' | 'deletedBy'>> {
  const prefix = options.prefix ?? DEFAULT_REDIS_PREFIX;
  const now = options.now ?? (() => Date.now());
  const inlineMax = options.inlineMaxBytes ?? DEFAULT_INLINE_MAX_BYTES;
  const keyOf = (token: string): string => `${prefix}img:${token}`;
  const blobKey = (token: string): string => `img/${token}`;
  const deletedKey = (requestId: string): string => `${prefix}deleted:req:${requestId}`;

  return {
    async put(record: ImageRecord) {
      if (!isValidToken(record.token)) throw new TypeError(`malformed image token ${JSON.stringify(record.token)}`);
      const ttl = record.expiresAt - now();
      // A record whose retention already ended is nothing to keep (and PEXPIRE needs a positive time).
      if (ttl <= 0) {
        await call(client, () => client.eval(DELETE_SCRIPT, [keyOf(record.token)], []));
        return;
      }
      // The receipt is a field of its own so `setReceipt` can add it without rewriting the bytes.
      const bytes = encodeRecord({ ...record, receipt: null });
      let field = 'rec';
      let value: string | Uint8Array = bytes;
      if (options.blobs && bytes.length > inlineMax) {
        // Bytes first: a crash before the Redis write leaves an orphan object (removed by the
        // bucket's lifecycle rule), never a Redis entry pointing at nothing.
        await options.blobs.put(blobKey(record.token), bytes, record.expiresAt);
        field = 'ref';
        value = blobKey(record.token);
      }
      await call(client, () => client.eval(PUT_SCRIPT, [keyOf(record.token)], [field, value, receiptJson(record.receipt), Math.ceil(ttl)]));
    },

    async get(token) {
      if (!isValidToken(token)) return undefined;
      const [rec, ref, receipt] = await call(client, () => client.hmgetBuffer(keyOf(token), ['rec', 'ref', 'receipt']));
      let bytes: Uint8Array | null | undefined = rec ?? null;
      if (bytes === null && ref != null) {
        if (!options.blobs) throw corruptTokenError(token, 'the record lives in a blob store this replica is not configured with');
        bytes = await options.blobs.get(new TextDecoder().decode(ref));
        if (bytes === undefined) throw corruptTokenError(token, 'the record bytes are missing from the blob store');
      }
      if (bytes === null) return undefined;
      const record = decodeStoredRecord(bytes, token);
      return { ...record, receipt: parseReceipt(token, receipt ?? null) };
    },

    async delete(token, requestId) {
      if (!isValidToken(token)) return false;
      const noted = requestId !== undefined && REQUEST_ID_PATTERN.test(requestId);
      if (options.blobs) {
        const [ref] = await call(client, () => client.hmgetBuffer(keyOf(token), ['ref']));
        if (ref != null) await options.blobs.delete(new TextDecoder().decode(ref));
      }
      try {
        const removed = await call(client, () =>
          noted ? client.eval(DELETE_NOTED_SCRIPT, [keyOf(token), deletedKey(requestId!)], [token]) : client.eval(DELETE_SCRIPT, [keyOf(token)], []),
        );
        return Number(removed) > 0;
      } catch (e) {
        // The DEL may have run before the connection dropped. The record being gone is what was
        // asked for: once Redis is back and it is gone, that is a success, not a 503 whose retry
        // would then find an unknown token.
        if (!(e instanceof TracelabError) || e.status !== 503 || !sent(e)) throw e;
        const exists = await recheck(client, async () => Number(await client.eval(EXISTS_SCRIPT, [keyOf(token)], [])));
        if (exists === 0) return true;
        throw e;
      }
    },

    async deletedBy(token, requestId) {
      if (!isValidToken(token) || !REQUEST_ID_PATTERN.test(requestId)) return false;
      const by = await call(client, () => client.eval(DELETED_BY_SCRIPT, [deletedKey(requestId)], []));
      return by !== null && String(by) === token;
    },

    async setReceipt(token, receipt) {
      if (!isValidToken(token)) return undefined;
      const stored = await call(client, () => client.eval(SET_RECEIPT_SCRIPT, [keyOf(token)], [receiptJson(receipt)]));
      if (stored === null || stored === undefined) return undefined;
      return parseReceipt(token, stored instanceof Uint8Array ? stored : String(stored)) ?? undefined;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The account

const SEED_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'plan', ARGV[1], 'state', ARGV[2], 'micro', ARGV[3])
return 1`;

/** What CHARGE_SCRIPT answers besides the API's refusal codes. */
const CHARGE_ANSWER = { charged: 0, chargedBefore: 2, noAccount: -1 } as const;

// Returns {answer, balance}: charged; chargedBefore = this request was charged before (nothing
// taken); the API code of a refusal (1008/1010/1011, nothing taken); noAccount. A charge leaves a
// note (KEYS[2], kept 10 min) so a charge whose answer was lost can be looked up, and a retried
// request is not charged twice.
const CHARGE_SCRIPT = `
if redis.call('EXISTS', KEYS[2]) == 1 then return {${CHARGE_ANSWER.chargedBefore}, 0} end
local v = redis.call('HMGET', KEYS[1], 'plan', 'state', 'micro')
if not v[3] then return {${CHARGE_ANSWER.noAccount}, 0} end
if v[1] == 'none' or v[2] == 'ended' then return {${ERROR_CODES.noSubscription}, 0} end
if v[2] == 'pastDue' then return {${ERROR_CODES.pastDue}, 0} end
local cost = tonumber(ARGV[1])
local balance = tonumber(v[3])
if balance < cost then return {${ERROR_CODES.outOfCredits}, balance} end
redis.call('SET', KEYS[2], ARGV[1], 'PX', 600000)
return {${CHARGE_ANSWER.charged}, redis.call('HINCRBY', KEYS[1], 'micro', -cost)}`;

/** Request ids taken as charge keys (haproxy's unique-id, deploy/haproxy.cfg); others are ignored. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{8,128}$/;

const CHARGE_NOTE_SCRIPT = `return redis.call('EXISTS', KEYS[1])`;


const STATUS_SCRIPT = `return redis.call('HMGET', KEYS[1], 'plan', 'state', 'micro')`;

/**
 * The account every replica shares. `checkCanSpend` is a read (a fast refusal before any work);
 * `charge` is the real check: one script compares and takes, so when the last credit is fought
 * over one replica's charge succeeds and the other answers 402 / 1011 with nothing taken — unlike
 * `LocalAccount.charge`, which a single process may let dip to 0 after the work was done.
 */
export class RedisAccount implements ServiceAccount {
  readonly #client: RedisClient;
  readonly #key: string;
  readonly #prefix: string;

  constructor(client: RedisClient, prefix: string = DEFAULT_REDIS_PREFIX) {
    this.#client = client;
    this.#key = `${prefix}account`;
    this.#prefix = prefix;
  }

  /** Writes `initial` unless the account exists already (the first replica seeds it; restarts never reset it). Returns true when it seeded. */
  async seed(initial: AccountStatus): Promise<boolean> {
    const micro = new LocalAccount(initial).microCredits;
    const r = await call(this.#client, () => this.#client.eval(SEED_SCRIPT, [this.#key], [initial.subscriptionPlan, initial.subscriptionState, String(micro)]));
    return Number(r) === 1;
  }

  async status(): Promise<AccountStatus> {
    const v = (await call(this.#client, () => this.#client.eval(STATUS_SCRIPT, [this.#key], []))) as (string | null)[];
    if (!Array.isArray(v) || v[2] === null || v[2] === undefined) throw storeUnavailableError('the account is missing from Redis; start a replica to seed it');
    return { subscriptionPlan: String(v[0]), subscriptionState: String(v[1]) as SubscriptionState, credits: microToCredits(Number(v[2])) };
  }

  async checkCanSpend(mode: Mode, costMicro: number): Promise<void> {
    if (isTestMode(mode)) return; // free and needs no subscription: no Redis round trip
    new LocalAccount(await this.status()).checkCanSpend(mode, costMicro);
  }

  async charge(microCredits: number, requestId?: string): Promise<number> {
    if (!Number.isSafeInteger(microCredits) || microCredits < 0) {
      throw new RangeError(`charge expects non-negative integer micro-credits; received ${String(microCredits)}`);
    }
    if (microCredits === 0) return 0;
    const note =
      requestId !== undefined && REQUEST_ID_PATTERN.test(requestId)
        ? `${this.#prefix}charge:req:${requestId}`
        : `${this.#prefix}charge:${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
    let answer: [number, number];
    try {
      answer = (await call(this.#client, () => this.#client.eval(CHARGE_SCRIPT, [this.#key, note], [String(microCredits)]))) as [number, number];
    } catch (e) {
      // The connection failed with the script sent: it may have run (Redis took the credits, then
      // went away before answering). Answering 503 then would let the client pay twice, so wait
      // for Redis to come back and read the note the script leaves.
      if (!(e instanceof TracelabError) || e.status !== 503 || !sent(e)) throw e;
      const charged = await recheck(this.#client, async () => Number(await this.#client.eval(CHARGE_NOTE_SCRIPT, [note], [])) === 1);
      if (charged !== true) throw e;
      return microCredits;
    }
    const [code, balance] = answer;
    if (code === CHARGE_ANSWER.charged || code === CHARGE_ANSWER.chargedBefore) return microCredits;
    if (code === CHARGE_ANSWER.noAccount) throw storeUnavailableError('the account is missing from Redis; start a replica to seed it');
    // Refused: the same 402 (and message) a LocalAccount would give for this state.
    const status = await this.status();
    const credits = code === ERROR_CODES.outOfCredits ? microToCredits(Number(balance)) : status.credits;
    new LocalAccount({ ...status, credits }).checkCanSpend('production', microCredits);
    // The state changed again since the script ran: the script's answer stands.
    throw outOfCreditsError(microCredits, credits);
  }
}

// ---------------------------------------------------------------------------------------------
// Fleet-wide concurrency per account

const ACQUIRE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1`;

const RENEW_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], 'XX', now + lease, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], lease * 2)
return 1`;

const RELEASE_SCRIPT = `return redis.call('ZREM', KEYS[1], ARGV[1])`;

export interface SharedLimiter {
  /** A release function, or null when the account already has `limit` requests in the fleet. Rejects (503) when Redis is away. */
  acquire(): Promise<(() => void) | null>;
  readonly limit: number;
  /** Stops renewing leases (the process is ending). */
  close(): void;
}

export interface RedisLimiterOptions {
  readonly prefix?: string;
  /** The account (API id) the slots are counted for. */
  readonly account: string;
  /** Requests of the account in flight across the fleet, at most. */
  readonly limit: number;
  /** A unique name of this replica (slot ids start with it). */
  readonly replicaId: string;
  /**
   * Slot lease, ms (default 15 000). A live replica renews its leases every third of it, so a
   * replica killed with requests in flight gives its slots back within one lease.
   */
  readonly leaseMs?: number;
}

export function createRedisLimiter(client: RedisClient, options: RedisLimiterOptions): SharedLimiter {
  if (!(options.limit >= 1)) throw new RangeError(`limit must be at least 1; received ${options.limit}`);
  const key = `${options.prefix ?? DEFAULT_REDIS_PREFIX}inflight:${options.account}`;
  const lease = options.leaseMs ?? 15_000;
  const held = new Set<string>();
  let counter = 0;
  const timer = setInterval(() => {
    if (held.size === 0 || !client.isReady()) return;
    // A failed renewal only shortens a lease; the next one (or the release) fixes it.
    client.eval(RENEW_SCRIPT, [key], [lease, ...held]).catch(() => undefined);
  }, Math.max(100, Math.floor(lease / 3)));
  timer.unref();

  return {
    limit: options.limit,
    async acquire() {
      const id = `${options.replicaId}:${++counter}`;
      const ok = await call(client, () => client.eval(ACQUIRE_SCRIPT, [key], [options.limit, lease, id]));
      if (Number(ok) !== 1) return null;
      held.add(id);
      return () => {
        held.delete(id);
        // Best effort: a slot not given back (Redis away) ends with its lease.
        if (client.isReady()) client.eval(RELEASE_SCRIPT, [key], [id]).catch(() => undefined);
      };
    },
    close() {
      clearInterval(timer);
    },
  };
}

/**
 * A bounded queue in front of the `/api/v1` handler (reference §5.3): at most `maxInFlight`
 * requests are being handled or waiting at once; one more is answered at once with
 * 429 / 1015 "Slow down" and a `Retry-After` header, which the client's back-off
 * (src/api/client.ts) honours. Transport-independent: wraps a fetch-style handler.
 * Why a bound: requests beyond what the tracer can take wait in memory (their bodies already read)
 * — behind the busy worker threads of `tracelab serve`, or behind a synchronous trace on the
 * server thread — so without a bound a burst of uploads grows memory without limit.
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { errorResponse } from './service-http.js';

export interface QueueOptions {
  /** Requests being handled or waiting, at most (≥ 1). */
  readonly maxInFlight: number;
  /** Seconds the 429 asks the client to wait. */
  readonly retryAfterSeconds: number;
}

export const DEFAULT_QUEUE: QueueOptions = { maxInFlight: 16, retryAfterSeconds: 5 };

/** 429 / 1015 with Retry-After: `why` the request is refused, and when to come back. */
function slowDownResponse(why: string, retryAfterSeconds: number): Response {
  const error = new TracelabError(ERROR_CODES.slowDown, 429, `Slow down: ${why}; retry after ${retryAfterSeconds} s.`);
  return errorResponse(error, null, { 'Retry-After': String(retryAfterSeconds) });
}

export function withQueueLimit(handler: (request: Request) => Promise<Response>, options: QueueOptions = DEFAULT_QUEUE): (request: Request) => Promise<Response> {
  if (!(options.maxInFlight >= 1)) throw new RangeError(`maxInFlight must be at least 1; received ${options.maxInFlight}`);
  let inFlight = 0;
  return async (request) => {
    if (inFlight >= options.maxInFlight) {
      return slowDownResponse(`${inFlight} requests are already being handled or waiting`, options.retryAfterSeconds);
    }
    inFlight++;
    try {
      return await handler(request);
    } finally {
      inFlight--;
    }
  };
}

/** A fleet-wide request slot (storage/redis.ts `createRedisLimiter`). */
export interface SlotLimiter {
  /** A release function, or null when every slot is taken; rejects when the shared state is away. */
  acquire(): Promise<(() => void) | null>;
  readonly limit: number;
}

/**
 * The account's concurrency limit across every replica of a fleet: the same 429 / 1015 +
 * `Retry-After` contract as `withQueueLimit`, counted in the shared store so a client spreading
 * requests over N replicas gets the limit once, not N times. When the store cannot be reached the
 * answer is its error (503 / −3 + Retry-After), before any body is read.
 */
export function withSharedLimit(handler: (request: Request) => Promise<Response>, limiter: SlotLimiter, retryAfterSeconds: number = DEFAULT_QUEUE.retryAfterSeconds): (request: Request) => Promise<Response> {
  return async (request) => {
    let release: (() => void) | null;
    try {
      release = await limiter.acquire();
    } catch (e) {
      return errorResponse(e, null);
    }
    if (release === null) {
      return slowDownResponse(`the account already has ${limiter.limit} requests in flight across the service`, retryAfterSeconds);
    }
    try {
      return await handler(request);
    } finally {
      release();
    }
  };
}

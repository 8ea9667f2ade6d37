/**
 * A bounded queue in front of the `/api/v1` handler (reference §5.3): at most `maxInFlight`
 * requests are being handled or waiting at once; one more is answered at once with
 * 429 / 1015 "Slow down" and a `Retry-After` header, which the client's back-off
 * (src/api/client.ts) honours. Transport-independent: wraps a fetch-style handler.
 * Why a bound: requests beyond what the tracer can take wait in memory (their bodies already read)
 * — behind the busy worker threads of `tracelab serve`, or behind a synchronous trace on the
 * server thread — so without a bound a burst of uploads grows memory without limit.
 * A slot is taken only once the request's body has been received (a slow upload must not hold
 * one: twenty trickling uploads would refuse everyone else for minutes); bodies being received
 * have their own bound (`maxReceiving`, memory), and the transport bounds their time
 * (server.ts `bodyTimeoutMs`). `state()` tells since when every slot has been taken, so a health
 * check can report a replica stuck full (serve.ts).
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { errorResponse } from './service-http.js';

export interface QueueOptions {
  /** Requests being handled or waiting, at most (≥ 1). */
  readonly maxInFlight: number;
  /** Seconds the 429 asks the client to wait. */
  readonly retryAfterSeconds: number;
  /** Requests whose bodies are being received, at most; default RECEIVING_PER_SLOT × maxInFlight. */
  readonly maxReceiving?: number;
  /** Clock of `state().fullSinceMs` (ms since the epoch); default Date.now. */
  readonly now?: () => number;
}

/** Default bound on bodies being received, per queue slot (a 40-MiB body each at most). */
export const RECEIVING_PER_SLOT = 4;

export interface QueueState {
  readonly inFlight: number;
  readonly receiving: number;
  /** When the last free slot was taken, while every slot is taken; undefined when one is free. */
  readonly fullSinceMs: number | undefined;
}

/** A queue-limited handler and its state. */
export type QueueLimitedHandler = ((request: Request) => Promise<Response>) & { readonly state: () => QueueState };

/** The request with its body received into memory (the same request when it has none). */
export async function withBodyReceived(request: Request): Promise<Request> {
  if (request.body === null) return request;
  const body = await request.arrayBuffer();
  return new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal });
}

export const DEFAULT_QUEUE: QueueOptions = { maxInFlight: 16, retryAfterSeconds: 5 };

/** 429 / 1015 with Retry-After: `why` the request is refused, and when to come back. */
function slowDownResponse(why: string, retryAfterSeconds: number): Response {
  const error = new TracelabError(ERROR_CODES.slowDown, 429, `Slow down: ${why}; retry after ${retryAfterSeconds} s.`);
  return errorResponse(error, null, { 'Retry-After': String(retryAfterSeconds) });
}

export function withQueueLimit(handler: (request: Request) => Promise<Response>, options: QueueOptions = DEFAULT_QUEUE): QueueLimitedHandler {
  if (!(options.maxInFlight >= 1)) throw new RangeError(`maxInFlight must be at least 1; received ${options.maxInFlight}`);
  const maxReceiving = options.maxReceiving ?? RECEIVING_PER_SLOT * options.maxInFlight;
  const now = options.now ?? Date.now;
  let inFlight = 0;
  let receiving = 0;
  let fullSinceMs: number | undefined;
  const full = (): Response => slowDownResponse(`${inFlight} requests are already being handled or waiting`, options.retryAfterSeconds);
  const run = async (request: Request): Promise<Response> => {
    inFlight++;
    if (inFlight >= options.maxInFlight) fullSinceMs ??= now();
    try {
      return await handler(request);
    } finally {
      inFlight--;
      fullSinceMs = undefined;
    }
  };
  const limited = async (request: Request): Promise<Response> => {
    // Full already: refused before a byte of the body is read.
    if (inFlight >= options.maxInFlight) return full();
    if (request.body === null) return run(request);
    if (receiving >= maxReceiving) return slowDownResponse(`${receiving} uploads are already being received`, options.retryAfterSeconds);
    receiving++;
    let received: Request;
    try {
      received = await withBodyReceived(request);
    } finally {
      receiving--;
    }
    if (inFlight >= options.maxInFlight) return full();
    return run(received);
  };
  return Object.assign(limited, { state: (): QueueState => ({ inFlight, receiving, fullSinceMs }) });
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

/**
 * `tracelab serve --store redis://HOST:PORT/DB` (or TRACELAB_REDIS_URL): the `/api/v1` handler of
 * one replica of a fleet. Every replica keeps its state in the same Redis — retained images with
 * their receipts, the account, the account's requests in flight (src/api/storage/redis.ts) — so
 * any replica answers any request and a replica can be killed, restarted or added at any time.
 * The upload is the only thing a request brings; nothing is kept in the replica between requests.
 *
 * In: the configuration (config.ts) and the Redis URL. Out: the handler (fleet-wide concurrency
 * limit in front of the service), a readiness probe and `close()`.
 *
 * Imported by serve.ts only when a Redis store is chosen (it pulls in the Redis client).
 */

import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { createService } from '../api/service.js';
import { withSharedLimit } from '../api/service-queue.js';
import type { TraceRunner } from '../api/service-trace.js';
import { createRedisLimiter, createRedisStore, DEFAULT_REDIS_PREFIX, RedisAccount } from '../api/storage/redis.js';
import { loadWebpDecoder, seedAccount, type TracelabConfig } from './config.js';
import { connectRedis } from './redis-client.js';
import { createSafeFetchImage } from './safe-fetch.js';

export interface FleetService {
  readonly handler: (request: Request) => Promise<Response>;
  /** True while Redis answers (the replica can serve). */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export async function openFleetService(config: TracelabConfig, url: string, line: (text: string) => void, runTrace?: TraceRunner): Promise<FleetService> {
  loadWebpDecoder();
  const seed = seedAccount(config); // a bad TRACELAB_ACCOUNT fails before anything connects
  const client = await connectRedis(url, line);
  const prefix = DEFAULT_REDIS_PREFIX;
  const account = new RedisAccount(client, prefix);
  try {
    // Only the first replica (on an empty Redis) seeds the account; the others, and restarts, find it.
    if (await account.seed(seed.status())) line(`seeded the shared account in Redis (${seed.credits} credits)`);
  } catch (e) {
    await client.quit();
    throw e;
  }
  const service = createService({
    store: createRedisStore(client, { prefix }),
    account,
    credentials: config.credentials,
    fetchImage: createSafeFetchImage({ allowPrivate: config.allowPrivateUrls === true }),
    trustRequestId: config.trustRequestId === true,
    ...(runTrace ? { runTrace } : {}),
  });
  const limiter = createRedisLimiter(client, {
    prefix,
    account: config.credentials.apiId,
    limit: config.fleetMaxInFlight ?? 32,
    replicaId: `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`,
  });
  line(`shared store ${client.shownUrl} (fleet-wide limit ${limiter.limit} requests in flight)`);
  return {
    handler: withSharedLimit(service, limiter, config.queue?.retryAfterSeconds),
    async ready() {
      if (!client.isReady()) return false;
      try {
        await client.ping();
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      limiter.close();
      await client.quit();
    },
  };
}

/**
 * The connection to Redis for `tracelab serve --store redis://…` (transport only; what is stored
 * and how is src/api/storage/redis.ts). In: a `redis://[user:pass@]HOST:PORT/DB` URL. Out: a
 * connected `RedisClient` (the five calls redis.ts makes), built on the npm `ioredis` client.
 *
 * `ioredis` is imported here with a dynamic import(), and this module is itself only imported when
 * a Redis store is chosen, so `tracelab serve` on the data directory (and every other verb) never
 * loads it.
 *
 * Client settings, and why:
 * - offline queue off, no per-request retries, no resend after a reconnect: a command is sent
 *   while connected or fails at once (→ 503 + Retry-After). Re-sending a charge script whose
 *   answer was lost with the connection could take the credits twice.
 * - reconnect forever, backing off to 1 s: replicas come back by themselves when Redis does.
 * - connect and command time-outs: a Redis that hangs is an outage, not a stuck request.
 */

import type { RedisClient } from '../api/storage/redis.js';

export interface RedisConnection extends RedisClient {
  /** The URL without its password (for logs). */
  readonly shownUrl: string;
}

/** `redis://user:secret@host` → `redis://user:***@host`. */
export function hidePassword(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

export async function connectRedis(url: string, log: (line: string) => void, startTimeoutMs = 10_000): Promise<RedisConnection> {
  if (!/^rediss?:\/\//.test(url)) throw new Error(`a Redis store is given as redis://HOST:PORT/DB (or rediss://); received ${JSON.stringify(hidePassword(url))}`);
  const mod = await import('ioredis');
  // ioredis is CommonJS: Node's ESM loader exposes `Redis` by name, the CLI bundle only as `default.Redis`.
  const Redis = mod.Redis ?? (mod.default as unknown as { Redis: typeof mod.Redis }).Redis;
  const shownUrl = hidePassword(url);
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times: number) => Math.min(100 * times, 1000),
    connectTimeout: 5_000,
    commandTimeout: 15_000,
    lazyConnect: true,
  });
  // Without an 'error' listener ioredis errors would be unhandled; say each kind once per outage.
  let lastError = '';
  client.on('error', (e: Error) => {
    if (e.message !== lastError) log(`redis ${shownUrl}: ${e.message}`);
    lastError = e.message;
  });
  let wasReady = false;
  client.on('ready', () => {
    if (wasReady) log(`redis ${shownUrl}: connected again`);
    wasReady = true;
    lastError = '';
  });
  let quitting = false;
  client.on('close', () => {
    if (!quitting && wasReady && lastError === '') log(`redis ${shownUrl}: connection closed; reconnecting`);
  });

  try {
    await Promise.race([
      client.connect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), startTimeoutMs).unref()),
    ]);
  } catch (e) {
    client.disconnect();
    throw new Error(`cannot reach Redis at ${shownUrl}: ${e instanceof Error ? e.message : String(e)}`);
  }

  const toBytes = (b: Buffer | null): Uint8Array | null => (b === null ? null : new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  return {
    shownUrl,
    async eval(script, keys, args) {
      const argv = args.map((a) => (a instanceof Uint8Array ? Buffer.from(a.buffer, a.byteOffset, a.byteLength) : a));
      return client.eval(script, keys.length, ...keys, ...argv);
    },
    async hmgetBuffer(key, fields) {
      return (await client.hmgetBuffer(key, ...fields)).map(toBytes);
    },
    async ping() {
      await client.ping();
    },
    isReady: () => client.status === 'ready',
    async quit() {
      quitting = true;
      // QUIT needs a live connection; while Redis is away (or slow) just drop the socket, so a
      // shutdown never waits on the outage.
      if (client.status !== 'ready') {
        client.disconnect();
        return;
      }
      try {
        await Promise.race([client.quit(), new Promise((_, reject) => setTimeout(() => reject(new Error('timed out')), 2_000).unref())]);
      } catch {
        client.disconnect();
      }
    },
  };
}

/**
 * A growing delay after failed logins, per client (OWASP authentication: throttle guessing).
 * In: a client key (its address) per request, and whether its credentials were wrong. Out: how
 * long that client's next request waits before its credentials are checked.
 *
 * Rule: after n failures in a row the delay is base × 2^(n−1), at most `maxDelayMs`; a request
 * with the right credentials clears the client's count, and a count untouched for `forgetAfterMs`
 * is forgotten. Memory is bounded: at most `maxClients` entries, the least recently failed one
 * dropped first (a Map keeps insertion order; a failure moves its client to the end).
 */

export interface LoginThrottleOptions {
  /** Delay after the first failure; default 250 ms. */
  readonly baseDelayMs?: number;
  /** Longest delay; default 10 s. */
  readonly maxDelayMs?: number;
  /** A client's failures are forgotten this long after its last one; default 15 min. */
  readonly forgetAfterMs?: number;
  /** Clients remembered at most; default 10,000. */
  readonly maxClients?: number;
  /** Clock (ms); default Date.now. */
  readonly now?: () => number;
}

export const DEFAULT_LOGIN_THROTTLE = { baseDelayMs: 250, maxDelayMs: 10_000, forgetAfterMs: 15 * 60_000, maxClients: 10_000 } as const;

interface Failures {
  count: number;
  lastMs: number;
}

export interface LoginThrottle {
  /** How long a request of `client` waits before its credentials are checked (0: at once). */
  delayMs(client: string): number;
  /** The client sent wrong credentials. */
  failed(client: string): void;
  /** The client sent the right credentials: its count starts again. */
  succeeded(client: string): void;
  /** Clients remembered (for tests of the memory bound). */
  readonly size: number;
}

export function createLoginThrottle(options: LoginThrottleOptions = {}): LoginThrottle {
  const base = options.baseDelayMs ?? DEFAULT_LOGIN_THROTTLE.baseDelayMs;
  const max = options.maxDelayMs ?? DEFAULT_LOGIN_THROTTLE.maxDelayMs;
  const forgetAfter = options.forgetAfterMs ?? DEFAULT_LOGIN_THROTTLE.forgetAfterMs;
  const maxClients = options.maxClients ?? DEFAULT_LOGIN_THROTTLE.maxClients;
  const now = options.now ?? Date.now;
  const clients = new Map<string, Failures>();

  const current = (client: string): Failures | undefined => {
    const entry = clients.get(client);
    if (entry !== undefined && now() - entry.lastMs > forgetAfter) {
      clients.delete(client);
      return undefined;
    }
    return entry;
  };

  return {
    delayMs(client) {
      const entry = current(client);
      if (entry === undefined) return 0;
      // 2^(n−1) without overflow: past the cap the exponent no longer matters.
      return Math.min(max, base * 2 ** Math.min(entry.count - 1, 30));
    },
    failed(client) {
      const count = (current(client)?.count ?? 0) + 1;
      clients.delete(client);
      clients.set(client, { count, lastMs: now() });
      if (clients.size > maxClients) clients.delete(clients.keys().next().value!);
    },
    succeeded(client) {
      clients.delete(client);
    },
    get size() {
      return clients.size;
    },
  };
}

/**
 * Configuration of the local `/api/v1` service (`tracelab serve` and the in-process service the
 * CLI verbs use) and of `--remote` calls, all from environment variables:
 *
 *   TRACELAB_API_ID / TRACELAB_API_SECRET   credentials the local service accepts (default tracelab / tracelab)
 *   TRACELAB_DATA_DIR   data directory; default $XDG_DATA_HOME/tracelab when XDG_DATA_HOME is set,
 *                       else ~/.tracelab. Retained images live in <dir>/images (one file per
 *                       token), the account in <dir>/account.json (rewritten atomically: temp
 *                       file, fsync, rename, after every charge), so both survive restarts and
 *                       separate CLI runs.
 *   TRACELAB_ACCOUNT    JSON in the /account body shape that seeds the account while
 *                       <dir>/account.json does not exist yet: inline (a value starting with `{`)
 *                       or the path of a file holding it; without it the account comes from
 *                       TRACELAB_PLAN / TRACELAB_STATE / TRACELAB_CREDITS (src/api/account.ts).
 *   VECTORIZER_API_URL / VECTORIZER_API_ID / VECTORIZER_API_SECRET   the service `--remote` talks to
 *                       (as the official CLI); only `--remote` makes a verb remote, the variable
 *                       alone never does (a plain `vectorize` stays local and free).
 *   TRACELAB_THREADS    `tracelab serve`'s trace worker threads (default availableParallelism() − 1,
 *                       at least 1, at most 4; 0 traces on the server's own thread).
 *   TRACELAB_THREAD_MEMORY_MB   each trace worker's V8 heap budget (default 1024).
 *   TRACELAB_TRACE_TIMEOUT_S    a trace running longer is stopped, 503 / −10 (default 300).
 *   TRACELAB_REDIS_URL  `redis://HOST:PORT/DB`: `tracelab serve` keeps images, the account and the
 *                       concurrency limit in that Redis (shared by every replica of a fleet; see
 *                       src/cli/fleet.ts) instead of the data directory. `serve --store` overrides it.
 *   TRACELAB_FLEET_MAX_INFLIGHT  with Redis: requests of the account in flight across all replicas,
 *                       at most (default 32); one more is answered 429 / 1015 + Retry-After.
 *   TRACELAB_SHUTDOWN_GRACE_S   on SIGTERM `serve` refuses new requests (503) and lets running ones
 *                       finish for at most this long (default 30).
 *   TRACELAB_BODY_TIMEOUT_S     `serve` answers 408 to a request whose body has not arrived this long
 *                       after the request started (default 60).
 *   TRACELAB_QUEUE_STUCK_S      `serve`'s /healthz and /readyz answer 503 once every queue slot has
 *                       been taken for this long (default 120).
 *   TRACELAB_ALLOWED_ORIGINS    comma-separated web origins (https://app.example) whose pages may
 *                       post to `serve`; requests from any other page's origin get 403.
 */

import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { availableParallelism, homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomically } from './atomic-write.js';
import { createSafeFetchImage } from './safe-fetch.js';
import { DEFAULT_BODY_TIMEOUT_MS } from './server.js';
import { AccountConfigError, LocalAccount, fromEnv, fromJson } from '../api/account.js';
import { createService } from '../api/service.js';
import type { TraceRunner } from '../api/service-trace.js';
import { createDirectoryStore, RECORD_FILE_MODE, STORE_DIR_MODE } from '../api/storage/directory.js';
import { setWebpWasm } from '../decode/index.js';
import { webpWasmPath } from './node-codecs.js';

export type Env = Readonly<Record<string, string | undefined>>;

export const DEFAULT_API_ID = 'tracelab';
export const DEFAULT_API_SECRET = 'tracelab';

export interface TracelabConfig {
  /** Credentials the local service accepts. */
  readonly credentials: { readonly apiId: string; readonly apiSecret: string };
  readonly dataDir: string;
  readonly imagesDir: string;
  readonly accountFile: string;
  /** TRACELAB_ACCOUNT as a file path, resolved (when it is not inline JSON). */
  readonly accountSeedFile: string | undefined;
  /** TRACELAB_ACCOUNT given inline (a value starting with `{`) instead of as a file path. */
  readonly accountSeedJson?: string | undefined;
  readonly remote: { readonly url: string | undefined; readonly apiId: string; readonly apiSecret: string };
  /** The environment the account falls back to (TRACELAB_PLAN/STATE/CREDITS). */
  readonly env: Env;
  /** TRACELAB_ALLOW_PRIVATE_URLS=1: image.url may name loopback/private addresses. */
  readonly allowPrivateUrls?: boolean;
  /**
   * TRACELAB_TRUST_REQUEST_ID=1: a fleet replica behind haproxy, which sets X-Tracelab-Request-Id
   * on every request (a retried charge is taken once). Off, the header is ignored.
   */
  readonly trustRequestId?: boolean;
  /** `tracelab serve`'s request bound (TRACELAB_MAX_QUEUE, default 16; 429 + Retry-After beyond). */
  readonly queue?: { readonly maxInFlight: number; readonly retryAfterSeconds: number };
  /** `tracelab serve`'s trace worker threads (TRACELAB_THREADS, TRACELAB_THREAD_MEMORY_MB, TRACELAB_TRACE_TIMEOUT_S). */
  readonly threads?: TraceThreadsConfig;
  /** TRACELAB_REDIS_URL (or `serve --store redis://…`): the shared store of a fleet; undefined = the data directory. */
  readonly redisUrl?: string | undefined;
  /** TRACELAB_FLEET_MAX_INFLIGHT: the account's requests in flight across the fleet (Redis only). */
  readonly fleetMaxInFlight?: number;
  /** TRACELAB_SHUTDOWN_GRACE_S in ms: how long SIGTERM waits for running requests. */
  readonly shutdownGraceMs?: number;
  /** TRACELAB_BODY_TIMEOUT_S in ms: a request body not received by then → 408. */
  readonly bodyTimeoutMs?: number;
  /** TRACELAB_QUEUE_STUCK_S in ms: the health probes say 503 once the queue has been full this long. */
  readonly queueStuckMs?: number;
  /** TRACELAB_ALLOWED_ORIGINS: origins besides the server's own whose pages may send requests. */
  readonly allowedOrigins?: readonly string[];
}

export interface TraceThreadsConfig {
  /** Worker threads; 0 = trace on the server's own thread. */
  readonly count: number;
  /** Each worker's V8 heap budget (old generation), MB. */
  readonly heapMb: number;
  /** Longest job, ms (then 503 / −10). */
  readonly jobTimeoutMs: number;
}

/** How long `serve`'s queue may stay full before its health probes answer 503 (TRACELAB_QUEUE_STUCK_S). */
export const DEFAULT_QUEUE_STUCK_MS = 120_000;

/** Default heap budget of one trace worker, MB (see docs/service.md "Limits and safety"). */
export const DEFAULT_THREAD_MEMORY_MB = 1024;
export const DEFAULT_TRACE_TIMEOUT_S = 300;

/** Most trace workers `serve` starts unless TRACELAB_THREADS says otherwise (worst-case heap: 4 × budget). */
export const MAX_DEFAULT_THREADS = 4;

/** One worker per core, leaving one core to the server's own thread; at least 1, at most 4. */
export function defaultThreadCount(): number {
  return Math.min(MAX_DEFAULT_THREADS, Math.max(1, availableParallelism() - 1));
}

function get(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

export function readConfig(env: Env = process.env, home: string = homedir()): TracelabConfig {
  const xdg = get(env, 'XDG_DATA_HOME');
  const dataDir = resolve(get(env, 'TRACELAB_DATA_DIR') ?? (xdg !== undefined ? join(xdg, 'tracelab') : join(home, '.tracelab')));
  const seed = get(env, 'TRACELAB_ACCOUNT');
  return {
    credentials: {
      apiId: env['TRACELAB_API_ID'] ?? DEFAULT_API_ID,
      apiSecret: env['TRACELAB_API_SECRET'] ?? DEFAULT_API_SECRET,
    },
    dataDir,
    imagesDir: join(dataDir, 'images'),
    accountFile: join(dataDir, 'account.json'),
    // Inline JSON (as docs/service.md "Configuration" shows it) or a file path: a path never starts with `{`.
    accountSeedFile: seed === undefined || seed.startsWith('{') ? undefined : resolve(seed),
    accountSeedJson: seed !== undefined && seed.startsWith('{') ? seed : undefined,
    remote: {
      url: get(env, 'VECTORIZER_API_URL'),
      apiId: env['VECTORIZER_API_ID'] ?? '',
      apiSecret: env['VECTORIZER_API_SECRET'] ?? '',
    },
    env,
    queue: { maxInFlight: positiveInt(env, 'TRACELAB_MAX_QUEUE', 16), retryAfterSeconds: 5 },
    threads: {
      count: nonNegativeInt(env, 'TRACELAB_THREADS', defaultThreadCount()),
      heapMb: atLeast(env, 'TRACELAB_THREAD_MEMORY_MB', DEFAULT_THREAD_MEMORY_MB, 64),
      jobTimeoutMs: positiveInt(env, 'TRACELAB_TRACE_TIMEOUT_S', DEFAULT_TRACE_TIMEOUT_S) * 1000,
    },
    allowPrivateUrls: get(env, 'TRACELAB_ALLOW_PRIVATE_URLS') === '1',
    trustRequestId: get(env, 'TRACELAB_TRUST_REQUEST_ID') === '1',
    redisUrl: get(env, 'TRACELAB_REDIS_URL'),
    fleetMaxInFlight: positiveInt(env, 'TRACELAB_FLEET_MAX_INFLIGHT', 32),
    shutdownGraceMs: nonNegativeInt(env, 'TRACELAB_SHUTDOWN_GRACE_S', 30) * 1000,
    bodyTimeoutMs: positiveInt(env, 'TRACELAB_BODY_TIMEOUT_S', DEFAULT_BODY_TIMEOUT_MS / 1000) * 1000,
    queueStuckMs: positiveInt(env, 'TRACELAB_QUEUE_STUCK_S', DEFAULT_QUEUE_STUCK_MS / 1000) * 1000,
    allowedOrigins: (get(env, 'TRACELAB_ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((o) => o.trim())
      .filter((o) => o !== ''),
  };
}

function positiveInt(env: Env, name: string, fallback: number): number {
  return atLeast(env, name, fallback, 1);
}

function nonNegativeInt(env: Env, name: string, fallback: number): number {
  return atLeast(env, name, fallback, 0);
}

function atLeast(env: Env, name: string, fallback: number, min: number): number {
  const v = get(env, name);
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) {
    throw new Error(`${name} must be an integer of at least ${min}; received ${JSON.stringify(v)}`);
  }
  return n;
}

/** A LocalAccount that writes itself to `file` (atomically) after every charge that took credits. */
export class PersistedAccount extends LocalAccount {
  readonly file: string;
  #pending: Promise<void> = Promise.resolve();
  #error: unknown;
  #onError: ((error: unknown) => void) | undefined;

  constructor(base: LocalAccount, file: string, onError?: (error: unknown) => void) {
    super(base.status());
    this.file = file;
    this.#onError = onError;
  }

  override charge(microCredits: number): number {
    const taken = super.charge(microCredits);
    if (taken > 0) this.save();
    return taken;
  }

  /** Queue a write of the current balance (writes never overlap; the last one wins). */
  save(): void {
    const text = JSON.stringify(this.status()) + '\n';
    this.#pending = this.#pending.then(() =>
      writeAtomically(this.file, text).catch((e: unknown) => {
        this.#error = e;
        this.#onError?.(e);
      }),
    );
  }

  /** Wait for queued writes; throws the first write failure. */
  async flush(): Promise<void> {
    await this.#pending;
    if (this.#error !== undefined) {
      const e = this.#error;
      this.#error = undefined;
      throw new Error(`cannot save the account to ${this.file}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}

/** account.json: the owner's only, as the image records (storage/directory.ts). */
async function writeAtomically(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: STORE_DIR_MODE });
  await writeFileAtomically(file, new TextEncoder().encode(text), undefined, { mode: RECORD_FILE_MODE });
}

function readText(path: string, what: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${what} ${path}: ${(e as Error).message}`);
  }
}

/** account.json when it exists, else the TRACELAB_ACCOUNT seed, else TRACELAB_PLAN/STATE/CREDITS. */
export function loadAccount(config: TracelabConfig, onError?: (error: unknown) => void): PersistedAccount {
  const saved = readText(config.accountFile, 'the account');
  const base = saved !== undefined ? wrapAccount(config.accountFile, () => fromJson(saved)) : seedAccount(config);
  return new PersistedAccount(base, config.accountFile, onError);
}

/** The account a new account starts as: the TRACELAB_ACCOUNT seed, else TRACELAB_PLAN/STATE/CREDITS (a fleet seeds Redis with it). */
export function seedAccount(config: TracelabConfig): LocalAccount {
  const wrap = wrapAccount;
  if (config.accountSeedJson !== undefined) {
    const seed = config.accountSeedJson;
    return wrap('TRACELAB_ACCOUNT (inline JSON)', () => fromJson(seed));
  }
  if (config.accountSeedFile !== undefined) {
    const seed = readText(config.accountSeedFile, 'TRACELAB_ACCOUNT');
    if (seed === undefined) throw new Error(`cannot read TRACELAB_ACCOUNT ${config.accountSeedFile}: no such file`);
    return wrap(`TRACELAB_ACCOUNT (${config.accountSeedFile})`, () => fromJson(seed));
  }
  return wrap('the environment', () => fromEnv(config.env));
}

function wrapAccount(what: string, load: () => LocalAccount): LocalAccount {
  try {
    return load();
  } catch (e) {
    if (e instanceof AccountConfigError) throw new Error(`bad account in ${what}: ${e.message}`);
    throw e;
  }
}

let webpReady = false;
/** The service decodes uploads itself, so Node needs the WebP wasm before the first request. */
export function loadWebpDecoder(): void {
  if (webpReady) return;
  setWebpWasm(readFileSync(webpWasmPath()));
  webpReady = true;
}

export interface LocalService {
  readonly handler: (request: Request) => Promise<Response>;
  readonly account: PersistedAccount;
  readonly config: TracelabConfig;
}

export interface LocalServiceOptions {
  /** Where traces run (`tracelab serve`: its worker-thread pool); default this thread. */
  readonly runTrace?: TraceRunner;
}

/** The `/api/v1` handler on the configured data directory and account. */
export function openLocalService(config: TracelabConfig, onError?: (error: unknown) => void, options: LocalServiceOptions = {}): LocalService {
  loadWebpDecoder();
  const account = loadAccount(config, onError);
  const handler = createService({
    store: createDirectoryStore(config.imagesDir),
    account,
    credentials: config.credentials,
    // image.url never reaches loopback/private addresses unless TRACELAB_ALLOW_PRIVATE_URLS=1.
    fetchImage: createSafeFetchImage({ allowPrivate: config.allowPrivateUrls === true }),
    ...(options.runTrace ? { runTrace: options.runTrace } : {}),
  });
  return { handler, account, config };
}

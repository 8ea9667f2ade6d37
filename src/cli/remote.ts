/**
 * The CLI verbs that talk to an `/api/v1` service through the typed client (src/api/client.ts):
 * either the local service in-process (createService on TRACELAB_DATA_DIR, so image tokens and the
 * account persist between runs) or, with `--remote` / VECTORIZER_API_URL, a real HTTP service.
 * What the official CLI prints goes to stderr: `tracelab: image token: …`, `tracelab: receipt: …`,
 * `tracelab: credits charged: 1.000000`, `tracelab: credits calculated: 1.000000`. A call to the
 * real Vectorizer.AI service leaves out the Tracelab extension options (`tracelab.*`) and says so
 * first: `tracelab: note: Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension)`.
 * Whether VECTORIZER_API_URL is the real service is the client's rule (its host is vectorizer.ai
 * or a subdomain; src/api/extensions.ts): a `tracelab serve` or fleet there gets every option.
 * Remote is only ever chosen by `--remote` (VECTORIZER_API_URL alone says where, not whether), and
 * every remote verb says so first (remoteNotice): a remote call may cost credits.
 */

import { mkdir, readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createClient, DEFAULT_BASE_URL, type ApiClient, type FileResult } from '../api/client.js';
import { forRealService, notSentNote } from '../api/extensions.js';
import { writeFileAtomically } from './atomic-write.js';
import { openLocalService, type PersistedAccount, type TracelabConfig } from './config.js';

/** Base URL the in-process client uses; never resolved or contacted. */
const IN_PROCESS_BASE = 'http://tracelab.invalid/api/v1';

export interface ServiceConnection {
  readonly client: ApiClient;
  /** Waits for pending local account writes (no-op for a remote service). */
  finish(): Promise<void>;
}

export function connectLocal(config: TracelabConfig, onError?: (e: unknown) => void): ServiceConnection {
  const local = openLocalService(config, onError);
  const account: PersistedAccount = local.account;
  const client = createClient({
    baseUrl: IN_PROCESS_BASE,
    apiId: config.credentials.apiId,
    apiSecret: config.credentials.apiSecret,
    fetch: (input, init) => local.handler(new Request(input, init)),
    maxAttempts: 1,
    timeoutMs: Number.POSITIVE_INFINITY,
  });
  return { client, finish: () => account.flush() };
}

export function connectRemote(config: TracelabConfig): ServiceConnection {
  const client = createClient({
    baseUrl: config.remote.url ?? DEFAULT_BASE_URL,
    apiId: config.remote.apiId,
    apiSecret: config.remote.apiSecret,
  });
  return { client, finish: async () => undefined };
}

/** The verbs whose remote call may be charged (the others read or delete, and cost nothing). */
const CHARGED_VERBS = new Set(['vectorize', 'download', 'batch']);

/**
 * The stderr line every remote verb prints before its call: which service it calls and, for the
 * verbs that can be charged, that the call may cost credits there.
 */
export function remoteNotice(config: TracelabConfig, verb: 'vectorize' | 'download' | 'delete' | 'account' | 'batch'): string {
  const url = config.remote.url ?? DEFAULT_BASE_URL;
  const what = verb === 'batch' ? 'every file is one call to' : 'calling';
  const cost = CHARGED_VERBS.has(verb) ? ' (calls there may be charged credits; without --remote tracing is local and free)' : '';
  return `tracelab: remote: ${what} ${url}${cost}\n`;
}

/** The stderr line naming the extension options `client` leaves out of a call with `fields`; '' when none. */
export function notSentLine(client: ApiClient, fields: Iterable<readonly [string, string]>): string {
  if (!client.realService) return '';
  const note = notSentNote(forRealService(fields).dropped);
  return note === '' ? '' : `tracelab: note: ${note}\n`;
}

function credits(value: number): string {
  return value.toFixed(6);
}

/** The lines the official CLI prints to stderr after a file call. */
export function describeResult(result: FileResult): string {
  let text = '';
  if (result.imageToken !== undefined) text += `tracelab: image token: ${result.imageToken}\n`;
  if (result.receipt !== undefined) text += `tracelab: receipt: ${result.receipt}\n`;
  if (result.creditsCharged !== undefined) text += `tracelab: credits charged: ${credits(result.creditsCharged)}\n`;
  if (result.creditsCalculated !== undefined) text += `tracelab: credits calculated: ${credits(result.creditsCalculated)}\n`;
  return text;
}

/** Reads FILE for `--base64`: a file of base64 text is sent as is, any other file is encoded. */
export async function base64Of(path: string, readStdin: () => Promise<Uint8Array>): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = path === '-' ? await readStdin() : new Uint8Array(await readFile(path));
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message;
    throw new Error(`cannot read --base64 file '${path}': ${reason}`);
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).trim();
  if (text.length > 0 && /^[A-Za-z0-9+/=\s]+$/.test(text)) {
    // Looks like base64 already (images never consist of base64 characters only).
    return text.replace(/\s+/g, '');
  }
  return Buffer.from(bytes).toString('base64');
}

/**
 * Receipts of preview upgrades, kept beside the token data: `<TRACELAB_DATA_DIR>/receipts/<token>`
 * (one text file per token). `tracelab download TOKEN` sends the kept receipt when none is given,
 * so a second download of an upgraded preview costs 0.1 (another format) instead of a second 0.9
 * upgrade — what the playground does with the receipts it keeps.
 */
const RECEIPT_TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

export function receiptPath(dataDir: string, token: string): string | undefined {
  return RECEIPT_TOKEN.test(token) ? join(dataDir, 'receipts', token) : undefined;
}

/** The receipt kept for `token`, or undefined (none kept, or unreadable). */
export async function readKeptReceipt(dataDir: string, token: string): Promise<string | undefined> {
  const path = receiptPath(dataDir, token);
  if (path === undefined) return undefined;
  try {
    const text = (await readFile(path, 'utf8')).trim();
    return text === '' ? undefined : text;
  } catch {
    return undefined;
  }
}

export async function keepReceipt(dataDir: string, token: string, receipt: string): Promise<void> {
  const path = receiptPath(dataDir, token);
  if (path === undefined) return;
  await mkdir(dirname(path), { recursive: true });
  await writeFileAtomically(path, new TextEncoder().encode(`${receipt}\n`));
}

export async function forgetReceipt(dataDir: string, token: string): Promise<void> {
  const path = receiptPath(dataDir, token);
  if (path !== undefined) await rm(path, { force: true });
}

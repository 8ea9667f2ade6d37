/**
 * Credit pricing of the Vectorizer.AI-compatible API as pure functions (reference §6.2, §5.2, §2.1.2,
 * §2.2, §6.3). Nothing here touches an account or a store: the HTTP handler asks for a price, checks
 * the account can pay it (`account.ts`), does the work, and charges only after success (§4.1: failed
 * requests are not charged).
 *
 * All amounts are integer **micro-credits** (1 credit = 1,000,000 µcr) so sums such as
 * 0.2 + 29 × 0.01 never drift; `formatCredits` turns them into the six-decimal strings the service
 * sends in `X-Credits-Charged` / `X-Credits-Calculated` (§2.1.2: observed `0.000000`, `1.000000`).
 */

import { parameterError } from '../engine/errors.js';

/** The `mode` field values (reference §2.1.1, §6.2). */
export type Mode = 'production' | 'preview' | 'test' | 'test_preview';
export const MODES: readonly Mode[] = ['production', 'preview', 'test', 'test_preview'];

/** Micro-credits per credit. */
export const MICRO_PER_CREDIT = 1_000_000;

/** The price list in micro-credits (reference §6.2 table; storage also §5.2). */
export const PRICES = {
  /** §6.2: `production` = 1.0 credit. */
  production: 1_000_000,
  /** §6.2: `preview` = 0.2 credits. */
  preview: 200_000,
  /** §6.2: `/download` of the production result from a *preview* token (upgrade) = 0.9; returns `X-Receipt`. */
  downloadUpgrade: 900_000,
  /** §6.2: `/download` of another format of an already-vectorized result = 0.1. */
  downloadFormat: 100_000,
  /** §5.2 / §6.2: 0.01 credits per retained day after the first (free) day. */
  storagePerDay: 10_000,
} as const;

/** §2.1.1: `policy.retention_days` is 0 … 30. */
export const MAX_RETENTION_DAYS = 30;

/** What one call costs: `charged` is taken from the account; `calculated` is what the equivalent non-test call costs. */
export interface Charge {
  /** Micro-credits actually charged (`X-Credits-Charged`); 0 for test modes (§2.1.2, §6.3). */
  readonly charged: number;
  /** Micro-credits the equivalent non-test call would cost (`X-Credits-Calculated`, §2.1.2, §6.3). Equals `charged` outside test modes. */
  readonly calculated: number;
}

export interface DownloadCharge extends Charge {
  /** True when this download upgrades a preview result to production, so the response carries `X-Receipt` (§2.2, §6.2). */
  readonly issuesReceipt: boolean;
}

export function isMode(value: string): value is Mode {
  return (MODES as readonly string[]).includes(value);
}

/** `test` and `test_preview` are free and need no subscription (§6.2, §4.2 code 1008). */
export function isTestMode(mode: Mode): boolean {
  return mode === 'test' || mode === 'test_preview';
}

/** The non-test mode a mode is priced as: `test` → `production`, `test_preview` → `preview` (§6.2, §6.3). */
export function billedModeOf(mode: Mode): 'production' | 'preview' {
  return mode === 'preview' || mode === 'test_preview' ? 'preview' : 'production';
}

/**
 * Storage cost of retaining an image for `retentionDays` (§5.2: first day free, then 0.01 per day;
 * range 0 … 30 per §2.1.1). 0 and 1 day cost nothing. Throws 400/1019 outside the range.
 */
export function storageCost(retentionDays: number): number {
  if (!Number.isInteger(retentionDays) || retentionDays < 0 || retentionDays > MAX_RETENTION_DAYS) {
    throw parameterError(
      `policy.retention_days must be an integer from 0 to ${MAX_RETENTION_DAYS}; received ${String(retentionDays)}`,
    );
  }
  return Math.max(0, retentionDays - 1) * PRICES.storagePerDay;
}

/**
 * Cost of one `/vectorize` call (§6.2): the mode's price plus the storage for `policy.retention_days`,
 * charged with the call that retains (§5.2). Test modes are charged 0 but `calculated` reports the
 * non-test equivalent — `test` as production (observed `1.000000`, §6.3), `test_preview` as preview.
 * The same price applies when the input is an `image.token` re-run (a new trace is made, §2.1.1).
 */
export function vectorizeCost(mode: Mode, retentionDays = 0): Charge {
  const calculated = PRICES[billedModeOf(mode)] + storageCost(retentionDays);
  return { charged: isTestMode(mode) ? 0 : calculated, calculated };
}

export interface DownloadPricingInput {
  /** The mode the token's result was made with (stored with the token). */
  readonly tokenMode: Mode;
  /**
   * True when the request's `receipt` is the receipt issued for this token's upgrade (§2.2). Only
   * matters for preview-derived tokens; the caller validates it against the stored receipt.
   */
  readonly validReceipt?: boolean;
}

/**
 * Cost of one `/download` call (§2.2, §6.2):
 * - token from `production`: another format of an already-produced result, 0.1;
 * - token from `preview` without a valid receipt: upgrade to the production result, 0.9, and an
 *   `X-Receipt` is issued;
 * - token from `preview` with a valid receipt: already upgraded, so another format, 0.1;
 * - test tokens (`test` / `test_preview`): charged 0, `calculated` by the same rules applied to the
 *   non-test mode (§2.2 last paragraph, §6.3). A `test_preview` upgrade also reports
 *   `issuesReceipt` so test clients can exercise the receipt flow (INFERRED: not observed live).
 * Downloads never add storage: retention is paid by the `/vectorize` call that retained (§5.2).
 */
export function downloadCost({ tokenMode, validReceipt = false }: DownloadPricingInput): DownloadCharge {
  const upgrade = billedModeOf(tokenMode) === 'preview' && !validReceipt;
  const calculated = upgrade ? PRICES.downloadUpgrade : PRICES.downloadFormat;
  return { charged: isTestMode(tokenMode) ? 0 : calculated, calculated, issuesReceipt: upgrade };
}

/** `GET /account`, `POST /delete` and every failed (4xx/5xx) call cost nothing (§6.2, §4.1). */
export const FREE: Charge = Object.freeze({ charged: 0, calculated: 0 });

/** Credits (double, e.g. from `/account` JSON) → micro-credits, rounded to the nearest µcr. */
export function creditsToMicro(credits: number): number {
  return Math.round(credits * MICRO_PER_CREDIT);
}

/** Micro-credits → credits as a double (for the `/account` body's `credits`, §2.4). */
export function microToCredits(micro: number): number {
  return micro / MICRO_PER_CREDIT;
}

/** Six-decimal credit string as sent in the `X-Credits-*` headers (§2.1.2): 1_000_000 → "1.000000". */
export function formatCredits(microCredits: number): string {
  if (!Number.isSafeInteger(microCredits)) {
    throw new RangeError(`micro-credits must be a safe integer; received ${String(microCredits)}`);
  }
  const sign = microCredits < 0 ? '-' : '';
  const abs = Math.abs(microCredits);
  const whole = Math.floor(abs / MICRO_PER_CREDIT);
  const frac = abs % MICRO_PER_CREDIT;
  return `${sign}${whole}.${String(frac).padStart(6, '0')}`;
}

/**
 * The charge headers of a successful `/vectorize` or `/download` (§2.1.2, §2.2). `X-Credits-Charged`
 * is sent on every call; the reference documents `X-Credits-Calculated` for test requests (and lists
 * it among `/download` headers), so by default it is sent only for test modes. Pass
 * `alwaysCalculated` to send both on every call.
 */
export function creditHeaders(
  charge: Charge,
  mode: Mode,
  alwaysCalculated = false,
): { 'X-Credits-Charged': string; 'X-Credits-Calculated'?: string } {
  const headers: { 'X-Credits-Charged': string; 'X-Credits-Calculated'?: string } = {
    'X-Credits-Charged': formatCredits(charge.charged),
  };
  if (alwaysCalculated || isTestMode(mode)) headers['X-Credits-Calculated'] = formatCredits(charge.calculated);
  return headers;
}

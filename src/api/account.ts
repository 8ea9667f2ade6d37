/**
 * The local account of the Vectorizer.AI-compatible service (reference §2.4 `GET /account`, §4.2
 * codes 1008/1010/1011, §6.2 pricing). Pure state, no transport: the HTTP handler calls
 * `checkCanSpend` before the work and `charge` after it succeeded (failed requests are free, §4.1).
 *
 * Defaults when nothing is configured (`DEFAULT_ACCOUNT`):
 *   subscriptionPlan  = "tracelab_local"  (any id except "none" counts as an API plan)
 *   subscriptionState = "active"
 *   credits           = 100
 *
 * Environment variables read by `LocalAccount.fromEnv` (each optional, unset/empty → default):
 *   TRACELAB_PLAN     subscription plan id, or "none" for "no API subscription"
 *   TRACELAB_STATE    "active" | "pastDue" | "ended"
 *   TRACELAB_CREDITS  remaining credits, a non-negative decimal (at most six decimals are kept)
 *
 * `LocalAccount.fromJson` reads the `/account` body shape (§2.4):
 *   {"subscriptionPlan":"…","subscriptionState":"active","credits":49}
 * with every field optional (missing → default) and unknown fields rejected.
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { creditsToMicro, isTestMode, microToCredits, vectorizeCost, type Mode } from './pricing.js';

export type SubscriptionState = 'active' | 'pastDue' | 'ended';
export const SUBSCRIPTION_STATES: readonly SubscriptionState[] = ['active', 'pastDue', 'ended'];

/** The `GET /account` response body (§2.4; all three fields required). */
export interface AccountStatus {
  readonly subscriptionPlan: string;
  readonly subscriptionState: SubscriptionState;
  /** Remaining credits, fractional (§2.4). */
  readonly credits: number;
}

export const DEFAULT_ACCOUNT: AccountStatus = Object.freeze({
  subscriptionPlan: 'tracelab_local',
  subscriptionState: 'active',
  credits: 100,
});

/** §2.4: `"none"` is the plan id of an account without a subscription. */
export const NO_PLAN = 'none';

/** 402 / 1011: the call costs `costMicro` micro-credits, more than the balance (`credits`). */
export function outOfCreditsError(costMicro: number, credits: number): TracelabError {
  return new TracelabError(
    ERROR_CODES.outOfCredits,
    402,
    `Out of credits: this call costs ${(costMicro / 1e6).toFixed(6)} credits, the balance is ${credits.toFixed(6)}.`,
  );
}

/** Configuration error of the account source; `field` names the bad variable / JSON field. */
export class AccountConfigError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`${field}: ${message}`);
    this.name = 'AccountConfigError';
    this.field = field;
  }
}

export const ACCOUNT_ENV = {
  plan: 'TRACELAB_PLAN',
  state: 'TRACELAB_STATE',
  credits: 'TRACELAB_CREDITS',
} as const;

function isState(value: string): value is SubscriptionState {
  return (SUBSCRIPTION_STATES as readonly string[]).includes(value);
}

function validPlan(field: string, value: string): string {
  // Plan ids are shown in /account JSON; keep them printable and short.
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value)) {
    throw new AccountConfigError(field, `expected a plan id of 1–64 letters, digits, '.', '_' or '-'; received ${JSON.stringify(value)}`);
  }
  return value;
}

function validState(field: string, value: string): SubscriptionState {
  if (!isState(value)) {
    throw new AccountConfigError(field, `expected one of ${SUBSCRIPTION_STATES.join(', ')}; received ${JSON.stringify(value)}`);
  }
  return value;
}

function validCredits(field: string, value: number): number {
  if (!Number.isFinite(value) || value < 0 || creditsToMicro(value) > Number.MAX_SAFE_INTEGER) {
    throw new AccountConfigError(field, `expected a non-negative finite number of credits; received ${Number.isNaN(value) ? 'no number (the field is empty or not a number)' : String(value)}`);
  }
  return value;
}

export class LocalAccount {
  readonly subscriptionPlan: string;
  readonly subscriptionState: SubscriptionState;
  #micro: number;

  constructor(init: AccountStatus = DEFAULT_ACCOUNT) {
    this.subscriptionPlan = validPlan('subscriptionPlan', init.subscriptionPlan);
    this.subscriptionState = validState('subscriptionState', init.subscriptionState);
    this.#micro = creditsToMicro(validCredits('credits', init.credits));
  }

  /** Reads `TRACELAB_PLAN`, `TRACELAB_STATE`, `TRACELAB_CREDITS` (see the module comment). */
  static fromEnv(env: Readonly<Record<string, string | undefined>>): LocalAccount {
    const get = (name: string): string | undefined => {
      const v = env[name]?.trim();
      return v ? v : undefined;
    };
    const plan = get(ACCOUNT_ENV.plan);
    const state = get(ACCOUNT_ENV.state);
    const creditsRaw = get(ACCOUNT_ENV.credits);
    let credits = DEFAULT_ACCOUNT.credits;
    if (creditsRaw !== undefined) {
      if (!/^\d+(\.\d+)?$/.test(creditsRaw)) {
        throw new AccountConfigError(
          ACCOUNT_ENV.credits,
          `expected a non-negative decimal number of credits; received ${JSON.stringify(creditsRaw)}`,
        );
      }
      credits = validCredits(ACCOUNT_ENV.credits, Number(creditsRaw));
    }
    return new LocalAccount({
      subscriptionPlan: plan === undefined ? DEFAULT_ACCOUNT.subscriptionPlan : validPlan(ACCOUNT_ENV.plan, plan),
      subscriptionState: state === undefined ? DEFAULT_ACCOUNT.subscriptionState : validState(ACCOUNT_ENV.state, state),
      credits,
    });
  }

  /** Reads a JSON object in the `/account` body shape (see the module comment). */
  static fromJson(text: string): LocalAccount {
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (e) {
      throw new AccountConfigError('(json)', `not valid JSON: ${(e as Error).message}`);
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) {
      throw new AccountConfigError('(json)', 'expected a JSON object');
    }
    const obj = data as Record<string, unknown>;
    const known = new Set(['subscriptionPlan', 'subscriptionState', 'credits']);
    for (const key of Object.keys(obj)) {
      if (!known.has(key)) throw new AccountConfigError(key, 'unknown field (expected subscriptionPlan, subscriptionState, credits)');
    }
    const { subscriptionPlan: plan, subscriptionState: state, credits } = obj;
    if (plan !== undefined && typeof plan !== 'string') throw new AccountConfigError('subscriptionPlan', 'expected a string');
    if (state !== undefined && typeof state !== 'string') throw new AccountConfigError('subscriptionState', 'expected a string');
    if (credits !== undefined && typeof credits !== 'number') throw new AccountConfigError('credits', 'expected a number');
    return new LocalAccount({
      subscriptionPlan: plan === undefined ? DEFAULT_ACCOUNT.subscriptionPlan : validPlan('subscriptionPlan', plan),
      subscriptionState: state === undefined ? DEFAULT_ACCOUNT.subscriptionState : validState('subscriptionState', state),
      credits: credits === undefined ? DEFAULT_ACCOUNT.credits : validCredits('credits', credits),
    });
  }

  /** Remaining balance in micro-credits. */
  get microCredits(): number {
    return this.#micro;
  }

  /** Remaining balance in credits (double, §2.4). */
  get credits(): number {
    return microToCredits(this.#micro);
  }

  /** The `GET /account` body (§2.4). */
  status(): AccountStatus {
    return { subscriptionPlan: this.subscriptionPlan, subscriptionState: this.subscriptionState, credits: this.credits };
  }

  toJSON(): AccountStatus {
    return this.status();
  }

  /**
   * Throws unless a call in `mode` costing `costMicro` may run (§4.2, §6.2). Test modes are always
   * allowed (no subscription needed, free). Otherwise, in this order:
   * - 402/1008 no API subscription: plan `none` or state `ended`;
   * - 402/1010 subscription past due;
   * - 402/1011 out of credits: balance below the cost.
   * `costMicro` defaults to the plain `/vectorize` price of the mode (no storage); pass the full
   * `Charge.charged` (storage, download rate) from `pricing.ts` for other calls.
   */
  checkCanSpend(mode: Mode, costMicro: number = vectorizeCost(mode).charged): void {
    if (isTestMode(mode)) return;
    if (this.subscriptionPlan === NO_PLAN || this.subscriptionState === 'ended') {
      throw new TracelabError(
        ERROR_CODES.noSubscription,
        402,
        `No API subscription: mode=${mode} requires an active API plan; use mode=test or mode=test_preview to try the API for free.`,
      );
    }
    if (this.subscriptionState === 'pastDue') {
      throw new TracelabError(ERROR_CODES.pastDue, 402, 'Subscription past due: settle the subscription to use paid modes.');
    }
    if (this.#micro < costMicro) {
      throw outOfCreditsError(costMicro, this.credits);
    }
  }

  /**
   * Deducts `microCredits` after a call succeeded (the caller calls it; §4.1 failed calls are free).
   * Never throws for an insufficient balance — the work is already done — and never goes below 0
   * (two concurrent calls may both have passed `checkCanSpend`). Returns the amount deducted.
   */
  charge(microCredits: number): number {
    if (!Number.isSafeInteger(microCredits) || microCredits < 0) {
      throw new RangeError(`charge expects non-negative integer micro-credits; received ${String(microCredits)}`);
    }
    const taken = Math.min(microCredits, this.#micro);
    this.#micro -= taken;
    return taken;
  }
}

/** What the service needs of an account (LocalAccount fits as is; RedisAccount is the shared one). */
export interface ServiceAccount {
  /** Throws 402 (1008/1010/1011) unless a call in `mode` costing `costMicro` may run. */
  checkCanSpend(mode: Mode, costMicro: number): void | Promise<void>;
  /**
   * Takes `microCredits` after a call succeeded; returns the amount taken. `requestId` (the
   * `X-Tracelab-Request-Id` haproxy gives a request, the same on its retries) makes the charge
   * happen once per request even when a replica died after charging and the request was retried.
   */
  charge(microCredits: number, requestId?: string): number | Promise<number>;
  status(): AccountStatus | Promise<AccountStatus>;
}

/** Convenience: `LocalAccount.fromEnv`. */
export function fromEnv(env: Readonly<Record<string, string | undefined>>): LocalAccount {
  return LocalAccount.fromEnv(env);
}

/** Convenience: `LocalAccount.fromJson`. */
export function fromJson(text: string): LocalAccount {
  return LocalAccount.fromJson(text);
}

import { describe, expect, it } from 'vitest';
import { AccountConfigError, DEFAULT_ACCOUNT, LocalAccount, fromEnv, fromJson } from '../../src/api/account.js';
import { MODES, downloadCost, vectorizeCost, type Mode } from '../../src/api/pricing.js';
import { TracelabError } from '../../src/engine/errors.js';

function codeOf(fn: () => void): number | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(TracelabError);
    expect((e as TracelabError).status).toBe(402);
    return (e as TracelabError).code;
  }
  return undefined;
}

const paid: Mode[] = ['production', 'preview'];
const tests: Mode[] = ['test', 'test_preview'];

describe('LocalAccount.checkCanSpend (§4.2)', () => {
  it('defaults: tracelab_local, active, 100 credits; everything allowed', () => {
    const a = new LocalAccount();
    expect(a.status()).toEqual({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 });
    for (const m of MODES) expect(codeOf(() => a.checkCanSpend(m))).toBeUndefined();
  });

  it('1008 for plan none or state ended', () => {
    for (const init of [
      { ...DEFAULT_ACCOUNT, subscriptionPlan: 'none' },
      { ...DEFAULT_ACCOUNT, subscriptionState: 'ended' as const },
      { subscriptionPlan: 'none', subscriptionState: 'pastDue' as const, credits: 0 },
    ]) {
      const a = new LocalAccount(init);
      for (const m of paid) expect(codeOf(() => a.checkCanSpend(m))).toBe(1008);
      for (const m of tests) expect(codeOf(() => a.checkCanSpend(m))).toBeUndefined();
    }
  });

  it('1010 when past due', () => {
    const a = new LocalAccount({ ...DEFAULT_ACCOUNT, subscriptionState: 'pastDue' });
    for (const m of paid) expect(codeOf(() => a.checkCanSpend(m))).toBe(1010);
    for (const m of tests) expect(codeOf(() => a.checkCanSpend(m))).toBeUndefined();
  });

  it('1011 when the balance is below the cost', () => {
    const a = new LocalAccount({ ...DEFAULT_ACCOUNT, credits: 0.5 });
    expect(codeOf(() => a.checkCanSpend('production'))).toBe(1011);
    expect(codeOf(() => a.checkCanSpend('preview'))).toBeUndefined();
    expect(codeOf(() => a.checkCanSpend('preview', vectorizeCost('preview', 30).charged))).toBeUndefined(); // 0.49
    expect(codeOf(() => a.checkCanSpend('preview', downloadCost({ tokenMode: 'preview' }).charged))).toBe(1011); // 0.9
    expect(codeOf(() => a.checkCanSpend('test'))).toBeUndefined();
    const empty = new LocalAccount({ ...DEFAULT_ACCOUNT, credits: 0 });
    expect(codeOf(() => empty.checkCanSpend('preview'))).toBe(1011);
    for (const m of tests) expect(codeOf(() => empty.checkCanSpend(m))).toBeUndefined();
  });

  it('exact balance is enough', () => {
    const a = new LocalAccount({ ...DEFAULT_ACCOUNT, credits: 1 });
    expect(codeOf(() => a.checkCanSpend('production'))).toBeUndefined();
  });
});

describe('LocalAccount.charge', () => {
  it('deducts integer micro-credits without drift and never below zero', () => {
    const a = new LocalAccount({ ...DEFAULT_ACCOUNT, credits: 1 });
    for (let i = 0; i < 10; i++) a.charge(downloadCost({ tokenMode: 'production' }).charged);
    expect(a.credits).toBe(0);
    expect(a.charge(1_000_000)).toBe(0);
    expect(a.microCredits).toBe(0);
    const b = new LocalAccount({ ...DEFAULT_ACCOUNT, credits: 0.3 });
    expect(b.charge(1_000_000)).toBe(300_000);
    expect(b.credits).toBe(0);
  });
  it('test-mode charges are 0 and change nothing', () => {
    const a = new LocalAccount();
    a.charge(vectorizeCost('test', 30).charged);
    expect(a.credits).toBe(100);
  });
  it('rejects bad amounts', () => {
    const a = new LocalAccount();
    expect(() => a.charge(-1)).toThrow(RangeError);
    expect(() => a.charge(0.5)).toThrow(RangeError);
  });
});

function fieldOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AccountConfigError);
    return (e as AccountConfigError).field;
  }
  throw new Error('expected an AccountConfigError');
}

describe('loaders', () => {
  it('fromEnv: defaults and overrides', () => {
    expect(fromEnv({}).status()).toEqual(DEFAULT_ACCOUNT);
    expect(fromEnv({ TRACELAB_PLAN: 'vec_999m_50', TRACELAB_STATE: 'pastDue', TRACELAB_CREDITS: '49.5' }).status()).toEqual({
      subscriptionPlan: 'vec_999m_50',
      subscriptionState: 'pastDue',
      credits: 49.5,
    });
    expect(fromEnv({ TRACELAB_CREDITS: '' }).credits).toBe(100);
  });
  it('fromEnv: errors name the variable', () => {
    expect(fieldOf(() => fromEnv({ TRACELAB_CREDITS: 'lots' }))).toBe('TRACELAB_CREDITS');
    expect(fieldOf(() => fromEnv({ TRACELAB_CREDITS: '-1' }))).toBe('TRACELAB_CREDITS');
    expect(fieldOf(() => fromEnv({ TRACELAB_STATE: 'paused' }))).toBe('TRACELAB_STATE');
    expect(fieldOf(() => fromEnv({ TRACELAB_PLAN: 'a b' }))).toBe('TRACELAB_PLAN');
  });
  it('fromJson: /account body shape', () => {
    const a = fromJson('{"subscriptionPlan":"vec_999m_50","subscriptionState":"active","credits":49}');
    expect(JSON.stringify(a)).toBe('{"subscriptionPlan":"vec_999m_50","subscriptionState":"active","credits":49}');
    expect(fromJson('{}').status()).toEqual(DEFAULT_ACCOUNT);
  });
  it('fromJson: errors name the field', () => {
    expect(fieldOf(() => fromJson('{"credits":"5"}'))).toBe('credits');
    expect(fieldOf(() => fromJson('{"credits":-2}'))).toBe('credits');
    expect(fieldOf(() => fromJson('{"subscriptionState":"gone"}'))).toBe('subscriptionState');
    expect(fieldOf(() => fromJson('{"subscriptionPlan":5}'))).toBe('subscriptionPlan');
    expect(fieldOf(() => fromJson('{"credit":5}'))).toBe('credit');
    expect(fieldOf(() => fromJson('[1]'))).toBe('(json)');
    expect(fieldOf(() => fromJson('{oops'))).toBe('(json)');
  });
});

describe('issue 17: an empty Credits field', () => {
  it('says there is no number instead of "received NaN"', () => {
    let message = '';
    try {
      new LocalAccount({ ...DEFAULT_ACCOUNT, credits: Number.NaN });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/no number \(the field is empty or not a number\)/);
    expect(message).not.toMatch(/NaN/);
  });
});

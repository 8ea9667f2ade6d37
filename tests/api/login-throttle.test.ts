/**
 * The growing delay after failed logins (src/api/login-throttle.ts, used by `tracelab serve`):
 * doubling per failure from 250 ms up to 10 s, per client, cleared by a right login, forgotten
 * after 15 min, and at most `maxClients` clients remembered. A fake clock; no waiting.
 */
import { describe, expect, it } from 'vitest';
import { createLoginThrottle, DEFAULT_LOGIN_THROTTLE } from '../../src/api/login-throttle.js';

function clock() {
  let ms = 1_000_000;
  return { now: () => ms, advance: (d: number) => void (ms += d) };
}

describe('createLoginThrottle', () => {
  it('doubles the delay with every failure of one client, up to 10 s, and leaves other clients alone', () => {
    const c = clock();
    const throttle = createLoginThrottle({ now: c.now });
    expect(throttle.delayMs('10.0.0.1')).toBe(0);
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      throttle.failed('10.0.0.1');
      delays.push(throttle.delayMs('10.0.0.1'));
    }
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, 8000, 10_000, 10_000]);
    expect(throttle.delayMs('10.0.0.2')).toBe(0);
    for (let i = 0; i < 100; i++) throttle.failed('10.0.0.1');
    expect(throttle.delayMs('10.0.0.1')).toBe(DEFAULT_LOGIN_THROTTLE.maxDelayMs);
  });

  it('a right login clears the count; 15 min without a failure forgets it', () => {
    const c = clock();
    const throttle = createLoginThrottle({ now: c.now });
    throttle.failed('a');
    throttle.failed('a');
    throttle.succeeded('a');
    expect(throttle.delayMs('a')).toBe(0);
    throttle.failed('a');
    throttle.failed('a');
    c.advance(DEFAULT_LOGIN_THROTTLE.forgetAfterMs);
    expect(throttle.delayMs('a')).toBe(500); // not yet
    c.advance(1);
    expect(throttle.delayMs('a')).toBe(0);
    throttle.failed('a');
    expect(throttle.delayMs('a')).toBe(250); // counted from one again
  });

  it('remembers at most maxClients, dropping the one whose last failure is oldest', () => {
    const throttle = createLoginThrottle({ maxClients: 3, now: clock().now });
    for (const client of ['a', 'b', 'c']) throttle.failed(client);
    throttle.failed('a'); // a is now the most recent
    throttle.failed('d');
    expect(throttle.size).toBe(3);
    expect(throttle.delayMs('b')).toBe(0); // dropped
    expect(throttle.delayMs('a')).toBe(500);
    expect(throttle.delayMs('c')).toBe(250);
    expect(throttle.delayMs('d')).toBe(250);
    for (let i = 0; i < 10_000; i++) throttle.failed(`spoof-${i}`);
    expect(throttle.size).toBe(3);
  });
});

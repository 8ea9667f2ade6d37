/**
 * Image Token and receipt generation and validation (reference §2.1.2 `X-Image-Token`, §2.2
 * `X-Receipt`, §6.3, §8). The real production token format is unknown (§8); test-mode tokens are
 * observed to start with `api-test-` (§6.3), so Tracelab tokens are:
 *
 *   test / test_preview:   api-test-<32 chars>
 *   production / preview:  <32 chars>
 *   receipts:              rcpt-<32 chars>
 *
 * where <32 chars> is 160 random bits in lower-case RFC 4648 base32 (`a-z2-7`): URL-safe, and
 * lower-case only so two tokens never collide on a case-insensitive file system (directory store).
 * `TOKEN_PATTERN` is strict: no `.`, `/`, `\`, NUL or upper case can pass, so a token is always a
 * plain file name and can never name a path outside a store.
 */

import { isTestMode, type Mode } from '../pricing.js';

/** Fills `bytes` with cryptographically random values and returns it (shape of `crypto.getRandomValues`). */
export type RandomSource = (bytes: Uint8Array) => Uint8Array;

export const defaultRandom: RandomSource = (bytes) => globalThis.crypto.getRandomValues(bytes);

export const TEST_TOKEN_PREFIX = 'api-test-';
export const RECEIPT_PREFIX = 'rcpt-';
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
const RANDOM_BYTES = 20; // 160 bits → 32 base32 characters

export const TOKEN_PATTERN = /^(?:api-test-)?[a-z2-7]{32}$/;
export const RECEIPT_PATTERN = /^rcpt-[a-z2-7]{32}$/;

function randomBase32(random: RandomSource): string {
  const bytes = random(new Uint8Array(RANDOM_BYTES));
  if (!(bytes instanceof Uint8Array) || bytes.length !== RANDOM_BYTES) {
    throw new TypeError('random source must fill and return the Uint8Array it was given');
  }
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const b of bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32[(buffer >>> bits) & 31];
    }
    buffer &= (1 << bits) - 1;
  }
  return out; // 160 bits divide evenly into 32 groups of 5
}

/** A new Image Token for a call in `mode` (`api-test-` prefix for test modes). */
export function generateToken(mode: Mode, random: RandomSource = defaultRandom): string {
  return (isTestMode(mode) ? TEST_TOKEN_PREFIX : '') + randomBase32(random);
}

/** A new `X-Receipt` value. */
export function generateReceipt(random: RandomSource = defaultRandom): string {
  return RECEIPT_PREFIX + randomBase32(random);
}

/** True when `token` has the exact Tracelab token shape (and is therefore a safe file name). */
export function isValidToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

/** True for a well-formed test-mode token. */
export function isTestToken(token: string): boolean {
  return isValidToken(token) && token.startsWith(TEST_TOKEN_PREFIX);
}

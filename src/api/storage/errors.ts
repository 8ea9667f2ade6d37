/**
 * Image Token errors (reference §4.2 codes −4, 1025–1028; §5.2).
 *
 * Unknown token — the reference has no code for "this token does not exist" (never issued, deleted
 * with `/delete`, or purged after retention). Candidates: 1025 (500, "failed to retrieve from
 * storage; retry"), 1026 (400, "belongs to a different account"), 1027 (400, "expired"), 1028 (500,
 * "corrupted"). Tracelab answers **400/1027**: it is a client-side 4xx that must not invite a retry
 * (unlike 1025/1028), a deleted token is a retention that ended early (§2.3), the client's remedy is
 * the same as for expiry (upload the image again), and 1026 can never be true for a single local
 * account. The message says "unknown or deleted" so humans can tell it from a real expiry.
 */

import { ERROR_CODES, TracelabError } from '../../engine/errors.js';

/** 400/1027 for a token the store does not hold (see the module comment for the choice of code). */
export function unknownTokenError(token: string): TracelabError {
  return new TracelabError(
    ERROR_CODES.tokenExpired,
    400,
    `Unknown or deleted image token ${JSON.stringify(token.slice(0, 80))}: it was never issued, was deleted, or its retention ended. Upload the image again.`,
  );
}

/** 400/1027: the retention period of the token has elapsed (§5.2). */
export function expiredTokenError(token: string, expiresAt: number): TracelabError {
  return new TracelabError(
    ERROR_CODES.tokenExpired,
    400,
    `Image token ${token} expired at ${new Date(expiresAt).toISOString()} (policy.retention_days elapsed). Upload the image again.`,
  );
}

/** 500/1028: the stored record cannot be read back. */
export function corruptTokenError(token: string, detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.tokenCorrupt, 500, `Image token ${token} is corrupted and unusable: ${detail}`);
}

/** 500/1025: the storage failed while reading (I/O error); the caller may retry. */
export function retrievalFailedError(token: string, detail: string): TracelabError {
  return new TracelabError(
    ERROR_CODES.tokenRetrievalFailed,
    500,
    `Failed to retrieve image token ${token} from storage; retry. (${detail})`,
  );
}

/** 500/−4: the storage failed while writing the record. */
export function storeFailedError(token: string, detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.storeFailed, 500, `Failed to store image token ${token}; retry. (${detail})`);
}

/**
 * `ImageStore` on a local directory (Node only: node:fs/promises). One file per token,
 * `<dir>/<token>.tlrec`, in the binary format of codec.ts.
 *
 * - Tokens are checked against `TOKEN_PATTERN` (token.ts) before any path is built: `../x`, absolute
 *   paths, separators, NUL, dots or upper case never reach the file system; `get`/`delete` treat them
 *   as unknown tokens and `put` refuses them.
 * - Writes are atomic: the record goes to a hidden temp file `.<token>.<random>.tmp` in the same
 *   directory (same file system), is fsync'ed, then `rename`d over the final name; a reader sees the
 *   old record or the new one, never half a file. The temp file is removed when anything fails.
 * - Reading: missing file → undefined; unreadable bytes → 500/1028; other I/O errors → 500/1025.
 *   Write failures → 500/−4.
 * - The store keeps no state in memory, so a new store on the same directory (a restart) sees every
 *   record written before.
 */

import { mkdir, open, readFile, readdir, rename, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeStoredRecord, encodeRecord } from './codec.js';
import { retrievalFailedError, storeFailedError } from './errors.js';
import { defaultRandom, isValidToken, type RandomSource } from './token.js';
import type { ImageStore } from './types.js';

export const RECORD_EXTENSION = '.tlrec';

export interface DirectoryStoreOptions {
  /** Random source for temp-file names (default `crypto.getRandomValues`). */
  readonly random?: RandomSource;
}

function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function createDirectoryStore(dir: string, options: DirectoryStoreOptions = {}): ImageStore {
  const root = resolve(dir);
  const random = options.random ?? defaultRandom;
  let ready: Promise<unknown> | undefined;
  const fileOf = (token: string) => join(root, token + RECORD_EXTENSION);

  function tempName(token: string): string {
    const suffix = Array.from(random(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
    return join(root, `.${token}.${suffix}.tmp`);
  }

  return {
    async put(record) {
      if (!isValidToken(record.token)) throw new TypeError(`malformed image token ${JSON.stringify(record.token)}`);
      const bytes = encodeRecord(record);
      const tmp = tempName(record.token);
      try {
        ready ??= mkdir(root, { recursive: true });
        await ready;
        const fh = await open(tmp, 'wx');
        try {
          await fh.writeFile(bytes);
          await fh.sync();
        } finally {
          await fh.close();
        }
        await rename(tmp, fileOf(record.token));
      } catch (e) {
        ready = undefined; // the directory may have been removed; recreate on the next put
        await unlink(tmp).catch(() => undefined);
        throw storeFailedError(record.token, describe(e));
      }
    },

    async get(token) {
      if (!isValidToken(token)) return undefined;
      let bytes: Uint8Array;
      try {
        bytes = await readFile(fileOf(token));
      } catch (e) {
        if (errorCode(e) === 'ENOENT') return undefined;
        throw retrievalFailedError(token, describe(e));
      }
      return decodeStoredRecord(bytes, token);
    },

    async delete(token) {
      if (!isValidToken(token)) return false;
      try {
        await unlink(fileOf(token));
        return true;
      } catch (e) {
        if (errorCode(e) === 'ENOENT') return false;
        throw retrievalFailedError(token, describe(e));
      }
    },

    async list() {
      let names: string[];
      try {
        names = await readdir(root);
      } catch (e) {
        if (errorCode(e) === 'ENOENT') return [];
        throw e;
      }
      return names
        .filter((n) => n.endsWith(RECORD_EXTENSION))
        .map((n) => n.slice(0, -RECORD_EXTENSION.length))
        .filter(isValidToken);
    },
  };
}

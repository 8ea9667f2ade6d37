/**
 * `ImageStore` on a local directory (Node only: node:fs/promises). One file per token,
 * `<dir>/<token>.tlrec`, in the binary format of codec.ts.
 *
 * - Tokens are checked against `TOKEN_PATTERN` (token.ts) before any path is built: `../x`, absolute
 *   paths, separators, NUL, dots or upper case never reach the file system; `get`/`delete` treat them
 *   as unknown tokens and `put` refuses them.
 * - Writes are atomic: the record goes to a hidden temp file `.<token>.<random>.tmp` in the same
 *   directory (same file system), is fsync'ed, then `rename`d over the final name, and the directory
 *   is fsync'ed. A reader — or a server restarted after being killed at any instant — sees the old
 *   record or the new one, never half a file. When anything fails (disk full, I/O error) the temp
 *   file is removed, no record appears, and `put` throws 500/−4.
 * - Reading: missing file → undefined; unreadable bytes → 500/1028; other I/O errors → 500/1025.
 * - The store keeps no state in memory, so a new store on the same directory (a restart) sees every
 *   record written before. Temp files a killed process left behind are never read;
 *   `removeStaleTempFiles` deletes them (`tracelab serve` does at start-up).
 * - Records hold the users' images: files are created mode 0600 and the directories the store
 *   creates 0700 (owner only, whatever the umask lets through).
 * - Every file-system call goes through `StoreFs` (default node:fs/promises), so tests can inject
 *   failures such as ENOSPC.
 */

import { mkdir, open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { decodeStoredRecord, encodeRecord } from './codec.js';
import { retrievalFailedError, storeFailedError } from './errors.js';
import { defaultRandom, isValidToken, type RandomSource } from './token.js';
import type { ImageStore } from './types.js';

export const RECORD_EXTENSION = '.tlrec';
/** Temp files of `put`: `.<token>.<16 hex>.tmp`. */
export const TEMP_FILE_PATTERN = /^\.(?:api-test-)?[a-z2-7]{32}\.[0-9a-f]{16}\.tmp$/;

/** The file-system calls of the directory store. */
export interface StoreFs {
  mkdir(path: string): Promise<unknown>;
  /** Creates `path` (which must not exist), writes every byte, fsyncs and closes it. */
  writeNew(path: string, bytes: Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  readFile(path: string): Promise<Uint8Array>;
  readdir(path: string): Promise<string[]>;
  /** Modification time, ms since the epoch. */
  mtimeMs(path: string): Promise<number>;
  /** fsyncs the directory, so a rename in it survives a power loss. */
  syncDir(path: string): Promise<void>;
}

/** Permissions of a record file and of the directories the store creates: the owner's only. */
export const RECORD_FILE_MODE = 0o600;
export const STORE_DIR_MODE = 0o700;

export const nodeStoreFs: StoreFs = {
  mkdir: (path) => mkdir(path, { recursive: true, mode: STORE_DIR_MODE }),
  async writeNew(path, bytes) {
    const fh = await open(path, 'wx', RECORD_FILE_MODE);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
  rename,
  unlink,
  readFile,
  readdir: (path) => readdir(path),
  mtimeMs: async (path) => (await stat(path)).mtimeMs,
  async syncDir(path) {
    const fh = await open(path, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
};

export interface DirectoryStoreOptions {
  /** Random source for temp-file names (default `crypto.getRandomValues`). */
  readonly random?: RandomSource;
  /** File-system calls (default node:fs/promises). */
  readonly fs?: StoreFs;
}

function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

function describe(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = errorCode(e);
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk holding the image store is full: ${message}`;
  return message;
}

export function createDirectoryStore(dir: string, options: DirectoryStoreOptions = {}): ImageStore {
  const root = resolve(dir);
  const random = options.random ?? defaultRandom;
  const fs = options.fs ?? nodeStoreFs;
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
        ready ??= fs.mkdir(root);
        await ready;
        await fs.writeNew(tmp, bytes);
        await fs.rename(tmp, fileOf(record.token));
      } catch (e) {
        ready = undefined; // the directory may have been removed; recreate on the next put
        await fs.unlink(tmp).catch(() => undefined);
        throw storeFailedError(record.token, describe(e));
      }
      // The record is complete and visible; this only makes the rename durable across a power loss.
      await fs.syncDir(root).catch(() => undefined);
    },

    async get(token) {
      if (!isValidToken(token)) return undefined;
      let bytes: Uint8Array;
      try {
        bytes = await fs.readFile(fileOf(token));
      } catch (e) {
        if (errorCode(e) === 'ENOENT') return undefined;
        throw retrievalFailedError(token, describe(e));
      }
      return decodeStoredRecord(bytes, token);
    },

    async delete(token) {
      if (!isValidToken(token)) return false;
      try {
        await fs.unlink(fileOf(token));
        return true;
      } catch (e) {
        if (errorCode(e) === 'ENOENT') return false;
        throw retrievalFailedError(token, describe(e));
      }
    },

    async list() {
      let names: string[];
      try {
        names = await fs.readdir(root);
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

/**
 * Deletes the temp files of writes that never finished (a process killed mid-`put`) older than
 * `olderThanMs` — young ones may belong to a write still running in another process on the same
 * directory. Returns the names removed; a missing directory is empty.
 */
export async function removeStaleTempFiles(dir: string, olderThanMs: number, now: number = Date.now(), fs: StoreFs = nodeStoreFs): Promise<string[]> {
  const root = resolve(dir);
  let names: string[];
  try {
    names = await fs.readdir(root);
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return [];
    throw e;
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!TEMP_FILE_PATTERN.test(name)) continue;
    const path = join(root, name);
    try {
      if (now - (await fs.mtimeMs(path)) < olderThanMs) continue;
      await fs.unlink(path);
      removed.push(name);
    } catch {
      // gone already (its write finished or another cleaner got it)
    }
  }
  return removed;
}

/**
 * Writing a whole file so that nobody ever sees part of it (the CLI's `-o FILE`, account.json).
 * In: a path and the bytes. Out: the file holds exactly those bytes — or an error is thrown, the
 * file still holds what it held before, and nothing was left behind.
 *
 * - A regular file, or a path that does not exist yet: the bytes go to a temp file
 *   `.NAME.<random>.tmp` next to it (same directory, so the same file system), which is fsync'ed,
 *   given the old file's permissions, and renamed over NAME; the directory is then fsync'ed. Any
 *   failure (ENOSPC, EIO, EACCES, …) removes the temp file and leaves NAME untouched.
 * - A symbolic link: the file it points to is replaced; the link stays — unless the caller says
 *   `followSymlink: false` (batch output into a folder others may write to): then the link itself
 *   is replaced by the new file and whatever it pointed to is never touched. The temp file is
 *   created exclusively (O_CREAT|O_EXCL), which never follows a link either.
 * - A path that exists and is not a regular file (`/dev/stdout`, `/dev/null`, `/dev/full`, a FIFO) is
 *   written in place: renaming over a device would replace the device node.
 *
 * The file-system calls come through `AtomicWriteFs`, so tests can inject failures.
 */

import { randomBytes } from 'node:crypto';
import { lstat, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteFs {
  /** `fs.stat` (follows links); rejects with code ENOENT for a missing path. */
  stat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean; mode: number }>;
  /** `fs.lstat` (a link as itself); rejects with code ENOENT for a missing path. */
  lstat(path: string): Promise<{ isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean; mode: number }>;
  realpath(path: string): Promise<string>;
  /** Creates `path` (exclusive) with `mode`, writes every byte, fsyncs it, closes it. */
  writeNew(path: string, bytes: Uint8Array, mode: number): Promise<void>;
  /** Opens an existing non-regular file for writing and writes every byte (no temp file). */
  writeInPlace(path: string, bytes: Uint8Array): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** fsyncs a directory so a rename in it survives a power loss (best effort). */
  syncDir(path: string): Promise<void>;
}

export const nodeAtomicWriteFs: AtomicWriteFs = {
  stat,
  lstat,
  realpath,
  async writeNew(path, bytes, mode) {
    const fh = await open(path, 'wx', mode);
    try {
      await fh.writeFile(bytes);
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
  async writeInPlace(path, bytes) {
    const fh = await open(path, 'w');
    try {
      await fh.writeFile(bytes);
    } finally {
      await fh.close();
    }
  },
  rename,
  unlink,
  async syncDir(path) {
    const fh = await open(path, 'r');
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
};

function errorCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

/** Temp-file name used next to `path` (exported for tests that look for leftovers). */
export function tempNameFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

export interface AtomicWriteOptions {
  /** Write through a symbolic link at `path` (true, the default) or replace the link itself (false). */
  readonly followSymlink?: boolean;
  /** Permissions of a new file (narrowed by the umask); default 0o666. An existing file keeps its own. */
  readonly mode?: number;
}

/** Replaces `path` with `bytes` atomically (see the module comment). Throws the file system's error. */
export async function writeFileAtomically(path: string, bytes: Uint8Array, fs: AtomicWriteFs = nodeAtomicWriteFs, options: AtomicWriteOptions = {}): Promise<void> {
  let target = path;
  let mode = options.mode ?? 0o666; // narrowed by the umask, as for any new file
  try {
    if (options.followSymlink === false) {
      const info = await fs.lstat(path);
      if (info.isDirectory()) throw Object.assign(new Error(`EISDIR: ${path} is a directory`), { code: 'EISDIR' });
      // A regular file keeps its permissions; a link, device or FIFO is replaced like a missing file.
      if (info.isFile()) mode = info.mode & 0o7777;
    } else {
      const info = await fs.stat(path);
      if (!info.isFile() && !info.isDirectory()) {
        await fs.writeInPlace(path, bytes);
        return;
      }
      target = await fs.realpath(path); // a symlink: replace the file it names
      mode = info.mode & 0o7777;
    }
  } catch (e) {
    if (errorCode(e) !== 'ENOENT') throw e;
  }
  const temp = tempNameFor(target);
  try {
    await fs.writeNew(temp, bytes, mode);
    await fs.rename(temp, target);
  } catch (e) {
    await fs.unlink(temp).catch(() => undefined);
    throw e;
  }
  // The rename is done and visible; syncing the directory only makes it durable across a power loss.
  await fs.syncDir(dirname(target)).catch(() => undefined);
}

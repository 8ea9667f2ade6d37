/**
 * Reading an image file named by the user — the CLI's INPUT and the Node library's path input
 * (`vectorize('photo.png')`) — with one readable error naming the file: `cannot read INPUT
 * 'nope.png': no such file`. The error keeps Node's errno code (`code: 'ENOENT'`), the path and
 * the fs error as `cause`.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/** A plain Error (not a TracelabError: no API call failed) with Node's errno code. */
export interface FileReadError extends Error {
  readonly code?: string;
  readonly path: string;
}

/** The file's bytes (a buffer of its own); `what` names it in the error ("INPUT", "image file"). */
export async function readNamedFile(file: string | URL, what: string): Promise<Uint8Array> {
  if (file instanceof URL && file.protocol !== 'file:') {
    throw new TypeError(`cannot read ${what} '${file.href}': only file: URLs are read; fetch other URLs and pass the bytes`);
  }
  const path = file instanceof URL ? fileURLToPath(file) : file;
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (err as Error).message;
    const error = new Error(`cannot read ${what} '${path}': ${reason}`, { cause: err });
    throw Object.assign(error, { path, ...(typeof code === 'string' ? { code } : {}) }) as FileReadError;
  }
}

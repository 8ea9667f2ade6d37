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
export async function readNamedFile(given: string | URL, what: string): Promise<Uint8Array> {
  // A `file://…` string is a file URL (as `new URL(…)` would be), not a relative path named so.
  const file = typeof given === 'string' && /^file:\/\//i.test(given) ? fileUrl(given, what) : given;
  if (file instanceof URL && file.protocol !== 'file:') {
    throw new TypeError(`cannot read ${what} '${file.href}': only file: URLs are read; fetch other URLs and pass the bytes`);
  }
  let path: string;
  try {
    path = file instanceof URL ? fileURLToPath(file) : file;
  } catch (err) {
    throw new TypeError(`cannot read ${what} '${file instanceof URL ? file.href : file}': ${(err as Error).message}`, { cause: err });
  }
  try {
    return new Uint8Array(await readFile(path));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (err as Error).message;
    const error = new Error(`cannot read ${what} '${path}': ${reason}`, { cause: err });
    throw Object.assign(error, { path, ...(typeof code === 'string' ? { code } : {}) }) as FileReadError;
  }
}

function fileUrl(text: string, what: string): URL {
  try {
    return new URL(text);
  } catch (err) {
    throw new TypeError(`cannot read ${what} '${text}': not a valid file: URL`, { cause: err });
  }
}

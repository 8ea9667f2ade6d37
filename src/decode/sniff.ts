/**
 * Format detection from magic bytes only (never a file name or MIME type).
 * In: the file's bytes. Out: an ImageFormat, or undefined when no signature matches.
 * No package.
 */

import { u32le, type ImageFormat } from './common.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** DIB header sizes that exist: OS/2 core, BITMAPINFOHEADER, V2, V3, OS/2 v2, V4, V5. */
const BMP_DIB_SIZES = new Set([12, 40, 52, 56, 64, 108, 124]);

function startsWith(bytes: Uint8Array, sig: readonly number[], at = 0): boolean {
  if (bytes.length < at + sig.length) return false;
  for (let i = 0; i < sig.length; i++) if (bytes[at + i] !== sig[i]) return false;
  return true;
}

function ascii(s: string): number[] {
  return Array.from(s, (c) => c.charCodeAt(0));
}

export function sniffFormat(bytes: Uint8Array): ImageFormat | undefined {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  // "BM" alone is two ASCII letters; also require a known DIB header size so text files starting "BM" don't match.
  if (startsWith(bytes, ascii('BM')) && bytes.length >= 18 && BMP_DIB_SIZES.has(u32le(bytes, 14))) return 'bmp';
  return undefined;
}

/** "00 01 02 03" — the first bytes in hex, for error messages. */
export function firstBytesHex(bytes: Uint8Array, count = 4): string {
  return Array.from(bytes.subarray(0, count), (b) => b.toString(16).padStart(2, '0')).join(' ');
}

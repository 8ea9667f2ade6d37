/**
 * Binary encoding of one `ImageRecord` (one file of the directory store; usable by any byte store).
 * Pure: no Node, no DOM.
 *
 *   offset 0   8 bytes  magic "TLIMGREC"
 *          8   u32 BE   format version (1)
 *         12   u32 BE   header length H
 *         16   u32 BE   CRC-32 of every byte from offset 20 to the end
 *         20   H bytes  header: UTF-8 JSON {token, createdAt, expiresAt, mode, mimeType, options,
 *                       receipt, imageLength, traceLength}
 *     20 + H   image bytes (imageLength), then trace bytes (traceLength); nothing after.
 *
 * `decodeRecord` checks every part and throws `CorruptRecordError` for anything off, so a truncated,
 * bit-flipped or foreign file becomes error 1028 instead of a wrong result.
 */

import { crc32 } from '../../decode/crc32.js';
import { isMode } from '../pricing.js';
import { corruptTokenError } from './errors.js';
import { isValidToken } from './token.js';
import type { ImageRecord, ReceiptInfo } from './types.js';

const MAGIC = 'TLIMGREC';
const VERSION = 1;
const PREFIX = 20;

export class CorruptRecordError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptRecordError';
  }
}

interface Header {
  token: string;
  createdAt: number;
  expiresAt: number;
  mode: string;
  mimeType: string;
  options: [string, string][];
  receipt: ReceiptInfo | null;
  imageLength: number;
  traceLength: number;
}

export function encodeRecord(record: ImageRecord): Uint8Array {
  const header: Header = {
    token: record.token,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    mode: record.mode,
    mimeType: record.image.mimeType,
    options: record.options.map(([k, v]) => [k, v]),
    receipt: record.receipt ? { receipt: record.receipt.receipt, issuedAt: record.receipt.issuedAt } : null,
    imageLength: record.image.bytes.length,
    traceLength: record.trace.length,
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const out = new Uint8Array(PREFIX + headerBytes.length + header.imageLength + header.traceLength);
  for (let i = 0; i < MAGIC.length; i++) out[i] = MAGIC.charCodeAt(i);
  const view = new DataView(out.buffer);
  view.setUint32(8, VERSION);
  view.setUint32(12, headerBytes.length);
  out.set(headerBytes, PREFIX);
  out.set(record.image.bytes, PREFIX + headerBytes.length);
  out.set(record.trace, PREFIX + headerBytes.length + header.imageLength);
  view.setUint32(16, crc32(out, PREFIX));
  return out;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function fail(message: string): never {
  throw new CorruptRecordError(message);
}

/** Decodes `bytes`; `expectedToken` (when given) must match the stored token. */
export function decodeRecord(bytes: Uint8Array, expectedToken?: string): ImageRecord {
  if (bytes.length < PREFIX) fail(`record too short (${bytes.length} bytes)`);
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) fail('not a Tracelab image record');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = view.getUint32(8);
  if (version !== VERSION) fail(`unsupported record version ${version}`);
  const headerLength = view.getUint32(12);
  if (PREFIX + headerLength > bytes.length) fail('header runs past the end of the record');
  if (view.getUint32(16) !== crc32(bytes, PREFIX)) fail('checksum mismatch');

  let h: Partial<Header>;
  try {
    h = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(PREFIX, PREFIX + headerLength))) as Partial<Header>;
  } catch {
    fail('header is not valid JSON');
  }
  if (typeof h !== 'object' || h === null) fail('header is not an object');
  if (!isValidToken(h.token)) fail('stored token is malformed');
  if (expectedToken !== undefined && h.token !== expectedToken) fail('stored token does not match its file');
  if (!isInt(h.createdAt) || !isInt(h.expiresAt)) fail('bad timestamps');
  if (typeof h.mode !== 'string' || !isMode(h.mode)) fail('bad mode');
  if (typeof h.mimeType !== 'string') fail('bad media type');
  if (!Array.isArray(h.options) || !h.options.every((e) => Array.isArray(e) && e.length === 2 && e.every((s) => typeof s === 'string'))) {
    fail('bad options');
  }
  const r = h.receipt;
  if (r !== null && (typeof r !== 'object' || r === undefined || typeof r.receipt !== 'string' || !isInt(r.issuedAt))) fail('bad receipt');
  if (!isInt(h.imageLength) || !isInt(h.traceLength)) fail('bad lengths');
  const imageStart = PREFIX + headerLength;
  const traceStart = imageStart + h.imageLength;
  if (traceStart + h.traceLength !== bytes.length) fail('section lengths do not match the record size');

  return {
    token: h.token,
    createdAt: h.createdAt,
    expiresAt: h.expiresAt,
    mode: h.mode,
    // `new Uint8Array(view)` copies into a plain Uint8Array (Buffer#slice would alias the input).
    image: { bytes: new Uint8Array(bytes.subarray(imageStart, traceStart)), mimeType: h.mimeType },
    options: h.options.map(([k, v]) => [k, v] as const),
    trace: new Uint8Array(bytes.subarray(traceStart, traceStart + h.traceLength)),
    receipt: r === null ? null : { receipt: r.receipt, issuedAt: r.issuedAt },
  };
}

/**
 * What a store read back for `token`, as a record: any damage (not bytes, bad checksum, wrong
 * token) is the API's 500/1028 "image token corrupted". Shared by every persistent store.
 */
export function decodeStoredRecord(value: unknown, token: string): ImageRecord {
  try {
    if (!(value instanceof Uint8Array)) throw new CorruptRecordError('stored value is not a byte array');
    return decodeRecord(value, token);
  } catch (e) {
    if (e instanceof CorruptRecordError) throw corruptTokenError(token, e.message);
    throw e;
  }
}

/**
 * Shared types and helpers for the decoders in src/decode.
 * In: nothing (types, byte readers, DPI maths). Out: ImageFormat, DecodedImage, RawImage, helpers.
 * No package; no Node or DOM APIs, so it runs in Node and in a Web Worker alike.
 */

import { unreadableImageError, type TracelabError } from '../engine/errors.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp' | 'gif' | 'bmp' | 'tiff';

export interface Dpi {
  x: number;
  y: number;
}

export interface DecodedImage {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, not premultiplied, rows top to bottom. */
  data: Uint8Array;
  format: ImageFormat;
  /** From pHYs / JFIF / EXIF / BMP / TIFF header when present. */
  dpi?: Dpi;
  /** The embedded ICC profile (PNG iCCP, JPEG APP2, WebP ICCP, TIFF tag 34675), when there is a readable one. */
  iccProfile?: Uint8Array;
}

/** What a format module hands back to index.ts (format is added there). */
export interface RawImage {
  width: number;
  height: number;
  data: Uint8Array;
  dpi?: Dpi;
}

/** Width and height as declared by the header, read without touching pixel data. */
export interface ImageHeader {
  width: number;
  height: number;
}

/**
 * A 16-bit sample as 8 bits, rounded to the nearest level (v16 × 255 / 65535), as libpng's and libtiff's readers
 * scale it: a 16-bit file then reads exactly like its 8-bit copy (issue 41: truncating to the high byte shifted
 * about half the levels of a smooth gradient by one, which split its bands differently).
 */
export function sample16To8(v16: number): number {
  return Math.round((v16 * 255) / 65535);
}

/** 1006 with a message that names the problem. */
export function corrupt(detail: string): TracelabError {
  return unreadableImageError(detail);
}

export function u16be(b: Uint8Array, o: number): number {
  return (b[o] << 8) | b[o + 1];
}
export function u16le(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8);
}
export function u32be(b: Uint8Array, o: number): number {
  return ((b[o] << 24) | (b[o + 1] << 16) | (b[o + 2] << 8) | b[o + 3]) >>> 0;
}
export function u32le(b: Uint8Array, o: number): number {
  return (b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)) >>> 0;
}
export function i32le(b: Uint8Array, o: number): number {
  return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24);
}

/**
 * Rounds a resolution to 2 decimals, snapping to the integer when within 0.02
 * (2835 px/m is 72.009 dpi and means 72).
 */
export function roundDpi(value: number): number {
  const r = Math.round(value);
  return Math.abs(value - r) < 0.02 ? r : Math.round(value * 100) / 100;
}

/** Builds a dpi from values in pixels per `unit`; returns undefined for unusable input. */
export function makeDpi(x: number, y: number, unit: 'inch' | 'cm' | 'm'): Dpi | undefined {
  if (!Number.isFinite(x) || !Number.isFinite(y) || x <= 0 || y <= 0) return undefined;
  const f = unit === 'inch' ? 1 : unit === 'cm' ? 2.54 : 0.0254;
  const dx = roundDpi(x * f);
  const dy = roundDpi(y * f);
  // Values below 1 dpi or absurdly high are junk headers, not real resolutions.
  if (dx < 1 || dy < 1 || dx > 1_000_000 || dy > 1_000_000) return undefined;
  return { x: dx, y: dy };
}

/** A copy of `bytes` in a fresh ArrayBuffer of exactly its length (some decoders need offset 0). */
export function ownArrayBuffer(bytes: Uint8Array, extra = 0): ArrayBuffer {
  const buf = new ArrayBuffer(bytes.length + extra);
  new Uint8Array(buf).set(bytes);
  return buf;
}

/** Best-effort text of anything a third-party decoder may throw (Error, string, number, object). */
export function describeThrown(err: unknown): string {
  let text: string;
  if (err instanceof Error) text = err.message;
  else if (typeof err === 'string' || typeof err === 'number') text = String(err);
  else if (err && typeof err === 'object' && 'message' in err) text = String((err as { message: unknown }).message);
  else text = String(err);
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 160 ? `${text.slice(0, 157)}...` : text || 'unknown error';
}

/**
 * Runs a synchronous decoder call with console.log/info/warn muted: some decoders print warnings
 * (omggif on short LZW streams, utif2 on tiled TIFFs), which would corrupt a CLI writing SVG to stdout.
 */
export function quietly<T>(fn: () => T): T {
  const c = console;
  const saved = [c.log, c.info, c.warn] as const;
  const mute = () => {};
  c.log = c.info = c.warn = mute;
  try {
    return fn();
  } finally {
    [c.log, c.info, c.warn] = saved;
  }
}

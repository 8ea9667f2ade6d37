/**
 * The ICC profile embedded in an image file, as its bytes (processing.color_profile.*).
 * In: the file's bytes and its sniffed format. Out: the profile, or undefined when there is none or it
 * cannot be read (a damaged profile is ignored, as image viewers ignore it; it never fails the decode).
 * Where each format keeps it: PNG an `iCCP` chunk (name, method 0, zlib data); JPEG `APP2 ICC_PROFILE`
 * segments (sequence number and count, joined in order); WebP a RIFF `ICCP` chunk; TIFF tag 34675 of the first
 * IFD. GIF and BMP (V5 profiles are rare) carry none here.
 */

import { u16be, u16le, u32be, u32le, type ImageFormat } from './common.js';
import { inflateBounded } from './inflate-bounded.js';

/** Larger profiles are not real matrix/TRC or LUT profiles of an image (the largest common ones are ~0.5 MB). */
const MAX_PROFILE_BYTES = 4 << 20;
/** An ICC header is 128 bytes and a tag count follows. */
const MIN_PROFILE_BYTES = 132;

export function embeddedProfile(format: ImageFormat, bytes: Uint8Array): Uint8Array | undefined {
  let profile: Uint8Array | undefined;
  try {
    if (format === 'png') profile = pngProfile(bytes);
    else if (format === 'jpeg') profile = jpegProfile(bytes);
    else if (format === 'webp') profile = webpProfile(bytes);
    else if (format === 'tiff') profile = tiffProfile(bytes);
  } catch {
    return undefined;
  }
  if (!profile || profile.length < MIN_PROFILE_BYTES || profile.length > MAX_PROFILE_BYTES) return undefined;
  // The header's own size must fit the bytes found (a cut profile is ignored).
  return u32be(profile, 0) <= profile.length ? profile.slice(0, u32be(profile, 0)) : undefined;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** `iCCP` before the first IDAT: keyword (1–79 bytes), NUL, compression method 0, zlib stream. */
function pngProfile(bytes: Uint8Array): Uint8Array | undefined {
  let at = 8;
  while (at + 12 <= bytes.length) {
    const length = u32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    if (type === 'IDAT' || type === 'IEND') return undefined;
    if (type === 'iCCP' && at + 12 + length <= bytes.length) {
      const data = bytes.subarray(at + 8, at + 8 + length);
      const nul = data.indexOf(0);
      if (nul < 1 || nul > 79 || data[nul + 1] !== 0) return undefined;
      return inflateBounded([data.subarray(nul + 2)], MAX_PROFILE_BYTES);
    }
    at += 12 + length;
  }
  return undefined;
}

/** `APP2` segments starting "ICC_PROFILE\0", then sequence number (1-based) and count: joined in sequence order. */
function jpegProfile(bytes: Uint8Array): Uint8Array | undefined {
  const parts: Uint8Array[] = [];
  let count = 0;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) {
      at++;
      continue;
    }
    const marker = bytes[at + 1];
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break; // image data: the profile comes before it
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      at += 2;
      continue;
    }
    const length = u16be(bytes, at + 2);
    const seg = bytes.subarray(at + 4, at + 2 + length);
    if (marker === 0xe2 && seg.length > 14 && ascii(seg, 0, 12) === 'ICC_PROFILE\0') {
      const sequence = seg[12];
      count = seg[13];
      if (sequence >= 1) parts[sequence - 1] = seg.subarray(14);
    }
    at += 2 + length;
  }
  if (count === 0) return undefined;
  for (let i = 0; i < count; i++) if (!parts[i]) return undefined; // a missing part: no usable profile
  const out = new Uint8Array(parts.slice(0, count).reduce((n, p) => n + p.length, 0));
  let pos = 0;
  for (const part of parts.slice(0, count)) {
    out.set(part, pos);
    pos += part.length;
  }
  return out;
}

/** The RIFF `ICCP` chunk (present when VP8X says so; any position is accepted). */
function webpProfile(bytes: Uint8Array): Uint8Array | undefined {
  let at = 12;
  while (at + 8 <= bytes.length) {
    const size = u32le(bytes, at + 4);
    if (ascii(bytes, at, 4) === 'ICCP') return at + 8 + size <= bytes.length ? bytes.subarray(at + 8, at + 8 + size) : undefined;
    at += 8 + size + (size & 1);
  }
  return undefined;
}

/** Tag 34675 (InterColorProfile, UNDEFINED or BYTE) of the first IFD. */
function tiffProfile(bytes: Uint8Array): Uint8Array | undefined {
  const le = bytes[0] === 0x49;
  const r16 = (o: number) => (le ? u16le(bytes, o) : u16be(bytes, o));
  const r32 = (o: number) => (le ? u32le(bytes, o) : u32be(bytes, o));
  const ifd = r32(4);
  if (ifd + 2 > bytes.length) return undefined;
  const entries = r16(ifd);
  for (let i = 0; i < entries; i++) {
    const e = ifd + 2 + i * 12;
    if (e + 12 > bytes.length) return undefined;
    if (r16(e) !== 34675) continue;
    const n = r32(e + 4);
    const at = n <= 4 ? e + 8 : r32(e + 8);
    return at + n <= bytes.length ? bytes.subarray(at, at + n) : undefined;
  }
  return undefined;
}

import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DAY_MS,
  TOKEN_PATTERN,
  createMemoryStore,
  decodeRecord,
  encodeRecord,
  generateReceipt,
  generateToken,
  getRecord,
  isValidToken,
  newRecord,
  purgeExpired,
  receiptMatches,
  withReceipt,
  type ImageRecord,
  type ImageStore,
  type RandomSource,
} from '../../src/api/storage/index.js';
import { RECORD_EXTENSION, createDirectoryStore } from '../../src/api/storage/directory.js';
import { TracelabError } from '../../src/engine/errors.js';

const T0 = Date.UTC(2025, 0, 1);

/** Deterministic random source: a counter, so tokens differ but are reproducible. */
function counterRandom(): RandomSource {
  let n = 0;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) bytes[i] = (n + i * 7) & 255;
    n++;
    return bytes;
  };
}

function sample(mode: ImageRecord['mode'] = 'production', random = counterRandom(), retentionDays = 2): ImageRecord {
  return newRecord({
    mode,
    retentionDays,
    image: { bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), mimeType: 'image/png' },
    options: [
      ['processing.max_colors', '4'],
      ['processing.palette', '#FF0000;'],
    ],
    trace: new Uint8Array([9, 8, 7, 6, 5]),
    now: () => T0,
    random,
  });
}

async function expectCode(p: Promise<unknown>, code: number, status: number): Promise<TracelabError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TracelabError);
    expect((e as TracelabError).code).toBe(code);
    expect((e as TracelabError).status).toBe(status);
    return e as TracelabError;
  }
  throw new Error(`expected error ${code}`);
}

describe('tokens', () => {
  it('are URL-safe, lower-case, prefixed api-test- for test modes', () => {
    const random = counterRandom();
    for (const mode of ['production', 'preview'] as const) {
      const t = generateToken(mode, random);
      expect(t).toMatch(/^[a-z2-7]{32}$/);
      expect(encodeURIComponent(t)).toBe(t);
    }
    for (const mode of ['test', 'test_preview'] as const) expect(generateToken(mode, random)).toMatch(/^api-test-[a-z2-7]{32}$/);
    expect(generateReceipt(random)).toMatch(/^rcpt-[a-z2-7]{32}$/);
  });
  it('use the default crypto source and differ', () => {
    const a = generateToken('production');
    const b = generateToken('production');
    expect(a).not.toBe(b);
    expect(isValidToken(a)).toBe(true);
  });
  it('encode all 160 random bits (all-zero and all-ones sources)', () => {
    expect(generateToken('production', (b) => b.fill(0))).toBe('a'.repeat(32));
    expect(generateToken('production', (b) => b.fill(255))).toBe('7'.repeat(32));
  });
  it('reject anything path-like', () => {
    for (const bad of ['../x', '/etc/passwd', 'a'.repeat(31) + '/', 'a'.repeat(31) + '\0', '..', '', 'A'.repeat(32), 'a'.repeat(32) + '.tlrec', `api-test-../${'a'.repeat(27)}`]) {
      expect(isValidToken(bad)).toBe(false);
      expect(TOKEN_PATTERN.test(bad)).toBe(false);
    }
  });
});

describe('codec', () => {
  it('round-trips and detects corruption', () => {
    const r = withReceipt(sample(), () => T0 + 5, counterRandom());
    const bytes = encodeRecord(r);
    expect(decodeRecord(bytes)).toEqual(r);
    const flipped = bytes.slice();
    flipped[flipped.length - 1]! ^= 1;
    expect(() => decodeRecord(flipped)).toThrow(/checksum/);
    expect(() => decodeRecord(bytes.subarray(0, bytes.length - 1))).toThrow();
    expect(() => decodeRecord(new TextEncoder().encode('hello'))).toThrow(/short/);
    expect(() => decodeRecord(bytes, generateToken('test'))).toThrow(/does not match/);
  });
});

function storeSuite(name: string, make: () => Promise<ImageStore>) {
  describe(`${name} store`, () => {
    it('put / get / delete round trip', async () => {
      const store = await make();
      const r = sample('test');
      expect(r.token.startsWith('api-test-')).toBe(true);
      await store.put(r);
      expect(await store.get(r.token)).toEqual(r);
      expect(await store.list?.()).toEqual([r.token]);
      expect(await store.delete(r.token)).toBe(true);
      expect(await store.get(r.token)).toBeUndefined();
      expect(await store.delete(r.token)).toBe(false);
      await expectCode(getRecord(store, r.token, () => T0), 1027, 400);
    });

    it('put replaces; returned records are copies', async () => {
      const store = await make();
      const r = sample();
      await store.put(r);
      const got = (await store.get(r.token))!;
      got.image.bytes[0] = 0;
      expect((await store.get(r.token))!.image.bytes[0]).toBe(0x89);
      const upgraded = withReceipt(r, () => T0 + 1, counterRandom());
      await store.put(upgraded);
      const again = await getRecord(store, r.token, () => T0 + 2);
      expect(receiptMatches(again, upgraded.receipt!.receipt)).toBe(true);
      expect(receiptMatches(again, 'rcpt-' + 'a'.repeat(32))).toBe(false);
      expect(receiptMatches(again, undefined)).toBe(false);
      expect(withReceipt(again, () => T0 + 3)).toBe(again); // keeps the first receipt
    });

    it('expiry with a fake clock → 1027', async () => {
      const store = await make();
      const r = sample('production', counterRandom(), 2);
      expect(r.expiresAt).toBe(T0 + 2 * DAY_MS);
      await store.put(r);
      let now = T0 + 2 * DAY_MS - 1;
      const clock = () => now;
      expect((await getRecord(store, r.token, clock)).token).toBe(r.token);
      now = T0 + 2 * DAY_MS;
      const e = await expectCode(getRecord(store, r.token, clock), 1027, 400);
      expect(e.message).toMatch(/expired/);
      expect(await purgeExpired(store, clock)).toEqual([r.token]);
      expect(await store.get(r.token)).toBeUndefined();
    });

    it('path-traversal and malformed tokens are unknown tokens', async () => {
      const store = await make();
      for (const bad of ['../x', '../../etc/passwd', '/etc/passwd', 'a\0b', '.', '']) {
        expect(await store.get(bad)).toBeUndefined();
        expect(await store.delete(bad)).toBe(false);
        await expectCode(getRecord(store, bad, () => T0), 1027, 400);
      }
      await expect(store.put({ ...sample(), token: '../x' })).rejects.toThrow(TypeError);
    });
  });
}

storeSuite('memory', async () => createMemoryStore());

describe('directory store', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tracelab-store-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  storeSuite('directory', async () => createDirectoryStore(join(dir, 'images')));

  it('survives re-creating the store (restart)', async () => {
    const r = sample('preview');
    await createDirectoryStore(dir).put(r);
    const reopened = createDirectoryStore(dir);
    expect(await reopened.get(r.token)).toEqual(r);
    expect(await reopened.list?.()).toEqual([r.token]);
  });

  it('writes one file per token atomically and leaves no temp files', async () => {
    const store = createDirectoryStore(dir);
    const random = counterRandom();
    const records = [sample('production', random), sample('test', random), sample('preview', random)];
    await Promise.all(records.map((r) => store.put(r)));
    await store.put(records[0]!); // overwrite
    const names = (await readdir(dir)).sort();
    expect(names).toEqual(records.map((r) => r.token + RECORD_EXTENSION).sort());
    expect(names.some((n) => n.endsWith('.tmp'))).toBe(false);
  });

  it('a failed write leaves no temp file and reports −4', async () => {
    const store = createDirectoryStore(dir);
    const r = sample();
    // Make the final name a non-empty directory: rename onto it fails after the temp file was written.
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, r.token + RECORD_EXTENSION, 'inner'), { recursive: true });
    await expectCode(store.put(r), -4, 500);
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    // …and reading that path is a storage failure, not "unknown".
    await expectCode(store.get(r.token), 1025, 500);
  });

  it('corrupt or truncated file → 500/1028', async () => {
    const store = createDirectoryStore(dir);
    const r = sample();
    await store.put(r);
    const file = join(dir, r.token + RECORD_EXTENSION);
    const bytes = await readFile(file);
    await writeFile(file, bytes.subarray(0, bytes.length - 3));
    await expectCode(getRecord(store, r.token, () => T0), 1028, 500);
    await writeFile(file, 'not a record at all');
    await expectCode(store.get(r.token), 1028, 500);
    // a valid record copied under another token's name is corrupt too
    const other = sample('test');
    await writeFile(join(dir, other.token + RECORD_EXTENSION), bytes);
    await expectCode(store.get(other.token), 1028, 500);
  });

  it('never touches files outside the store', async () => {
    const outside = join(dir, 'secret' + RECORD_EXTENSION);
    await writeFile(outside, 'keep');
    const store = createDirectoryStore(join(dir, 'images'));
    expect(await store.get('../secret')).toBeUndefined();
    expect(await store.delete('../secret')).toBe(false);
    expect(await readFile(outside, 'utf8')).toBe('keep');
  });

  it('list of a missing directory is empty', async () => {
    expect(await createDirectoryStore(join(dir, 'nope')).list?.()).toEqual([]);
  });
});

describe('directory store permissions (issue 37 item 6)', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'tracelab-store-mode-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('records are written 0600 and the directories the store creates 0700, whatever the umask allows', async () => {
    const previous = process.umask(0o022); // the usual umask: 0644 files and 0755 folders unless asked otherwise
    try {
      const dir = join(root, 'data', 'images');
      const store = createDirectoryStore(dir);
      const record = sample();
      await store.put(record);
      expect((await stat(join(dir, record.token + RECORD_EXTENSION))).mode & 0o777).toBe(0o600);
      expect((await stat(dir)).mode & 0o777).toBe(0o700);
      expect((await stat(join(root, 'data'))).mode & 0o777).toBe(0o700);
    } finally {
      process.umask(previous);
    }
  });
});

/**
 * The CLI's `-o FILE` (src/cli/atomic-write.ts, used by src/cli/main.ts): a temp file next to FILE,
 * fsync, rename. Failures are injected through the AtomicWriteFs seam (ENOSPC half-way, EIO at
 * rename) and, where Linux has it, real: `-o /dev/full` is ENOSPC on every write.
 */
import { chmod, lstat, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { nodeAtomicWriteFs, writeFileAtomically, type AtomicWriteFs } from '../../src/cli/atomic-write.js';
import { main, type CliIo } from '../../src/cli/main.js';
import { redSquarePng } from './png.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tracelab-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const bytes = (text: string) => new TextEncoder().encode(text);

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** A CliIo that keeps what the CLI prints. */
function captureIo(): CliIo & { stderr: string; stdout: number } {
  const io = {
    stderr: '',
    stdout: 0,
    readStdin: async () => new Uint8Array(),
    writeStdout: async (data: Uint8Array | string) => void (io.stdout += data.length),
    writeStderr: (text: string) => void (io.stderr += text),
  };
  return io;
}

describe('writeFileAtomically', () => {
  it('replaces a file, keeping its permissions, and leaves no temp file', async () => {
    const file = join(dir, 'out.svg');
    await writeFile(file, 'old');
    await chmod(file, 0o640);
    await writeFileAtomically(file, bytes('new content'));
    expect(await readFile(file, 'utf8')).toBe('new content');
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await readdir(dir)).toEqual(['out.svg']);
  });

  it('with followSymlink: false replaces the link itself and leaves its target alone (batch output, issue 37 item 5)', async () => {
    const outside = join(dir, 'victim.txt');
    const link = join(dir, 'out.svg');
    await writeFile(outside, 'precious');
    await chmod(outside, 0o600);
    await symlink(outside, link);
    await writeFileAtomically(link, bytes('new'), undefined, { followSymlink: false });
    expect(await readFile(outside, 'utf8')).toBe('precious');
    expect((await lstat(link)).isSymbolicLink()).toBe(false);
    expect(await readFile(link, 'utf8')).toBe('new');
    // A link to a missing file: still no file is created at its target.
    await rm(link);
    await symlink(join(dir, 'nowhere.txt'), link);
    await writeFileAtomically(link, bytes('again'), undefined, { followSymlink: false });
    expect(existsSync(join(dir, 'nowhere.txt'))).toBe(false);
    expect(await readFile(link, 'utf8')).toBe('again');
  });

  it('a new file gets the mode asked for (account.json: 0600)', async () => {
    const previous = process.umask(0o022);
    try {
      await writeFileAtomically(join(dir, 'account.json'), bytes('{}'), undefined, { mode: 0o600 });
      expect((await stat(join(dir, 'account.json'))).mode & 0o777).toBe(0o600);
    } finally {
      process.umask(previous);
    }
  });

  it('through a symbolic link replaces the file it names; the link stays', async () => {
    const target = join(dir, 'real.svg');
    const link = join(dir, 'link.svg');
    await writeFile(target, 'old');
    await symlink(target, link);
    await writeFileAtomically(link, bytes('new'));
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await readdir(dir)).sort()).toEqual(['link.svg', 'real.svg']);
  });

  for (const fault of ['ENOSPC half-way through the write', 'EIO at the rename'] as const) {
    it(`${fault}: the error is thrown, FILE keeps its old bytes, no temp file is left`, async () => {
      const file = join(dir, 'out.pdf');
      await writeFile(file, 'previous result');
      const temps: string[] = [];
      const fs: AtomicWriteFs = {
        ...nodeAtomicWriteFs,
        async writeNew(path, data, mode) {
          temps.push(path);
          if (fault === 'ENOSPC half-way through the write') {
            await writeFile(path, data.subarray(0, data.length >> 1), { flag: 'wx', mode });
            throw errno('ENOSPC', 'no space left on device, write');
          }
          return nodeAtomicWriteFs.writeNew(path, data, mode);
        },
        async rename(from, to) {
          if (fault === 'EIO at the rename') throw errno('EIO', `i/o error, rename '${from}' -> '${to}'`);
          return nodeAtomicWriteFs.rename(from, to);
        },
      };
      await expect(writeFileAtomically(file, bytes('x'.repeat(10_000)), fs)).rejects.toMatchObject({ code: fault.startsWith('ENOSPC') ? 'ENOSPC' : 'EIO' });
      expect(temps).toHaveLength(1);
      expect(temps[0]!.startsWith(join(dir, '.out.pdf.'))).toBe(true); // next to FILE: same file system
      expect(await readFile(file, 'utf8')).toBe('previous result');
      expect(await readdir(dir)).toEqual(['out.pdf']);
    });
  }

  it('a new FILE that cannot be written is not created at all', async () => {
    const file = join(dir, 'new.svg');
    const fs: AtomicWriteFs = {
      ...nodeAtomicWriteFs,
      async writeNew(path, data, mode) {
        await writeFile(path, data.subarray(0, 3), { flag: 'wx', mode });
        throw errno('ENOSPC', 'no space left on device, write');
      },
    };
    await expect(writeFileAtomically(file, bytes('<svg/>'), fs)).rejects.toThrow('ENOSPC');
    expect(await readdir(dir)).toEqual([]);
  });

  it.runIf(existsSync('/dev/null'))('a device is written in place, never renamed over (/dev/null stays a device)', async () => {
    await writeFileAtomically('/dev/null', bytes('discarded'));
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect((await readdir('/dev')).some((n) => n.startsWith('.null.'))).toBe(false);
  });
});

describe('tracelab vectorize -o FILE when the disk is full', () => {
  it.runIf(existsSync('/dev/full'))('-o /dev/full (a real ENOSPC) → exit 2, one readable error line, /dev/full untouched', async () => {
    const input = join(dir, 'red.png');
    await writeFile(input, redSquarePng());
    const io = captureIo();
    const status = await main(['vectorize', input, '-o', '/dev/full'], io);
    expect(status).toBe(2);
    expect(io.stderr).toBe("tracelab: error: cannot write OUTPUT '/dev/full': ENOSPC: no space left on device, write\n");
    expect(io.stdout).toBe(0);
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('-o into a missing folder → exit 2, one readable error line, nothing written', async () => {
    const input = join(dir, 'red.png');
    await writeFile(input, redSquarePng());
    const io = captureIo();
    const status = await main(['vectorize', input, '-o', join(dir, 'nope', 'out.svg')], io);
    expect(status).toBe(2);
    expect(io.stderr).toMatch(/^tracelab: error: cannot write OUTPUT '.*\/nope\/out\.svg': ENOENT: no such file or directory[^\n]*\n$/);
    expect(await readdir(dir)).toEqual(['red.png']);
  });

  it('a successful -o FILE replaces the previous result whole', async () => {
    const input = join(dir, 'red.png');
    const output = join(dir, 'out.svg');
    await writeFile(input, redSquarePng());
    await writeFile(output, 'stale');
    const io = captureIo();
    expect(await main(['vectorize', input, '-o', output], io)).toBe(0);
    expect(await readFile(output, 'utf8')).toMatch(/^<\?xml[\s\S]*<\/svg>\s*$/);
    expect((await readdir(dir)).sort()).toEqual(['out.svg', 'red.png']);
  });
});

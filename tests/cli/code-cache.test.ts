/**
 * bin/tracelab.js's V8 code cache: written after a trace, then used; a damaged, foreign or
 * another build's cache, a folder others may write to, or TRACELAB_CODE_CACHE=off never changes
 * the output or the exit status — the CLI compiles as without a cache and replaces the file.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateCli, type PrivateBuild } from './private-build.js';
import { redSquarePng } from './png.js';

let build: PrivateBuild;
let work: string;
let cacheDir: string;

beforeAll(() => {
  build = buildPrivateCli('code-cache');
  work = mkdtempSync(join(tmpdir(), 'tracelab-code-cache-'));
  writeFileSync(join(work, 'in.png'), redSquarePng());
  cacheDir = join(build.distDir, '.code-cache');
}, 120_000);

afterAll(() => {
  build?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** `tracelab vectorize in.png -o -`: status, SVG bytes and stderr. */
function trace(env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [build.bin, 'vectorize', 'in.png', '-o', '-'], { cwd: work, encoding: 'buffer', timeout: 60_000, env: { ...process.env, ...env } });
  return { status: r.status, svg: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

const cacheFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.bin')) : []);

describe('tracelab CLI: code cache', () => {
  it('the first trace writes the cache beside the bundle, the next ones read it and write the same SVG', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    expect(spawnSync(process.execPath, [build.bin, '--version']).status).toBe(0);
    expect(cacheFiles(cacheDir)).toEqual([]); // a run that traces nothing leaves no cache
    const first = trace();
    expect(first.status).toBe(0);
    const [file] = cacheFiles(cacheDir);
    expect(file).toBeDefined();
    const written = readFileSync(join(cacheDir, file!));
    expect(written.toString('latin1', 0, 21)).toBe('tracelab-code-cache 1');
    const second = trace();
    expect(second).toEqual(first);
    expect(readFileSync(join(cacheDir, file!)).equals(written)).toBe(true); // accepted, not rewritten
    expect(statSync(cacheDir).mode & 0o077).toBe(0);
  }, 60_000);

  it('a damaged cache or one of another build changes nothing and is replaced', () => {
    const reference = trace();
    const [file] = cacheFiles(cacheDir);
    const path = join(cacheDir, file!);
    const stampLine = readFileSync(path).toString('latin1').split('\n', 1)[0]!;
    for (const bad of [`${stampLine}\n${'x'.repeat(5000)}`, `${stampLine.replace(/ \d+$/, ' 1')}\nstale`]) {
      writeFileSync(path, bad);
      expect(trace()).toEqual(reference);
      expect(readFileSync(path).toString('latin1')).not.toBe(bad);
      expect(trace()).toEqual(reference);
    }
  }, 60_000);

  it('TRACELAB_CODE_CACHE=off writes no cache', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    const reference = trace({ TRACELAB_CODE_CACHE: 'off' });
    expect(reference.status).toBe(0);
    expect(existsSync(cacheDir)).toBe(false);
  }, 60_000);

  it.skipIf(typeof process.getuid !== 'function')('a cache folder others may write to is not used: the user cache folder is', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o777);
    const xdg = join(work, 'xdg');
    expect(trace({ XDG_CACHE_HOME: xdg }).status).toBe(0);
    expect(cacheFiles(cacheDir)).toEqual([]);
    expect(cacheFiles(join(xdg, 'tracelab'))).toHaveLength(1);
  }, 60_000);
});

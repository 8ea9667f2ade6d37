/**
 * npm 11 runs a dependency's install scripts only when the project's package.json `allowScripts`
 * covers it, and otherwise ends every `npm install` with a warning that lists it (issue 41: esbuild,
 * whose install script checks its platform binary). Every package of package-lock.json that has an
 * install script is covered here, by name (any version) or pinned (`name@version`), so a new one
 * fails this test instead of a newcomer's first install; the published package.json carries no
 * `allowScripts` (scripts/pack-manifest.mjs strips it with the scripts: it is the project's policy).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));

describe('install scripts of dependencies (npm 11 allowScripts)', () => {
  it('every locked package with an install script is allowed in package.json', () => {
    const allow: Record<string, boolean> = read('package.json').allowScripts ?? {};
    const lock: { packages: Record<string, { version?: string; hasInstallScript?: boolean }> } = read('package-lock.json');
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path, entry]) => ({ name: path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length), version: entry.version }));
    expect(withScripts.map((p) => p.name)).toContain('esbuild');
    const uncovered = withScripts.filter((p) => allow[p.name] !== true && allow[`${p.name}@${p.version}`] !== true);
    expect(uncovered).toEqual([]);
  });

  it('the published manifest leaves allowScripts out, with the scripts (pack-manifest strip, then restore)', () => {
    // The script works on the package.json beside its folder: run a copy of it on a copy of ours.
    const dir = mkdtempSync(join(tmpdir(), 'tracelab-pack-manifest-'));
    try {
      mkdirSync(join(dir, 'scripts'));
      copyFileSync(join(ROOT, 'scripts', 'pack-manifest.mjs'), join(dir, 'scripts', 'pack-manifest.mjs'));
      const original = readFileSync(join(ROOT, 'package.json'), 'utf8');
      writeFileSync(join(dir, 'package.json'), original);
      execFileSync(process.execPath, [join(dir, 'scripts', 'pack-manifest.mjs'), 'strip']);
      const published = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(published.scripts).toBeUndefined();
      expect(published.allowScripts).toBeUndefined();
      expect(published.name).toBe('tracelab');
      execFileSync(process.execPath, [join(dir, 'scripts', 'pack-manifest.mjs'), 'restore']);
      expect(readFileSync(join(dir, 'package.json'), 'utf8')).toBe(original);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

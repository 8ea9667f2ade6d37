/**
 * A private build of the CLI for one test file: bin/tracelab.js + dist-cli/ (tracelab.mjs,
 * trace-thread.mjs, chunks) in a fresh folder under node_modules/.cache — other test files rebuild
 * the shared dist-cli/ in parallel, and inside node_modules the bundle's external packages resolve.
 * In: a name prefix. Out: the paths, and `remove()`.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

export interface PrivateBuild {
  readonly dir: string;
  /** bin/tracelab.js of this build. */
  readonly bin: string;
  readonly distDir: string;
  /** dist-cli/trace-thread.mjs, the worker entry of `tracelab serve`. */
  readonly traceThread: URL;
  remove(): void;
}

export function buildPrivateCli(prefix: string): PrivateBuild {
  mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
  const dir = mkdtempSync(join(root, 'node_modules', '.cache', `${prefix}-`));
  mkdirSync(join(dir, 'bin'));
  copyFileSync(join(root, 'bin', 'tracelab.js'), join(dir, 'bin', 'tracelab.js'));
  const distDir = join(dir, 'dist-cli');
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--outdir', distDir], { cwd: root, stdio: 'pipe' });
  return {
    dir,
    bin: join(dir, 'bin', 'tracelab.js'),
    distDir,
    traceThread: pathToFileURL(join(distDir, 'trace-thread.mjs')),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

#!/usr/bin/env node
// Starts the bundled CLI: dist-cli/tracelab.cjs (built from src/cli by scripts/build-cli.mjs),
// compiled with V8's code cache so a one-image run does not parse and compile the code again.
// The cache holds bytecode of this very file only (V8 rejects it for another source length, V8
// version or flags; the stamp below rejects another build): it changes how fast the CLI starts,
// never what it writes. It lives in dist-cli/.code-cache/ when that folder is the user's own,
// else in the user's cache folder ($XDG_CACHE_HOME or ~/.cache, tracelab/); TRACELAB_CODE_CACHE=off
// turns it off. A missing, stale, foreign or unwritable cache only means compiling as without it.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';

const bundle = fileURLToPath(new URL('../dist-cli/tracelab.cjs', import.meta.url));

if (!existsSync(bundle)) {
  process.stderr.write(
    'tracelab: the CLI is not built (dist-cli/tracelab.cjs is missing); run `npm install` or `npm run build:cli` in the tracelab folder\n',
  );
  process.exit(1);
}

try {
  const { main, saveCache } = loadBundle(bundle);
  process.exitCode = await main(process.argv.slice(2));
  // Written after a trace, so it holds what a trace compiles (a `--version` run compiles little).
  if (process.argv[2] === 'vectorize' && process.exitCode === 0) saveCache();
} catch (err) {
  process.stderr.write(`tracelab: error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 2;
}

/** The bundle's exports, run as CommonJS in this context, and a function that stores its code cache when it had none. */
function loadBundle(file) {
  const source = readFileSync(file, 'utf8');
  const cacheFile = codeCacheFile(file);
  const stamp = cacheStamp(file);
  const cachedData = cacheFile === undefined ? undefined : readCache(cacheFile, stamp);
  const wrapped = `(function (exports, require, module, __filename, __dirname, __tracelabModuleUrl) {${source}\n})`;
  const script = new Script(wrapped, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), pathToFileURL(file).href);
  const fresh = cachedData === undefined || script.cachedDataRejected === true;
  return {
    main: module.exports.main,
    // After the run, so the cache also holds the functions this run compiled lazily.
    saveCache: () => {
      if (fresh && cacheFile !== undefined) writeCache(cacheFile, stamp, () => script.createCachedData());
    },
  };
}

/** Which build and which Node: a cache written for another one is never used. */
function cacheStamp(file) {
  const { size, mtimeMs, ino } = statSync(file);
  return `tracelab-code-cache 1 ${process.version} ${process.arch} ${process.versions.v8} ${size} ${mtimeMs} ${ino}`;
}

/** The cache file of this bundle, or undefined (turned off, or no folder of the user's own). */
function codeCacheFile(file) {
  const setting = process.env.TRACELAB_CODE_CACHE?.trim();
  if (setting === 'off' || setting === '0') return undefined;
  const beside = join(dirname(file), '.code-cache');
  const userCache = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'tracelab');
  const name = `${createHash('sha256').update(file).digest('hex').slice(0, 16)}.bin`;
  for (const dir of [beside, userCache]) if (ownFolder(dir)) return join(dir, name);
  return undefined;
}

/** Creates `dir` if needed; true when only this user can write there (another user's cache could run its code). */
function ownFolder(dir) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    if (typeof process.getuid !== 'function') return stat.isDirectory();
    return stat.isDirectory() && stat.uid === process.getuid() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The cached bytecode when the file carries this stamp, else undefined. */
function readCache(path, stamp) {
  try {
    const bytes = readFileSync(path);
    const head = Buffer.from(`${stamp}\n`);
    return bytes.length > head.length && bytes.subarray(0, head.length).equals(head) ? bytes.subarray(head.length) : undefined;
  } catch {
    return undefined;
  }
}

/** Stamp and bytecode through a temp file and a rename: a concurrent reader sees the old file or the new one, whole. */
function writeCache(path, stamp, serialise) {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, Buffer.concat([Buffer.from(`${stamp}\n`), serialise()]), { mode: 0o600 });
    renameSync(temp, path);
  } catch {
    rmSync(temp, { force: true });
  }
}

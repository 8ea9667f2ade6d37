// Bundles the CLI (src/cli/main.ts and everything it imports) twice: into dist-cli/tracelab.cjs,
// one script that bin/tracelab.js compiles with V8's code cache (a module cannot take one in
// Node 20), and into dist-cli/tracelab.mjs with the worker-thread entries next to it
// (job-thread.mjs, trace-thread.mjs) and their shared chunks; the .mjs entry is what in-process
// callers import (scripts/samecheck.mjs). Run by `npm run build:cli` and by the `prepare` script on `npm install`.
// During `npm install` a failed build only warns, so installing dependencies never breaks on it.
import { rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundledPackages, copyWasmAssets } from './bundle-assets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
// `--outdir DIR` builds elsewhere (tests that run in parallel with other builds of dist-cli/).
const outdirArg = process.argv.indexOf('--outdir');
const outdir = outdirArg === -1 ? join(root, 'dist-cli') : resolve(process.argv[outdirArg + 1] ?? 'dist-cli');
const duringInstall = process.env.npm_lifecycle_event === 'prepare';

try {
  const { build } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true }); // no stale chunks from an earlier build
  const result = await build({
    absWorkingDir: root,
    // Entries: dist-cli/tracelab.mjs, the engine thread (job-thread.mjs) and the thread `tracelab
    // serve` runs whole traces in (trace-thread.mjs, found next to tracelab.mjs at run time), plus
    // shared chunks: the decoders are imported on demand, so a PNG trace never loads the JPEG,
    // WebP, GIF, BMP or TIFF decoders.
    entryPoints: { tracelab: 'src/cli/main.ts', 'job-thread': 'src/pool/job-thread.ts', 'trace-thread': 'src/cli/trace-thread.ts' },
    outdir,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    // Lets bundled CommonJS dependencies require() Node built-ins from an ES module.
    banner: {
      js: "import { createRequire as __tracelabCreateRequire } from 'node:module';\nconst require = __tracelabCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  copyWasmAssets(result.metafile, root, outdir);
  // The same CLI as one script. Its on-demand imports become lazily initialised parts of the file
  // (nothing of `serve` or the other decoders runs unless asked for); import.meta.url becomes a
  // parameter bin/tracelab.js passes: the file's URL, next to the worker entries and the wasm.
  await build({
    absWorkingDir: root,
    entryPoints: { tracelab: 'src/cli/main.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: { 'import.meta.url': '__tracelabModuleUrl' },
    logLevel: 'warning',
  });
  // The packages bundled here, for the licence notices the library build writes (build-lib.mjs).
  const packages = Object.fromEntries([...bundledPackages(result.metafile, root, new Map())].map(([name, dir]) => [name, relative(root, dir)]));
  writeFileSync(join(outdir, 'bundled-packages.json'), `${JSON.stringify(packages, null, 2)}\n`);
} catch (err) {
  if (!(err && Array.isArray(err.errors))) console.error(err instanceof Error ? err.message : err);
  if (duringInstall) {
    console.warn('tracelab: warning: the CLI bundle was not built (see above); run `npm run build:cli` once that is fixed.');
  } else {
    console.error('tracelab: CLI build failed');
    process.exitCode = 1;
  }
}

// Builds the library (`npm pack` / `npm publish` run it through `prepack`) into dist-lib/ (not dist/,
// which the playground's vite build empties):
//   node/     ESM for Node 20 (esbuild, platform node): index (vectorize, createTracer), engine,
//             client, handler, formats, and trace-thread.js, the worker_threads entry they start
//   browser/  ESM for bundlers (esbuild, platform browser): index, worker.js (the Web Worker),
//             engine, client, formats; decoders and non-SVG writers are separate chunks loaded by
//             dynamic import, and webp_dec.wasm sits next to the chunk that loads it
//   types/    .d.ts of the entries (tsc -p tsconfig.lib.json, emitDeclarationOnly)
// Dependencies are bundled, so the package installs with no dependencies of its own; their
// licence texts go to dist-lib/THIRD-PARTY-LICENSES.txt (from the esbuild metafiles).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundledPackages, copyWasmAssets } from './bundle-assets.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist-lib');

const common = {
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  target: 'es2022',
  metafile: true,
  // Chunks sit next to the entries: `new URL('./worker.js' | './trace-thread.js', import.meta.url)`
  // resolves from any of them.
  chunkNames: '[name]-[hash]',
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(out, { recursive: true, force: true });
const packages = new Map();

const node = await build({
  ...common,
  platform: 'node',
  target: 'node20',
  outdir: join(out, 'node'),
  entryPoints: {
    index: 'src/lib/node.ts',
    engine: 'src/lib/engine-node.ts',
    client: 'src/lib/client.ts',
    handler: 'src/lib/handler.ts',
    formats: 'src/lib/formats.ts',
    'trace-thread': 'src/cli/trace-thread.ts',
  },
  // Lets bundled CommonJS dependencies require() Node built-ins from an ES module.
  banner: { js: "import { createRequire as __tracelabCreateRequire } from 'node:module';\nconst require = __tracelabCreateRequire(import.meta.url);" },
});
copyWasmAssets(node.metafile, root, join(out, 'node'));
bundledPackages(node.metafile, root, packages);

const browser = await build({
  ...common,
  platform: 'browser',
  outdir: join(out, 'browser'),
  entryPoints: {
    index: 'src/lib/browser.ts',
    worker: 'src/worker/library.worker.ts',
    engine: 'src/lib/engine.ts',
    client: 'src/lib/client.ts',
    formats: 'src/lib/formats.ts',
  },
});
copyWasmAssets(browser.metafile, root, join(out, 'browser'));
bundledPackages(browser.metafile, root, packages);
// …and those of the CLI bundle (dist-cli/, built first by `prepare`), e.g. the Redis client.
const cliPackages = join(root, 'dist-cli', 'bundled-packages.json');
if (existsSync(cliPackages)) for (const [name, dir] of Object.entries(JSON.parse(readFileSync(cliPackages, 'utf8')))) packages.set(name, resolve(root, dir));
// No Node built-in may reach the browser build.
for (const [file, meta] of Object.entries(browser.metafile.outputs)) {
  const nodeImport = meta.imports.find((i) => i.path.startsWith('node:') || i.external);
  if (nodeImport) throw new Error(`${file} imports ${nodeImport.path}: not for browsers`);
}

// Licences of the bundled packages (each package's own LICENSE file, verbatim).
const notices = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
  let text = licenseFile ? readFileSync(join(dir, licenseFile), 'utf8').trim() : `(no licence file; package.json says ${pkg.license})`;
  // The WebP decoder's wasm is libwebp, whose own licence ships in codec/.
  const codecLicense = join(dir, 'codec', 'LICENSE.codec.md');
  if (existsSync(codecLicense)) text += `\n\n--- ${name}/codec/LICENSE.codec.md (the compiled codec) ---\n${readFileSync(codecLicense, 'utf8').trim()}`;
  return `${'='.repeat(78)}\n${name}@${pkg.version} — ${pkg.license}\n${'='.repeat(78)}\n${text}\n`;
});
writeFileSync(
  join(out, 'THIRD-PARTY-LICENSES.txt'),
  `Tracelab's bundles (dist-lib/node, dist-lib/browser, and the CLI's dist-cli) contain code of these packages, under these licences.\n\n${notices.join('\n')}`,
);

execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.lib.json'], { cwd: root, stdio: 'inherit' });
console.log(`build-lib: dist-lib (${packages.size} bundled packages: ${[...packages.keys()].join(', ')})`);

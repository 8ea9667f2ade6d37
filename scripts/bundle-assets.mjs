// Shared by the bundlers (scripts/build-cli.mjs, scripts/build-lib.mjs), from an esbuild metafile:
// - copyWasmAssets: bundled code that loads a WebAssembly file with `new URL('x.wasm',
//   import.meta.url)` resolves it next to the bundle, so every such file is copied there;
// - bundledPackages: the npm packages whose code went into the bundle (for the licence notices).
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

const WASM_URL = /new URL\(\s*["']([^"'\\]+\.wasm)["']\s*,\s*import\.meta\.url\s*\)/g;

/** Copies the .wasm files the inputs of `metafile` (paths relative to `root`) load into `dir`. */
export function copyWasmAssets(metafile, root, dir) {
  for (const input of Object.keys(metafile.inputs)) {
    const file = resolve(root, input);
    if (!existsSync(file)) continue;
    for (const [, name] of readFileSync(file, 'utf8').matchAll(WASM_URL)) {
      const asset = resolve(dirname(file), name);
      if (existsSync(asset)) copyFileSync(asset, join(dir, basename(name)));
    }
  }
}

/** Adds to `into` (name → package folder) every node_modules package whose code `metafile` bundled. */
export function bundledPackages(metafile, root, into) {
  for (const input of Object.keys(metafile.inputs)) {
    const m = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(input);
    if (m) into.set(m[2], resolve(root, m[1]));
  }
  return into;
}

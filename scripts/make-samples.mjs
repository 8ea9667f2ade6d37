#!/usr/bin/env node
/**
 * Draws the playground's sample gallery into public/samples/ (see e2e/samples.ts for the
 * pictures and public/samples/SOURCES.md for their provenance). Deterministic: the same code
 * writes the same bytes. `--check` only compares and exits 1 when a file differs.
 */

import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadTs } from './ts-module.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

// e2e/samples.ts is TypeScript: bundled next to node_modules so its imports resolve.
const { SAMPLE_IMAGES } = await loadTs(root, 'tracelab-samples', 'e2e/samples.ts');

const dir = join(root, 'public', 'samples');
await mkdir(dir, { recursive: true });
let differs = 0;
for (const { file, png } of SAMPLE_IMAGES) {
  const bytes = png();
  const path = join(dir, file);
  const old = await readFile(path).catch(() => null);
  const same = old !== null && Buffer.compare(old, Buffer.from(bytes)) === 0;
  if (check) {
    if (!same) differs++;
    console.log(`${same ? 'same' : 'DIFFERS'} ${path}`);
  } else {
    await writeFile(path, bytes);
    console.log(`wrote ${path} (${bytes.length} bytes)${same ? ', unchanged' : ''}`);
  }
}
process.exitCode = differs > 0 ? 1 : 0;

// Writes src/api/options.generated.ts (the library's option types with doc comments) from the
// options schema; `--check` only compares and exits 1 when the file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { loadTs } from './ts-module.mjs';

const root = new URL('..', import.meta.url).pathname;
const { libOptionTypesSource } = await loadTs(root, 'tracelab-scripts', 'src/lib/options-source.ts');
const target = new URL('../src/api/options.generated.ts', import.meta.url);
const text = libOptionTypesSource();
if (process.argv.includes('--check')) {
  const current = readFileSync(target, 'utf8');
  if (current !== text) {
    console.error('src/api/options.generated.ts is stale; run `node scripts/lib-options.mjs`');
    process.exit(1);
  }
} else {
  writeFileSync(target, text);
  console.log('src/api/options.generated.ts written');
}

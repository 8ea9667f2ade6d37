// Copies each example file into the block after its `<!-- example: PATH -->` marker, in README.md
// and every docs/*.md page, so the documentation quotes exactly the code scripts/test-package.mjs
// runs. `--check` only compares (exit 1 when a block differs); tests/api/readme.test.ts does the
// same check.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const pages = ['README.md', ...readdirSync(new URL('docs/', root)).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const MARKER = /(<!-- example: (\S+) -->\n```(\w+)\n)([\s\S]*?)(```)/g;
const check = process.argv.includes('--check');
let stale = 0;
for (const page of pages) {
  const path = new URL(page, root);
  const text = readFileSync(path, 'utf8');
  const updated = text.replace(MARKER, (_all, open, file, _lang, _body, close) => open + readFileSync(new URL(file, root), 'utf8') + close);
  if (updated === text) continue;
  if (check) {
    console.error(`${page}: example blocks differ from examples/; run \`node scripts/readme-examples.mjs\``);
    stale++;
  } else {
    writeFileSync(path, updated);
    console.log(`${page}: example blocks updated`);
  }
}
if (stale > 0) process.exit(1);

// Copies each example file into README.md's block after its `<!-- example: PATH -->` marker, so
// the README quotes exactly the code scripts/test-package.mjs runs. `--check` only compares
// (exit 1 when a block differs); tests/api/readme.test.ts does the same check.
import { readFileSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const readmePath = new URL('README.md', root);
const readme = readFileSync(readmePath, 'utf8');
const MARKER = /(<!-- example: (\S+) -->\n```(\w+)\n)([\s\S]*?)(```)/g;
const updated = readme.replace(MARKER, (_all, open, path, _lang, _body, close) => open + readFileSync(new URL(path, root), 'utf8') + close);
if (process.argv.includes('--check')) {
  if (updated !== readme) {
    console.error('README.md example blocks differ from examples/; run `node scripts/readme-examples.mjs`');
    process.exit(1);
  }
} else {
  writeFileSync(readmePath, updated);
  console.log('README.md example blocks updated');
}

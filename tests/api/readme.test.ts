/**
 * The generated and quoted parts of the documentation (README.md and docs/*.md): the parameter
 * table equals what the options schema generates, and every `<!-- example: PATH -->` block quotes
 * its file under examples/ exactly — the files scripts/test-package.mjs runs from the packed
 * tarball, so every quoted example is code that runs. The shell commands of README.md and
 * docs/service.md are run by tests/docs/examples.test.ts; links are checked by tests/docs/links.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS_TABLE_BEGIN, OPTIONS_TABLE_END, OPTIONS_TABLE_FILE, optionsTableMarkdown } from '../../src/api/options-table.js';

const root = join(import.meta.dirname, '..', '..');
const pages = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const read = (page: string): string => readFileSync(join(root, page), 'utf8');

/** The example files scripts/test-package.mjs runs against the packed tarball. */
const RUN_BY_TEST_PACKAGE = ['examples/node/vectorize.mjs', 'examples/node/typed.ts', 'examples/node/server.mjs', 'examples/vite/vite.config.js', 'examples/vite/main.js'];

describe('docs/parameters.md', () => {
  it('lists every API parameter exactly as the options schema defines it', () => {
    expect(OPTIONS_TABLE_FILE).toBe('docs/parameters.md');
    const page = read(OPTIONS_TABLE_FILE);
    const start = page.indexOf(OPTIONS_TABLE_BEGIN);
    const end = page.indexOf(OPTIONS_TABLE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    // To refresh: node scripts/readme-options.mjs
    expect(page.slice(start, end + OPTIONS_TABLE_END.length)).toBe(optionsTableMarkdown());
    // One table, in one place: no other page carries a stale copy.
    for (const other of pages.filter((p) => p !== OPTIONS_TABLE_FILE)) expect(read(other), other).not.toContain(OPTIONS_TABLE_BEGIN);
  });
});

describe('README and docs example blocks', () => {
  const blocksOf = (page: string) => [...read(page).matchAll(/<!-- example: (\S+) -->\n```\w+\n([\s\S]*?)```/g)].map((m) => ({ path: m[1]!, body: m[2]! }));

  it('quote exactly the files under examples/ that scripts/test-package.mjs runs', () => {
    const quoted = Object.fromEntries(pages.map((page) => [page, blocksOf(page).map((b) => b.path)]).filter(([, paths]) => paths.length > 0));
    expect(quoted).toEqual({
      // The README's one library example.
      'README.md': ['examples/node/vectorize.mjs'],
      'docs/library.md': ['examples/node/vectorize.mjs', 'examples/node/typed.ts', 'examples/vite/vite.config.js', 'examples/vite/main.js', 'examples/node/server.mjs'],
    });
    for (const page of pages) {
      for (const { path, body } of blocksOf(page)) {
        expect(RUN_BY_TEST_PACKAGE, `${page} quotes ${path}`).toContain(path);
        // To refresh: node scripts/readme-examples.mjs
        expect(body, `${page}: ${path}`).toBe(readFileSync(join(root, path), 'utf8'));
      }
    }
  });

  it('scripts/test-package.mjs runs each of those files', () => {
    const script = readFileSync(join(root, 'scripts', 'test-package.mjs'), 'utf8');
    for (const path of RUN_BY_TEST_PACKAGE) {
      // Node examples run by name; the Vite app (its config and main.js) is copied whole and built.
      if (path.startsWith('examples/node/')) expect(script, path).toContain(`'${path.split('/').pop()!}'`);
      else expect(script, path).toContain("cpSync(join(root, 'examples', 'vite'), app");
    }
  });
});

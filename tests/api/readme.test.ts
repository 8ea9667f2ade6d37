import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OPTIONS_TABLE_BEGIN, OPTIONS_TABLE_END, optionsTableMarkdown } from '../../src/api/options-table.js';

describe('README', () => {
  it('lists every API parameter exactly as the options schema defines it', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'README.md'), 'utf8');
    const start = readme.indexOf(OPTIONS_TABLE_BEGIN);
    const end = readme.indexOf(OPTIONS_TABLE_END);
    expect(start).toBeGreaterThanOrEqual(0);
    // To refresh: node scripts/readme-options.mjs
    expect(readme.slice(start, end + OPTIONS_TABLE_END.length)).toBe(optionsTableMarkdown());
  });
});

describe('README library examples', () => {
  it('quote exactly the files under examples/ that scripts/test-package.mjs runs', () => {
    const root = join(import.meta.dirname, '..', '..');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const blocks = [...readme.matchAll(/<!-- example: (\S+) -->\n```\w+\n([\s\S]*?)```/g)];
    expect(blocks.map((m) => m[1])).toEqual(['examples/node/vectorize.mjs', 'examples/node/typed.ts', 'examples/vite/vite.config.js', 'examples/vite/main.js', 'examples/node/server.mjs']);
    // To refresh: node scripts/readme-examples.mjs
    for (const [, path, body] of blocks) expect(body, path).toBe(readFileSync(join(root, path!), 'utf8'));
  });
});

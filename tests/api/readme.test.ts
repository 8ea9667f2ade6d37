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

// Rewrites the parameter table of docs/parameters.md from the options schema (src/api/options.ts).
// tests/api/readme.test.ts fails when the table there is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const out = await build({ entryPoints: [new URL('src/api/options-table.ts', root).pathname], bundle: true, write: false, format: 'esm', platform: 'node' });
const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
const pagePath = new URL(mod.OPTIONS_TABLE_FILE, root);
const page = readFileSync(pagePath, 'utf8');
const start = page.indexOf(mod.OPTIONS_TABLE_BEGIN);
const end = page.indexOf(mod.OPTIONS_TABLE_END);
if (start < 0 || end < 0) throw new Error(`${mod.OPTIONS_TABLE_FILE} has no options-table markers`);
writeFileSync(pagePath, page.slice(0, start) + mod.optionsTableMarkdown() + page.slice(end + mod.OPTIONS_TABLE_END.length));
console.log(`${mod.OPTIONS_TABLE_FILE} parameter table updated`);

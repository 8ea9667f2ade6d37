// Rewrites README.md's parameter table from the options schema (src/api/options.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const out = await build({ entryPoints: [new URL('src/api/options-table.ts', root).pathname], bundle: true, write: false, format: 'esm', platform: 'node' });
const mod = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
const readmePath = new URL('README.md', root);
const readme = readFileSync(readmePath, 'utf8');
const start = readme.indexOf(mod.OPTIONS_TABLE_BEGIN);
const end = readme.indexOf(mod.OPTIONS_TABLE_END);
if (start < 0 || end < 0) throw new Error('README.md has no options-table markers');
writeFileSync(readmePath, readme.slice(0, start) + mod.optionsTableMarkdown() + readme.slice(end + mod.OPTIONS_TABLE_END.length));
console.log('README.md parameter table updated');

/**
 * The parameter table of docs/parameters.md, generated from OPTION_SCHEMA (so the documentation
 * cannot drift from validation; tests/api/readme.test.ts checks the page holds exactly this text,
 * scripts/readme-options.mjs rewrites it).
 */
import { OPTION_GROUPS, OPTION_SCHEMA, describeAllowed, labelWithUnit } from './options.js';

/** The page (from the repository root) that holds the table between the markers below. */
export const OPTIONS_TABLE_FILE = 'docs/parameters.md';

export const OPTIONS_TABLE_BEGIN = '<!-- options-table:begin (generated from src/api/options.ts) -->';
export const OPTIONS_TABLE_END = '<!-- options-table:end -->';

export function optionsTableMarkdown(): string {
  const rows = ['| parameter | meaning | endpoints | allowed | default |', '| --- | --- | --- | --- | --- |'];
  for (const group of OPTION_GROUPS) {
    for (const spec of OPTION_SCHEMA.filter((s) => s.group === group.id)) {
      const def = spec.default === undefined ? 'none' : spec.default === '' ? 'empty' : String(spec.default);
      rows.push(`| \`${spec.name}\` | ${labelWithUnit(spec).replace(/\|/g, '\\|')} | ${spec.endpoints.join(', ')} | ${describeAllowed(spec).replace(/\|/g, '\\|')} | ${def.replace(/\|/g, '\\|')} |`);
    }
  }
  return `${OPTIONS_TABLE_BEGIN}\n${rows.join('\n')}\n${OPTIONS_TABLE_END}`;
}

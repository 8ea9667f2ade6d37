/**
 * The parameter table of README.md, generated from OPTION_SCHEMA (so the documentation cannot
 * drift from validation; tests/api/readme.test.ts checks README holds exactly this text).
 */
import { OPTION_GROUPS, OPTION_SCHEMA, describeAllowed, labelWithUnit } from './options.js';

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

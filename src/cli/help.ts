/** Help text; the `--param` list is generated from OPTION_SCHEMA so it never drifts from validation. */

import { OPTION_GROUPS, OPTION_SCHEMA, describeAllowed, type OptionSpec } from '../api/options.js';
import { VERBS } from './args.js';

export const USAGE =
  'tracelab vectorize INPUT -o OUTPUT [--format svg|eps|pdf|dxf|png] [--max-pixels N] [--param name=value]...';

export function helpText(version: string): string {
  const lines = [
    `tracelab ${version}: trace a bitmap into vector shapes, locally, with Vectorizer.AI API parameters.`,
    '',
    'Usage:',
    `  ${USAGE}`,
    '  tracelab --help | --version',
    '',
    `Verbs: ${VERBS.join(', ')}. (The official CLI's download, delete and account verbs need the`,
    '  local service and are not available in this version.)',
    '',
    'Options:',
    '  INPUT                  image file to trace (PNG, JPEG, ...); - reads standard input',
    '  -o, --output OUTPUT    result file, written atomically; - writes to standard output',
    '  --format FORMAT        same as --param output.file_format=FORMAT (only svg is implemented so far)',
    '  --max-pixels N         same as --param input.max_pixels=N',
    '  --param NAME=VALUE     any parameter listed below; repeatable, each NAME at most once',
    '  -h, --help             show this help',
    '  --version              print the version',
    '',
    'Notes:',
    '  mode is accepted for compatibility but ignored: the local tracer has no billing, preview or',
    '  watermark. policy.retention_days is accepted and ignored (nothing is retained locally).',
    '  Values are checked exactly as the API checks them: booleans are true/false, numbers are',
    '  decimal, names are case-sensitive.',
    '',
    'Exit status: 0 success; 1 usage error; 2 error, reported as',
    '  "tracelab: error CODE: message" with the API error code (e.g. 1006 unreadable image,',
    '  1019 bad parameter).',
    '',
    'Parameters (--param NAME=VALUE):',
  ];
  for (const group of OPTION_GROUPS) {
    const specs = OPTION_SCHEMA.filter((s) => s.group === group.id && s.endpoints.includes('vectorize'));
    if (specs.length === 0) continue;
    lines.push('', `  ${group.title}`);
    for (const spec of specs) {
      lines.push(`    ${spec.name}  ${describeAllowed(spec)}; default ${describeDefault(spec)}`);
      lines.push(`        ${spec.hint}`);
    }
  }
  return lines.join('\n') + '\n';
}

function describeDefault(spec: OptionSpec): string {
  if (spec.default === undefined) return 'none';
  if (spec.default === '') return 'empty';
  return String(spec.default);
}

import { describe, expect, it } from 'vitest';
import { parseArgs, UsageError } from '../../src/cli/args.js';
import { helpText } from '../../src/cli/help.js';
import { OPTION_SCHEMA } from '../../src/api/options.js';

const usage = (argv: string[]): string => {
  try {
    parseArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
};

describe('parseArgs', () => {
  it('vectorize with every flag form', () => {
    expect(
      parseArgs([
        'vectorize', 'in.png', '-o', 'out.svg', '--format', 'svg', '--max-pixels=5000',
        '--param', 'processing.max_colors=8', '--param=processing.palette=#FF0000 -> #00FF00 ~ 0.5;',
      ]),
    ).toEqual({
      kind: 'vectorize',
      input: 'in.png',
      output: 'out.svg',
      fields: [
        ['output.file_format', 'svg'],
        ['input.max_pixels', '5000'],
        ['processing.max_colors', '8'],
        ['processing.palette', '#FF0000 -> #00FF00 ~ 0.5;'],
      ],
    });
  });

  it('- for stdin and stdout; --output long form; option order is free', () => {
    expect(parseArgs(['vectorize', '--output', '-', '-'])).toMatchObject({ input: '-', output: '-' });
    expect(parseArgs(['vectorize', '-o', 'x.svg', '--', '-weird-name.png'])).toMatchObject({ input: '-weird-name.png' });
  });

  it('help and version', () => {
    expect(parseArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['-h'])).toEqual({ kind: 'help' });
    expect(parseArgs(['vectorize', '--help'])).toEqual({ kind: 'help' });
    expect(parseArgs(['--version'])).toEqual({ kind: 'version' });
  });

  it('usage errors', () => {
    expect(usage([])).toContain('available verbs: vectorize');
    expect(usage(['frobnicate', 'tok'])).toContain("unknown verb 'frobnicate'; available verbs: vectorize, download, delete, account, serve");
    expect(usage(['vectorize'])).toContain('INPUT');
    expect(usage(['vectorize', 'in.png'])).toContain('-o OUTPUT');
    expect(usage(['vectorize', 'a.png', 'b.png', '-o', 'x'])).toContain("unexpected 'b.png'");
    expect(usage(['vectorize', 'in.png', '-o', 'x', '--colors', '8'])).toContain('unknown option --colors');
    expect(usage(['vectorize', 'in.png', '-o'])).toContain('-o needs a value');
    expect(usage(['vectorize', 'in.png', '-o', 'a', '-o', 'b'])).toContain('more than once');
    expect(usage(['vectorize', 'in.png', '-o', 'a', '--param', 'max_colors'])).toContain('name=value');
    expect(usage(['--bogus'])).toContain('expected a verb');
  });
});

describe('helpText', () => {
  const text = helpText('9.9.9');
  it('lists every vectorize parameter with its default and range', () => {
    for (const spec of OPTION_SCHEMA) {
      if (spec.endpoints.includes('vectorize')) expect(text).toContain(`    ${spec.name}  `);
    }
    expect(text).not.toContain('    receipt  ');
    expect(text).toContain('processing.max_colors  integer 0…256; default 0');
    expect(text).toContain('output.file_format  svg | eps | pdf | dxf | png; default svg');
    expect(text).toContain('output.size.width  number 0…1e12; default none');
    // Each parameter's plain words and unit from the schema (issue 29 item 8), before its hint.
    expect(text).toContain('processing.shapes.min_area_px  number 0…100; default 0.125\n        Minimum area · px² — Shapes smaller than this area');
    for (const spec of OPTION_SCHEMA) {
      if (spec.endpoints.includes('vectorize')) expect(text).toContain(`\n        ${spec.unit ? `${spec.label} · ${spec.unit}` : spec.label} — ${spec.hint}\n`);
    }
    expect(text).toContain('9.9.9');
    expect(text).toMatch(/mode is accepted .* ignored/);
  });
});

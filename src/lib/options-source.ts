/**
 * Generates src/api/options.generated.ts — the library's option types — from the one options
 * schema (src/api/options.ts), so every option's name, value type, range and default in the
 * editor's tooltips is the schema's and cannot drift from validation.
 * In: OPTION_SCHEMA. Out: TypeScript source text (scripts/lib-options.mjs writes it;
 * tests/lib/options.test.ts checks the committed file equals it).
 */
import { describeAllowed, labelWithUnit, OPTION_SCHEMA, type OptionSpec } from '../api/options.js';

/** Options the library takes: every `/vectorize` parameter of the API. */
export const LIBRARY_OPTIONS: readonly OptionSpec[] = OPTION_SCHEMA.filter((s) => (s.endpoints as readonly string[]).includes('vectorize'));

function valueType(spec: OptionSpec): string {
  switch (spec.kind) {
    case 'enum':
      return spec.values.map((v) => `'${v}'`).join(' | ');
    case 'int':
    case 'float':
      return 'number';
    case 'bool':
      return 'boolean';
    default:
      return 'string';
  }
}

function docComment(spec: OptionSpec, indent: string): string {
  const def = spec.default === undefined ? 'none (absent unless given)' : spec.default === '' ? 'empty' : `\`${String(spec.default)}\``;
  const lines = [
    `${labelWithUnit(spec)} — ${spec.hint}`.replace(/\*\//g, '*\\/'),
    '',
    `Allowed: ${describeAllowed(spec)}.`,
    `@defaultValue ${def}`,
  ];
  return `${indent}/**\n${lines.map((l) => `${indent} *${l ? ` ${l}` : ''}`).join('\n')}\n${indent} */`;
}

interface Node {
  spec?: OptionSpec;
  children: Map<string, Node>;
}

function nestedTree(): Node {
  const root: Node = { children: new Map() };
  for (const spec of LIBRARY_OPTIONS) {
    let node = root;
    for (const part of spec.name.split('.')) {
      let next = node.children.get(part);
      if (!next) node.children.set(part, (next = { children: new Map() }));
      node = next;
    }
    node.spec = spec;
  }
  return root;
}

function nestedBody(node: Node, indent: string): string {
  const out: string[] = [];
  for (const [key, child] of node.children) {
    const prop = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`;
    if (child.spec && child.children.size === 0) {
      out.push(docComment(child.spec, indent), `${indent}readonly ${prop}?: ${valueType(child.spec)};`);
    } else {
      out.push(`${indent}readonly ${prop}?: {`, nestedBody(child, `${indent}  `), `${indent}};`);
    }
  }
  return out.join('\n');
}

export function libOptionTypesSource(): string {
  const dotted = LIBRARY_OPTIONS.map((s) => `${docComment(s, '  ')}\n  readonly '${s.name}'?: ${valueType(s)};`).join('\n');
  return `// GENERATED from src/api/options.ts by scripts/lib-options.mjs (src/lib/options-source.ts); do not edit.
// Checked by tests/lib/options.test.ts.

/** The API's /vectorize parameters under their literal (dotted) names, e.g. \`'output.file_format': 'pdf'\`. */
export interface DottedOptions {
${dotted}
}

/** The same parameters as nested objects, e.g. \`{ output: { file_format: 'pdf' } }\`. */
export interface NestedOptions {
${nestedBody(nestedTree(), '  ')}
}

/** Every parameter name the library accepts. */
export type LibraryOptionName = keyof DottedOptions;
`;
}

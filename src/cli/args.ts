/**
 * Command-line parsing, shaped after the official Vectorizer.AI CLI (reference §6.4):
 *
 *     tracelab vectorize INPUT -o OUT [--format F] [--max-pixels N] [--param key=value]...
 *
 * Only the `vectorize` verb exists in this version. Flags that are shorthands for API parameters
 * become multipart-style fields, so the API's own validation (parseOptions) applies to them.
 */

export const VERBS = ['vectorize'] as const;
export type Verb = (typeof VERBS)[number];

/** Wrong command line: reported as `tracelab: usage: …`, exit status 1. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'vectorize';
      /** File path, or `-` for standard input. */
      readonly input: string;
      /** File path, or `-` for standard output. */
      readonly output: string;
      /** API fields in command-line order (`--format`, `--max-pixels` and `--param` merged). */
      readonly fields: readonly [string, string][];
    };

/** Flags that take a value, and the API field they stand for (undefined = not an API field). */
const VALUE_FLAGS: Readonly<Record<string, string | undefined>> = {
  '-o': undefined,
  '--output': undefined,
  '--format': 'output.file_format',
  '--max-pixels': 'input.max_pixels',
  '--param': undefined,
};

export function parseArgs(argv: readonly string[]): Command {
  const endOfOptions = argv.indexOf('--');
  const optionPart = endOfOptions === -1 ? argv : argv.slice(0, endOfOptions);
  if (optionPart.includes('-h') || optionPart.includes('--help')) return { kind: 'help' };
  if (optionPart.includes('--version')) return { kind: 'version' };

  const [verb, ...rest] = argv;
  if (verb === undefined) throw new UsageError(`missing verb; available verbs: ${VERBS.join(', ')}`);
  if (verb.startsWith('-') && verb !== '-') {
    throw new UsageError(`expected a verb before ${verb}; available verbs: ${VERBS.join(', ')}`);
  }
  if (!(VERBS as readonly string[]).includes(verb)) {
    throw new UsageError(`unknown verb '${verb}'; available verbs: ${VERBS.join(', ')}`);
  }
  return parseVectorize(rest);
}

function parseVectorize(args: readonly string[]): Command {
  const positionals: string[] = [];
  const fields: [string, string][] = [];
  let output: string | undefined;
  let onlyPositionals = false;

  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (onlyPositionals || arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositionals = true;
      continue;
    }

    // --flag=value or --flag value
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    if (!(flag in VALUE_FLAGS)) throw new UsageError(`unknown option ${flag}`);
    let value: string;
    if (eq !== -1) {
      value = arg.slice(eq + 1);
    } else {
      const next = args[i + 1];
      if (next === undefined) throw new UsageError(`${flag} needs a value`);
      value = next;
      i++;
    }

    switch (flag) {
      case '-o':
      case '--output':
        if (output !== undefined) throw new UsageError('-o/--output given more than once');
        if (value === '') throw new UsageError('-o/--output needs a file name (or - for standard output)');
        output = value;
        break;
      case '--param': {
        const sep = value.indexOf('=');
        if (sep <= 0) throw new UsageError(`--param expects name=value; received '${value}'`);
        fields.push([value.slice(0, sep), value.slice(sep + 1)]);
        break;
      }
      default:
        fields.push([VALUE_FLAGS[flag]!, value]);
    }
  }

  if (positionals.length === 0) throw new UsageError('vectorize needs an INPUT file (or - for standard input)');
  if (positionals.length > 1) throw new UsageError(`vectorize takes one INPUT; unexpected '${positionals[1]}'`);
  if (output === undefined) throw new UsageError('vectorize needs -o OUTPUT (or -o - for standard output)');
  return { kind: 'vectorize', input: positionals[0]!, output, fields };
}

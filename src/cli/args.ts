/**
 * Command-line parsing, shaped after the official Vectorizer.AI CLI (reference §6.4):
 *
 *     tracelab vectorize INPUT -o OUT [--format F] [--max-pixels N] [--param key=value]...
 *              [--mode M] [--retention-days N] [--url U | --base64 FILE | --token T] [--remote]
 *     tracelab vectorize FILE... | DIR --out-dir OUT [--format F] [--param key=value]... [--jobs N] [--quiet] [--remote [--mode M]]
 *     tracelab download TOKEN -o OUT [--format F] [--receipt R] [--param key=value]... [--remote]
 *     tracelab delete TOKEN [--remote]
 *     tracelab account [--remote]
 *     tracelab serve [--port N] [--host H] [--store redis://HOST:PORT/DB | disk] [--allow-default-secret]
 *
 * Flags that are shorthands for API parameters become multipart-style fields, so the API's own
 * validation (parseOptions) applies to them.
 */

export const VERBS = ['vectorize', 'download', 'delete', 'account', 'serve'] as const;
export type Verb = (typeof VERBS)[number];

/** Wrong command line: reported as `tracelab: usage: …`, exit status 1. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Where the image of `vectorize` comes from (absent: the INPUT file). */
export type ImageSource = 'url' | 'base64' | 'token';

export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'vectorize';
      /** File path or `-` (standard input); with `source`: the URL, the base64 FILE or the token. */
      readonly input: string;
      /** File path, or `-` for standard output. */
      readonly output: string;
      /** API fields in command-line order (`--format`, `--max-pixels`, `--mode`, `--retention-days`, `--param`). */
      readonly fields: readonly [string, string][];
      /** Set for --url / --base64 / --token. */
      readonly source?: ImageSource;
      /** A service-only flag was used (--mode, --retention-days, --url, --base64, --token). */
      readonly service?: true;
      /** --remote */
      readonly remote?: true;
    }
  | {
      readonly kind: 'download';
      readonly token: string;
      readonly output: string;
      readonly fields: readonly [string, string][];
      readonly remote?: true;
    }
  | {
      /** Many inputs into a folder (batch.ts). */
      readonly kind: 'batch';
      /** Files and folders (a folder stands for the image files in it). */
      readonly inputs: readonly string[];
      readonly outDir: string;
      readonly fields: readonly [string, string][];
      /** --jobs: worker threads (default every core); with --remote, requests in flight (default 5). */
      readonly jobs?: number;
      readonly quiet?: true;
      /** --remote (only the flag; VECTORIZER_API_URL alone never): each input is a `/vectorize` call to that service (a fleet's haproxy, the real service). */
      readonly remote?: true;
    }
  | { readonly kind: 'delete'; readonly token: string; readonly remote?: true }
  | { readonly kind: 'account'; readonly remote?: true }
  | {
      readonly kind: 'serve';
      readonly host: string;
      readonly port: number;
      /** --store: `redis://HOST:PORT/DB` (a fleet's shared store) or `disk` (the data directory); absent → TRACELAB_REDIS_URL, else disk. */
      readonly store?: string;
      /** --allow-default-secret: listen on a non-loopback address although TRACELAB_API_SECRET is the default. */
      readonly allowDefaultSecret?: true;
    };

/** Flags that take a value, and the API field they stand for (undefined = not an API field). */
const VALUE_FLAGS: Readonly<Record<string, string | undefined>> = {
  '-o': undefined,
  '--output': undefined,
  '--format': 'output.file_format',
  '--max-pixels': 'input.max_pixels',
  '--param': undefined,
  '--mode': 'mode',
  '--retention-days': 'policy.retention_days',
  '--url': undefined,
  '--base64': undefined,
  '--token': undefined,
  '--receipt': 'receipt',
  '--port': undefined,
  '--host': undefined,
  '--out-dir': undefined,
  '--jobs': undefined,
  '--store': undefined,
};
const BOOLEAN_FLAGS = new Set(['--remote', '--quiet', '--allow-default-secret']);

/** Flags each verb accepts. */
const VERB_FLAGS: Readonly<Record<Verb, readonly string[]>> = {
  vectorize: ['-o', '--output', '--format', '--max-pixels', '--param', '--mode', '--retention-days', '--url', '--base64', '--token', '--remote', '--out-dir', '--jobs', '--quiet'],
  download: ['-o', '--output', '--format', '--receipt', '--param', '--remote'],
  delete: ['--remote'],
  account: ['--remote'],
  serve: ['--port', '--host', '--store', '--allow-default-secret'],
};
const SERVICE_FLAGS = new Set(['--mode', '--retention-days', '--url', '--base64', '--token']);

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
  const v = verb as Verb;
  const parsed = scan(v, rest);
  switch (v) {
    case 'vectorize':
      return finishVectorize(parsed);
    case 'download':
      return finishDownload(parsed);
    case 'delete': {
      const token = onePositional(parsed, 'delete', 'TOKEN');
      return withRemote({ kind: 'delete', token }, parsed);
    }
    case 'account':
      if (parsed.positionals.length > 0) throw new UsageError(`account takes no arguments; unexpected '${parsed.positionals[0]}'`);
      return withRemote({ kind: 'account' }, parsed);
    case 'serve':
      return finishServe(parsed);
  }
}

interface Scanned {
  readonly positionals: string[];
  readonly fields: [string, string][];
  /** Non-field flags by name (last value). */
  readonly values: Map<string, string>;
  readonly seen: Set<string>;
}

function scan(verb: Verb, args: readonly string[]): Scanned {
  const positionals: string[] = [];
  const fields: [string, string][] = [];
  const values = new Map<string, string>();
  const seen = new Set<string>();
  const allowed = VERB_FLAGS[verb];
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
    if (!(flag in VALUE_FLAGS) && !BOOLEAN_FLAGS.has(flag)) throw new UsageError(`unknown option ${flag}`);
    if (!allowed.includes(flag)) throw new UsageError(`${verb} does not take ${flag}`);
    seen.add(flag);
    if (BOOLEAN_FLAGS.has(flag)) {
      if (eq !== -1) throw new UsageError(`${flag} takes no value`);
      continue;
    }
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
        if (values.has('-o')) throw new UsageError('-o/--output given more than once');
        if (value === '') throw new UsageError('-o/--output needs a file name (or - for standard output)');
        values.set('-o', value);
        break;
      case '--param': {
        const sep = value.indexOf('=');
        if (sep <= 0) throw new UsageError(`--param expects name=value; received '${value}'`);
        fields.push([value.slice(0, sep), value.slice(sep + 1)]);
        break;
      }
      case '--url':
      case '--base64':
      case '--token':
      case '--port':
      case '--host':
      case '--out-dir':
      case '--jobs':
      case '--store':
        if (values.has(flag)) throw new UsageError(`${flag} given more than once`);
        values.set(flag, value);
        break;
      default:
        fields.push([VALUE_FLAGS[flag]!, value]);
    }
  }
  return { positionals, fields, values, seen };
}

function withRemote<T extends Command>(command: T, parsed: Scanned): T {
  return parsed.seen.has('--remote') ? { ...command, remote: true } : command;
}

function onePositional(parsed: Scanned, verb: string, what: string): string {
  if (parsed.positionals.length === 0) throw new UsageError(`${verb} needs ${what}`);
  if (parsed.positionals.length > 1) throw new UsageError(`${verb} takes one ${what}; unexpected '${parsed.positionals[1]}'`);
  const value = parsed.positionals[0]!;
  if (value === '') throw new UsageError(`${verb} needs a non-empty ${what}`);
  return value;
}

function finishVectorize(parsed: Scanned): Command {
  if (parsed.values.has('--out-dir')) return finishBatch(parsed);
  for (const flag of ['--jobs', '--quiet']) if (parsed.seen.has(flag)) throw new UsageError(`${flag} goes with --out-dir (tracing many inputs into a folder)`);
  const sources = (['--url', '--base64', '--token'] as const).filter((f) => parsed.values.has(f));
  if (sources.length > 1) throw new UsageError(`give one image source; received ${sources.join(' and ')}`);
  let input: string;
  let source: ImageSource | undefined;
  if (sources.length === 1) {
    const flag = sources[0]!;
    if (parsed.positionals.length > 0) throw new UsageError(`vectorize takes either INPUT or ${flag}; unexpected '${parsed.positionals[0]}'`);
    input = parsed.values.get(flag)!;
    if (input === '') throw new UsageError(`${flag} needs a non-empty value`);
    source = flag.slice(2) as ImageSource;
  } else {
    if (parsed.positionals.length === 0) throw new UsageError('vectorize needs an INPUT file (or - for standard input)');
    if (parsed.positionals.length > 1) throw new UsageError(`vectorize takes one INPUT; unexpected '${parsed.positionals[1]}'`);
    input = parsed.positionals[0]!;
  }
  const output = parsed.values.get('-o');
  if (output === undefined) throw new UsageError('vectorize needs -o OUTPUT (or -o - for standard output)');
  let command: Command & { kind: 'vectorize' } = { kind: 'vectorize', input, output, fields: formatFromName(parsed.fields, output) };
  if (source !== undefined) command = { ...command, source };
  if ([...parsed.seen].some((f) => SERVICE_FLAGS.has(f))) command = { ...command, service: true };
  return withRemote(command, parsed);
}

function finishBatch(parsed: Scanned): Command {
  const outDir = parsed.values.get('--out-dir')!;
  if (outDir === '') throw new UsageError('--out-dir needs a folder name');
  if (parsed.values.has('-o')) throw new UsageError('give either -o OUTPUT (one input) or --out-dir FOLDER (many), not both');
  const remote = parsed.seen.has('--remote');
  // With --remote every input is one /vectorize call, so --mode is meaningful; tokens and other sources are not.
  const service = [...parsed.seen].filter((f) => SERVICE_FLAGS.has(f) && !(remote && f === '--mode'));
  if (service.length > 0) throw new UsageError(`${service[0]} does not go with --out-dir: ${remote ? 'each input is one upload' : 'a folder is traced locally with the engine (--remote sends each file to a service)'}`);
  if (parsed.positionals.length === 0) throw new UsageError('vectorize --out-dir needs at least one input file or folder');
  if (parsed.positionals.includes('-')) throw new UsageError('vectorize --out-dir reads files, not standard input (-)');
  let command: Command & { kind: 'batch' } = { kind: 'batch', inputs: parsed.positionals, outDir, fields: parsed.fields };
  const jobsText = parsed.values.get('--jobs');
  if (jobsText !== undefined) {
    if (!/^\d{1,3}$/.test(jobsText) || Number(jobsText) < 1) throw new UsageError(`--jobs expects a whole number of worker threads ≥ 1; received '${jobsText}'`);
    command = { ...command, jobs: Number(jobsText) };
  }
  if (parsed.seen.has('--quiet')) command = { ...command, quiet: true };
  if (remote) command = { ...command, remote: true };
  return command;
}

function finishDownload(parsed: Scanned): Command {
  const token = onePositional(parsed, 'download', 'TOKEN');
  const output = parsed.values.get('-o');
  if (output === undefined) throw new UsageError('download needs -o OUTPUT (or -o - for standard output)');
  return withRemote({ kind: 'download', token, output, fields: formatFromName(parsed.fields, output) }, parsed);
}

function finishServe(parsed: Scanned): Command {
  if (parsed.positionals.length > 0) throw new UsageError(`serve takes no arguments; unexpected '${parsed.positionals[0]}'`);
  const portText = parsed.values.get('--port') ?? '8787';
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) {
    throw new UsageError(`--port expects a port number 0…65535 (0 picks a free one); received '${portText}'`);
  }
  const host = parsed.values.get('--host') ?? '127.0.0.1';
  if (host === '') throw new UsageError('--host needs a host name or address');
  const store = parsed.values.get('--store');
  if (store !== undefined && store !== 'disk' && !/^rediss?:\/\/[^\s]+$/.test(store)) {
    throw new UsageError(`--store expects redis://HOST:PORT/DB or disk; received '${store}'`);
  }
  return {
    kind: 'serve',
    host,
    port: Number(portText),
    ...(store !== undefined ? { store } : {}),
    ...(parsed.seen.has('--allow-default-secret') ? { allowDefaultSecret: true as const } : {}),
  };
}

const FORMAT_BY_EXTENSION: Readonly<Record<string, string>> = { svg: 'svg', pdf: 'pdf', eps: 'eps', ps: 'eps', dxf: 'dxf', png: 'png' };

/**
 * Without --format (or output.file_format), the output file's extension picks the format, so
 * `-o logo.pdf` writes a PDF. An explicit format always wins. An extension Tracelab cannot write
 * (`-o lemon.jpg`) is refused: writing an SVG into a .jpg would leave a file no viewer opens as
 * what its name says. A name without an extension (or `-`) gets the default, SVG.
 */
export function formatFromName(fields: [string, string][], output: string): [string, string][] {
  if (fields.some(([name]) => name === 'output.file_format')) return fields;
  if (output === '-') return fields;
  const name = output.slice(Math.max(output.lastIndexOf('/'), output.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  // ".hidden" and "name." have no extension.
  const ext = dot <= 0 || dot === name.length - 1 ? undefined : name.slice(dot + 1).toLowerCase();
  if (ext === undefined) return fields;
  const format = FORMAT_BY_EXTENSION[ext];
  if (format === undefined) {
    const known = Object.keys(FORMAT_BY_EXTENSION).map((e) => `.${e}`).join(', ');
    throw new UsageError(
      `cannot write '.${ext}' files (-o ${output}); name OUTPUT ${known}, or give --format svg|pdf|eps|dxf|png to write that format under this name`,
    );
  }
  return [...fields, ['output.file_format', format]];
}

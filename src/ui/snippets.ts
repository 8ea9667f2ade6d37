/**
 * Code that reproduces the playground's current request outside the page: curl against an
 * `/api/v1` service (the local `tracelab serve` or the real Vectorizer.AI), the package's JS client
 * (`tracelab/client`) and the `tracelab` CLI.
 *
 * In: the API fields of the trace (fieldsFor(options): only non-default values, no service fields)
 * and where to send / which file to read. Out: text to paste. Credentials are never put in a
 * snippet: curl and the JS client read `$VECTORIZER_API_ID` / `$VECTORIZER_API_SECRET` (the
 * official CLI's variable names), and the plain CLI needs none. Shell words are POSIX-quoted, so
 * palettes (`#`, `;`, `->`, spaces) and odd file names arrive byte for byte.
 *
 * Tracelab extension options (`tracelab.*`): a curl or JS snippet for the real Vectorizer.AI
 * leaves them out and says so in a comment line (src/api/extensions.ts decides both: which names,
 * which URL); one for `tracelab serve` keeps them. The CLI snippet traces here and keeps them, with
 * a comment that `--remote` would leave them out.
 */

import { forRealService, isRealServiceUrl, notSentNote } from '../api/extensions.js';
import { formatFieldValue } from '../api/client.js';
import { OPTION_BY_NAME } from '../api/options.js';

export type Fields = readonly (readonly [string, string])[];

/** The package entry of the API client (package.json "exports"). */
export const CLIENT_PACKAGE = 'tracelab/client';

export const LOCAL_BASE_URL = 'http://127.0.0.1:8787/api/v1';
export const REMOTE_BASE_URL = 'https://api.vectorizer.ai/api/v1';

/** Placeholders: environment variables in shell snippets, the same names in the JS snippet. */
export const API_ID_VAR = 'VECTORIZER_API_ID';
export const API_SECRET_VAR = 'VECTORIZER_API_SECRET';

/** Extension of each output.file_format. */
const EXTENSION: Readonly<Record<string, string>> = { svg: 'svg', pdf: 'pdf', eps: 'eps', dxf: 'dxf', png: 'png' };

export interface SnippetOptions {
  /** Base URL of the API (…/api/v1); default the local server. */
  readonly baseUrl?: string;
  /** The input image's file name (as the user has it); default 'image.png'. */
  readonly fileName?: string;
  /** output.file_format when the fields do not say (the CLI picks the format from -o). */
  readonly format?: string;
}

// ---------------------------------------------------------------------------------------------
// Quoting

/** Words that need no quoting in any POSIX shell position we use (not first in a line). */
const SAFE_WORD = /^[A-Za-z0-9_\-.,:/@%+=]+$/;

/**
 * One POSIX shell word for `text`: bare when that is unambiguous, else single-quoted (where only
 * `'` needs escaping, written as `'\''`). A leading `~` or `#` would expand or start a comment,
 * which SAFE_WORD excludes by not listing them.
 */
export function shellQuote(text: string): string {
  if (text !== '' && SAFE_WORD.test(text)) return text;
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A JS string literal (JSON is valid JS since ES2019, including U+2028/2029). */
function jsString(text: string): string {
  return JSON.stringify(text);
}

/**
 * A field's value as the client's typed options take it (src/api/client.ts Fields): numbers and
 * booleans as literals, everything else as a string.
 */
function jsValue(name: string, text: string): string {
  const kind = OPTION_BY_NAME.get(name)?.kind;
  if (kind === 'bool' && (text === 'true' || text === 'false')) return text;
  if ((kind === 'int' || kind === 'float') && /^-?\d+(?:\.\d+)?$/.test(text)) return formatFieldValue(Number(text));
  return jsString(text);
}

/**
 * curl's `-F name=@file` value: curl itself splits that text on `;` and `,` (for `;type=` and
 * multiple files), so a name with those or with quotes is written in curl's double-quoted form.
 */
function curlFileArg(fileName: string): string {
  if (/^[^;,"\\]+$/.test(fileName)) return `image=@${fileName}`;
  return `image=@"${fileName.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * curl `-F` parses its value (a leading `@` or `<` reads a file, `;type=` sets a content type), so
 * any value beyond plain characters goes through `--form-string`, which sends it literally.
 */
function curlField(name: string, value: string): string[] {
  return /^[A-Za-z0-9_.+-]*$/.test(value) ? ['-F', `${name}=${value}`] : ['--form-string', `${name}=${value}`];
}

// ---------------------------------------------------------------------------------------------
// File names

function baseName(fileName: string): string {
  const name = fileName.split(/[\\/]/).pop() ?? '';
  return name === '' ? 'image.png' : name;
}

/** The output format of a request: output.file_format of the fields, else `fallback`, else svg. */
export function formatOf(fields: Fields, fallback?: string): string {
  const given = fields.find(([name]) => name === 'output.file_format')?.[1] ?? fallback ?? 'svg';
  return EXTENSION[given] === undefined ? 'svg' : given;
}

/**
 * Output file next to the input: `<stem>.<ext>`, or `<stem>-traced.<ext>` when that would be the
 * input itself (PNG in, PNG out) — a pasted command must never overwrite the user's image.
 */
export function outputName(fileName: string, format: string): string {
  const ext = EXTENSION[format] ?? 'svg';
  const stem = fileName.replace(/\.[^./\\]*$/, '') || 'image';
  const name = `${stem}.${ext}`;
  return name === fileName ? `${stem}-traced.${ext}` : name;
}

/** Lines joined with ` \` continuations, the first line unindented. */
function continued(lines: readonly string[]): string {
  return lines.map((line, i) => (i === 0 ? line : `  ${line}`)).join(' \\\n');
}

// ---------------------------------------------------------------------------------------------
// Snippets

/**
 * `curl` with the multipart form of the request. Production mode (the field is left out, the
 * API's default) so the answer is the real, unwatermarked file — it costs one credit; the comment
 * says how to try it for free.
 */
export function curlSnippet(allFields: Fields, options: SnippetOptions = {}): string {
  const baseUrl = (options.baseUrl ?? LOCAL_BASE_URL).replace(/\/+$/, '');
  const { fields, notSent } = fieldsForServer(allFields, baseUrl);
  const fileName = options.fileName ?? 'image.png';
  const out = outputName(fileName, formatOf(fields, options.format));
  const parts: string[] = [
    `curl -u "$${API_ID_VAR}:$${API_SECRET_VAR}"`,
    `-F ${shellQuote(curlFileArg(fileName))}`,
    ...fields.map(([name, value]) => curlField(name, value).map(shellQuote).join(' ')),
    `-o ${shellQuote(out)}`,
    shellQuote(`${baseUrl}/vectorize`),
  ];
  return [
    `# ${credentialHint(baseUrl)}`,
    '# Production mode: 1 credit, the real result. Add -F mode=test for a free, watermarked trial.',
    ...notSent.map((line) => `# ${line}`),
    continued(parts),
    '',
  ].join('\n');
}

/**
 * The JS client in Node: read the file, vectorize, write the result. It imports the package's
 * `tracelab/client` (what `npm install tracelab` gives; issue 41: it imported
 * `./src/api/client.js`, which only a checkout of the project has, and only as TypeScript);
 * `importFrom` replaces that (the tests run it against the project's source).
 */
export function jsSnippet(allFields: Fields, options: SnippetOptions & { readonly importFrom?: string } = {}): string {
  const baseUrl = (options.baseUrl ?? LOCAL_BASE_URL).replace(/\/+$/, '');
  const { fields, notSent } = fieldsForServer(allFields, baseUrl);
  const fileName = options.fileName ?? 'image.png';
  const out = outputName(fileName, formatOf(fields, options.format));
  const importFrom = options.importFrom ?? CLIENT_PACKAGE;
  const fieldLines = fields.map(([name, value]) => `    ${jsString(name)}: ${jsValue(name, value)},`);
  return [
    `// ${credentialHint(baseUrl)}`,
    '// Needs the tracelab package (`npm install tracelab`); save as snippet.mjs and run `node snippet.mjs`.',
    ...notSent.map((line) => `// ${line}`),
    "import { readFile, writeFile } from 'node:fs/promises';",
    `import { createClient } from ${jsString(importFrom)};`,
    '',
    'const client = createClient({',
    `  baseUrl: ${jsString(baseUrl)},`,
    `  apiId: process.env.${API_ID_VAR} ?? 'YOUR_API_ID',`,
    `  apiSecret: process.env.${API_SECRET_VAR} ?? 'YOUR_API_SECRET',`,
    '});',
    'const result = await client.vectorize(',
    `  { image: await readFile(${jsString(fileName)}), filename: ${jsString(baseName(fileName))} },`,
    ...(fieldLines.length === 0 ? ['  {},'] : ['  {', ...fieldLines, '  },']),
    ');',
    `await writeFile(${jsString(out)}, result.body);`,
    "console.log(result.contentType, 'credits charged:', result.creditsCharged);",
    '',
  ].join('\n');
}

/**
 * The `tracelab` CLI: a plain `vectorize` traces with the embedded engine (no account, no
 * credits) and gives the same file as the production call of the service.
 */
export function cliSnippet(fields: Fields, options: Pick<SnippetOptions, 'fileName' | 'format'> = {}): string {
  const fileName = options.fileName ?? 'image.png';
  const out = outputName(fileName, formatOf(fields, options.format));
  // A name starting with '-' would read as an option: './' keeps it a file.
  const input = fileName.startsWith('-') ? `./${fileName}` : fileName;
  const parts = [
    `npx tracelab vectorize ${shellQuote(input)} -o ${shellQuote(out)}`,
    ...fields.map(([name, value]) => `--param ${shellQuote(`${name}=${value}`)}`),
  ];
  const { dropped } = forRealService(fields);
  return [
    '# Traces on this machine: no account, no credits.',
    `# For the real service add --remote and set ${API_ID_VAR} / ${API_SECRET_VAR}.`,
    ...(dropped.length > 0 ? [`# With --remote to Vectorizer.AI, ${dropped.join(', ')} ${dropped.length === 1 ? 'is' : 'are'} left out (Tracelab only).`] : []),
    continued(parts),
    '',
  ].join('\n');
}

/**
 * The fields a snippet sends to `baseUrl`: all of them to a Tracelab server; to the real service
 * none of the extensions, with the comment line that says so (`notSent`: zero or one line).
 */
function fieldsForServer(fields: Fields, baseUrl: string): { fields: Fields; notSent: string[] } {
  if (!isRealServiceUrl(baseUrl)) return { fields, notSent: [] };
  const split = forRealService(fields);
  return { fields: split.fields, notSent: split.dropped.length > 0 ? [`${notSentNote(split.dropped)}.`] : [] };
}

function credentialHint(baseUrl: string): string {
  return isRealServiceUrl(baseUrl)
    ? `Set ${API_ID_VAR} and ${API_SECRET_VAR} to your Vectorizer.AI API Id and API Secret.`
    : `Set ${API_ID_VAR} / ${API_SECRET_VAR} to the credentials of \`tracelab serve\` (its TRACELAB_API_ID / TRACELAB_API_SECRET).`;
}

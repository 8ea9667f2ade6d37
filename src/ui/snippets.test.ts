/**
 * Snippets: (a) the shell quoting round-trips through a POSIX word splitter and through the real
 * CLI argument parser; (b) the snippets really reproduce the page's request — the CLI snippet run
 * by /bin/sh with a freshly built CLI, the curl snippet run by /bin/sh with the real curl against
 * the local server (in-process, production mode = the unwatermarked file), and the JS snippet run
 * with the project's client — each byte-identical to runVectorize(planVectorize(fields), bytes).
 * The reproduced request has a Tracelab extension on: the CLI and a Tracelab server take it.
 */

import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { parseOptions } from '../api/options.js';
import { planVectorize, runVectorize } from '../api/pipeline.js';
import { parseArgs } from '../cli/args.js';
import { openLocalService, readConfig, type LocalService } from '../cli/config.js';
import { DEFAULT_HOST, DEFAULT_PORT, startServer, type RunningServer } from '../cli/server.js';
import {
  API_ID_VAR,
  API_SECRET_VAR,
  cliSnippet,
  curlSnippet,
  jsSnippet,
  LOCAL_BASE_URL,
  outputName,
  REMOTE_BASE_URL,
  shellQuote,
  type Fields,
} from './snippets.js';

// ---------------------------------------------------------------------------------------------
// A small POSIX shell word splitter (quotes, backslashes, line continuations, comments, $VAR)

function shellWords(script: string, env: Readonly<Record<string, string>> = {}): string[][] {
  const commands: string[][] = [];
  let words: string[] = [];
  let word = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  const variable = (i: number): [string, number] => {
    const m = /^(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(script.slice(i));
    if (!m) return ['$', i];
    return [env[m[1] ?? m[2]!] ?? '', i + m[0].length];
  };
  for (let i = 0; i < script.length; ) {
    const c = script[i]!;
    if (c === '\\') {
      if (script[i + 1] === '\n') i += 2; // line continuation
      else {
        word += script[i + 1] ?? '';
        inWord = true;
        i += 2;
      }
    } else if (c === "'") {
      const end = script.indexOf("'", i + 1);
      if (end === -1) throw new Error('unterminated single quote');
      word += script.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (c === '"') {
      inWord = true;
      i++;
      for (;;) {
        const d = script[i];
        if (d === undefined) throw new Error('unterminated double quote');
        if (d === '"') {
          i++;
          break;
        }
        if (d === '\\' && '$`"\\\n'.includes(script[i + 1] ?? '')) {
          if (script[i + 1] !== '\n') word += script[i + 1];
          i += 2;
        } else if (d === '$') {
          const [value, next] = variable(i + 1);
          word += value;
          i = next;
        } else if (d === '`') throw new Error('command substitution in a snippet');
        else {
          word += d;
          i++;
        }
      }
    } else if (c === '$') {
      const [value, next] = variable(i + 1);
      word += value;
      inWord = true;
      i = next;
    } else if (c === '#' && !inWord) {
      while (i < script.length && script[i] !== '\n') i++;
    } else if (c === '\n' || c === ';') {
      endCommand();
      i++;
    } else if (c === ' ' || c === '\t') {
      endWord();
      i++;
    } else if ('|&<>()`*?['.includes(c) || (c === '~' && !inWord)) {
      // Operators, globs and tilde expansion: a snippet must never leave these unquoted.
      throw new Error(`shell metacharacter ${c} outside quotes at ${i}`);
    } else {
      word += c;
      inWord = true;
      i++;
    }
  }
  endCommand();
  return commands;
}

/** The fields of a split CLI command line (every `--param name=value`, in order). */
function cliFields(words: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < words.length; i++) {
    if (words[i] !== '--param') continue;
    const text = words[++i]!;
    const eq = text.indexOf('=');
    out.push([text.slice(0, eq), text.slice(eq + 1)]);
  }
  return out;
}

/** The form parts of a split curl command line (`-F` / `--form-string`), and the -u / -o values. */
function curlParts(words: readonly string[]): { form: [string, string, 'F' | 'string'][]; user?: string; out?: string; url?: string } {
  const form: [string, string, 'F' | 'string'][] = [];
  let user: string | undefined;
  let out: string | undefined;
  let url: string | undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (w === '-F' || w === '--form-string') {
      const text = words[++i]!;
      const eq = text.indexOf('=');
      form.push([text.slice(0, eq), text.slice(eq + 1), w === '-F' ? 'F' : 'string']);
    } else if (w === '-u') user = words[++i];
    else if (w === '-o') out = words[++i];
    else url = w;
  }
  return { form, user, out, url };
}

// ---------------------------------------------------------------------------------------------

/** The shell the snippets are run with (required: the tests fail without it rather than skip). */
const SHELL = '/bin/sh';

const NASTY = [
  '',
  'plain',
  "it's",
  '#FF0000 -> #00FF00 ~ 0.1; #000000;',
  'a "double" $HOME `date` \\ back',
  "''",
  '~tilde',
  'semi;colon & pipe | and > redirect < in',
  'new\nline',
  'tab\there',
  'unicode é ✓',
  '-leading-dash',
  '*?[glob]',
];

const PALETTE_FIELDS: Fields = [
  ['processing.max_colors', '6'],
  ['processing.palette', "#E23D34 -> #000000 ~ 0.3; #FAF6EC ~ 0.2; #2454D6->#00FF00;"],
  ['output.file_format', 'pdf'],
  ['output.size.width', '300'],
];

/** The page's fields with a Tracelab extension on: kept for Tracelab, left out for the real service. */
const EXTENSION_FIELDS: Fields = [...PALETTE_FIELDS, ['tracelab.gradients', 'true']];
const NOT_SENT = 'Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension).';

describe('shell quoting', () => {
  it('every string round-trips through the word splitter', () => {
    for (const text of NASTY) {
      expect(shellWords(`echo ${shellQuote(text)}`)).toEqual([['echo', text]]);
    }
  });

  it('leaves plain words bare and quotes the rest', () => {
    expect(shellQuote('processing.max_colors=8')).toBe('processing.max_colors=8');
    expect(shellQuote('a b')).toBe("'a b'");
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('#x')).toBe("'#x'");
    expect(shellQuote('~x')).toBe("'~x'");
  });

  it('the real /bin/sh agrees with the splitter', () => {
    // The snippets are shell commands: without a shell to run them this check cannot pass (it used
    // to return early and pass silently). Every POSIX system and the CI image has /bin/sh.
    expect(existsSync(SHELL), `${SHELL} is missing: the shell snippets cannot be checked`).toBe(true);
    for (const text of NASTY) {
      const r = spawnSync(SHELL, ['-c', `printf '%s' ${shellQuote(text)}`], { encoding: 'utf8' });
      expect(r.error).toBeUndefined();
      expect(r.stdout).toBe(text);
    }
  });
});

describe('CLI snippet', () => {
  it('gives back exactly the fields, and the real argument parser agrees', () => {
    const fields: Fields = [...PALETTE_FIELDS, ['output.strokes.override_color', '#FF00FF']];
    const text = cliSnippet(fields, { fileName: "my logo's #1; final.png" });
    const [words, ...rest] = shellWords(text);
    expect(rest).toEqual([]);
    expect(words!.slice(0, 3)).toEqual(['npx', 'tracelab', 'vectorize']);
    expect(words![3]).toBe("my logo's #1; final.png");
    expect(words!.slice(4, 6)).toEqual(['-o', "my logo's #1; final.pdf"]);
    expect(cliFields(words!)).toEqual(fields);
    const command = parseArgs(words!.slice(2));
    expect(command).toMatchObject({ kind: 'vectorize', input: "my logo's #1; final.png", output: "my logo's #1; final.pdf", fields });
    expect(command.kind === 'vectorize' && command.service).toBeFalsy(); // embedded engine, no billing
  });

  it('no fields: just input and output; the output never overwrites a PNG input', () => {
    const [words] = shellWords(cliSnippet([], { fileName: 'shapes.png' }));
    expect(words).toEqual(['npx', 'tracelab', 'vectorize', 'shapes.png', '-o', 'shapes.svg']);
    expect(outputName('shapes.png', 'png')).toBe('shapes-traced.png');
    const [png] = shellWords(cliSnippet([['output.file_format', 'png']], { fileName: 'shapes.png' }));
    expect(png!.slice(4, 6)).toEqual(['-o', 'shapes-traced.png']);
    const [dash] = shellWords(cliSnippet([], { fileName: '-x.png' }));
    expect(parseArgs(dash!.slice(2))).toMatchObject({ kind: 'vectorize', input: './-x.png', output: '-x.svg' });
  });

  it('every field of every nasty value survives', () => {
    const fields: Fields = NASTY.map((v, i) => [`f${i}`, v]);
    const [words] = shellWords(cliSnippet(fields, { fileName: 'x.png' }));
    expect(cliFields(words!)).toEqual(fields);
  });

  it('keeps Tracelab extensions (it traces here) and says in a comment that --remote would leave them out', () => {
    const text = cliSnippet(EXTENSION_FIELDS, { fileName: 'x.png' });
    const [words, ...rest] = shellWords(text);
    expect(rest).toEqual([]);
    expect(cliFields(words!)).toEqual(EXTENSION_FIELDS);
    expect(text.split('\n')[2]).toBe('# With --remote to Vectorizer.AI, tracelab.gradients is left out (Tracelab only).');
    expect(cliSnippet(PALETTE_FIELDS)).not.toContain('left out');
  });
});

describe('curl snippet', () => {
  const env = { [API_ID_VAR]: 'id with space', [API_SECRET_VAR]: "se'cr$et" };

  it('gives back exactly the fields, credentials only from the environment', () => {
    const text = curlSnippet(PALETTE_FIELDS, { fileName: 'a "b"; c,d.png' });
    expect(text).toContain(`"$${API_ID_VAR}:$${API_SECRET_VAR}"`);
    const [words, ...rest] = shellWords(text, env);
    expect(rest).toEqual([]);
    const parts = curlParts(words!);
    expect(parts.user).toBe("id with space:se'cr$et");
    expect(parts.out).toBe('a "b"; c,d.pdf');
    expect(parts.url).toBe(`${LOCAL_BASE_URL}/vectorize`);
    // curl's own syntax for a file name with ; , and quotes.
    expect(parts.form[0]).toEqual(['image', '@"a \\"b\\"; c,d.png"', 'F']);
    expect(parts.form.slice(1).map(([n, v]) => [n, v])).toEqual(PALETTE_FIELDS);
    // Values curl would interpret (';type=', leading '@' or '<') go through --form-string.
    expect(parts.form.find(([n]) => n === 'processing.palette')?.[2]).toBe('string');
    expect(parts.form.find(([n]) => n === 'processing.max_colors')?.[2]).toBe('F');
    expect(parseOptions(parts.form.slice(1).map(([n, v]) => [n, v]), 'vectorize')).toEqual(parseOptions(PALETTE_FIELDS, 'vectorize'));
  });

  it('targets the real service on request; no mode field (production)', () => {
    const [words] = shellWords(curlSnippet([], { baseUrl: `${REMOTE_BASE_URL}/`, fileName: 'x.png' }), env);
    const parts = curlParts(words!);
    expect(parts.url).toBe(`${REMOTE_BASE_URL}/vectorize`);
    expect(parts.form.map(([n]) => n)).toEqual(['image']);
  });

  it('for the real service, Tracelab extensions are left out and a comment line says so; a Tracelab server gets them', () => {
    const remote = curlSnippet(EXTENSION_FIELDS, { baseUrl: REMOTE_BASE_URL, fileName: 'x.png' });
    expect(remote.split('\n').filter((l) => l.startsWith('#'))).toContain(`# ${NOT_SENT}`);
    const [words] = shellWords(remote, env);
    expect(curlParts(words!).form.slice(1).map(([n, v]) => [n, v])).toEqual(PALETTE_FIELDS);
    // Without extensions the real-service snippet has no such line.
    expect(curlSnippet(PALETTE_FIELDS, { baseUrl: REMOTE_BASE_URL })).not.toContain('Not sent');

    const local = curlSnippet(EXTENSION_FIELDS, { fileName: 'x.png' });
    expect(local).not.toContain('Not sent');
    const [localWords] = shellWords(local, env);
    expect(curlParts(localWords!).form.slice(1).map(([n, v]) => [n, v])).toEqual(EXTENSION_FIELDS);
  });

  it('the local base URL is the server default', () => {
    expect(LOCAL_BASE_URL).toBe(`http://${DEFAULT_HOST}:${DEFAULT_PORT}/api/v1`);
  });
});

describe('JS snippet', () => {
  it('uses the client API with env placeholders and the fields as typed literals (numbers, booleans, strings)', () => {
    const text = jsSnippet(PALETTE_FIELDS, { fileName: 'shapes.png' });
    // The package's entry, which `npm install tracelab` gives (issue 41: a path only a checkout has).
    expect(text).toContain('import { createClient } from "tracelab/client";');
    expect(text).not.toContain('./src/');
    expect(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports['./client']).toBeDefined();
    expect(text).toContain(`apiId: process.env.${API_ID_VAR} ?? 'YOUR_API_ID'`);
    expect(text).toContain(`apiSecret: process.env.${API_SECRET_VAR} ?? 'YOUR_API_SECRET'`);
    expect(text).toContain('"processing.max_colors": 6,');
    expect(text).toContain('"output.size.width": 300,');
    expect(text).toContain('"output.file_format": "pdf",');
    expect(text).toContain(`"processing.palette": ${JSON.stringify(PALETTE_FIELDS[1]![1])},`);
    expect(text).toContain("await writeFile(\"shapes.pdf\", result.body);");
  });

  it('for the real service, Tracelab extensions are left out with a comment line; a Tracelab server gets them', () => {
    const remote = jsSnippet(EXTENSION_FIELDS, { baseUrl: REMOTE_BASE_URL });
    expect(remote).toContain(`\n// ${NOT_SENT}\n`);
    expect(remote).not.toContain('"tracelab.gradients"');
    for (const [name] of PALETTE_FIELDS) expect(remote).toContain(`${JSON.stringify(name)}: `);
    const local = jsSnippet(EXTENSION_FIELDS);
    expect(local).toContain('"tracelab.gradients": true,');
    expect(local).not.toContain('Not sent');
  });
});

// ---------------------------------------------------------------------------------------------
// Real reproduction

const root = fileURLToPath(new URL('../..', import.meta.url));
const samplePng = new Uint8Array(readFileSync(join(root, 'public', 'samples', 'shapes.png')));
/** A file name that needs quoting for the shell and for curl's -F syntax. */
const INPUT_NAME = `my "shapes"; v2, it's.png`;

describe('snippets reproduce the result (CLI, curl + local server, JS client)', () => {
  let work: string;
  let cliDir: string;
  let server: RunningServer | undefined;
  let local: LocalService;
  let expected: Uint8Array;

  beforeAll(async () => {
    // A private CLI build (bin + dist-cli side by side): other test files rebuild dist-cli/ in parallel.
    // Inside node_modules so the bundle's external packages resolve; .cache may not exist yet.
    mkdirSync(join(root, 'node_modules', '.cache'), { recursive: true });
    cliDir = mkdtempSync(join(root, 'node_modules', '.cache', 'tracelab-snippet-cli-'));
    mkdirSync(join(cliDir, 'bin'));
    copyFileSync(join(root, 'bin', 'tracelab.js'), join(cliDir, 'bin', 'tracelab.js'));
    execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs'), '--outdir', join(cliDir, 'dist-cli')], { cwd: root, stdio: 'pipe' });
    work = mkdtempSync(join(tmpdir(), 'tracelab-snippets-'));
    writeFileSync(join(work, INPUT_NAME), samplePng);
    local = openLocalService(readConfig({ TRACELAB_DATA_DIR: join(work, 'data') }));
    server = await startServer({ handler: local.handler, port: 0 });
    expected = (await runVectorize(planVectorize(EXTENSION_FIELDS), samplePng)).body;
    expect(new TextDecoder().decode(expected.subarray(0, 5))).toBe('%PDF-');
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    // The account's balance is written after the answer (queued writes): wait for them before
    // the data directory goes, or a late write races the removal (ENOTEMPTY).
    await local?.account.flush();
    if (work) rmSync(work, { recursive: true, force: true });
    if (cliDir) rmSync(cliDir, { recursive: true, force: true });
  });

  it('the CLI snippet, run by /bin/sh with the built CLI, writes the same bytes', () => {
    const snippet = cliSnippet(EXTENSION_FIELDS, { fileName: INPUT_NAME });
    expect(snippet.startsWith('#')).toBe(true);
    expect(snippet).toContain('npx tracelab vectorize ');
    // `npx tracelab` is the installed bin; here it is the private build of the same sources.
    const script = snippet.replace('npx tracelab ', `${shellQuote(process.execPath)} ${shellQuote(join(cliDir, 'bin', 'tracelab.js'))} `);
    expect(existsSync(SHELL), `${SHELL} is missing: the CLI snippet cannot be run`).toBe(true);
    const r = spawnSync(SHELL, ['-c', script], { cwd: work, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = new Uint8Array(readFileSync(join(work, outputName(INPUT_NAME, 'pdf'))));
    expect(out.length).toBe(expected.length);
    expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
  });

  it('the curl snippet, run by /bin/sh with the real curl against the local server, gets the same bytes', async (ctx) => {
    if (!existsSync('/usr/bin/curl')) {
      ctx.skip('/usr/bin/curl is not installed; tests do not install software');
      return;
    }
    expect(existsSync(SHELL), `${SHELL} is missing: the curl snippet cannot be run`).toBe(true);
    const outName = outputName(INPUT_NAME, 'pdf');
    rmSync(join(work, outName), { force: true });
    const snippet = curlSnippet(EXTENSION_FIELDS, { baseUrl: `${server!.url}/api/v1`, fileName: INPUT_NAME });
    // The placeholders are environment variables: the server's credentials (defaults tracelab/tracelab).
    const env = { ...process.env, [API_ID_VAR]: local.config.credentials.apiId, [API_SECRET_VAR]: local.config.credentials.apiSecret };
    const script = `${snippet.trimEnd()} -sS -D headers.txt`;
    const r = await new Promise<{ status: number | null; stderr: string }>((resolve) => {
      // Asynchronous: the server runs in this process and must keep answering while curl waits.
      import('node:child_process').then(({ spawn }) => {
        const child = spawn(SHELL, ['-c', script], { cwd: work, env });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
        child.on('error', (e) => resolve({ status: null, stderr: String(e) }));
        child.on('close', (status) => resolve({ status, stderr }));
      });
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const headers = readFileSync(join(work, 'headers.txt'), 'utf8');
    expect(headers).toMatch(/^HTTP\/1\.1 200/);
    expect(headers).toMatch(/content-type: application\/pdf/i);
    // Production mode: charged, and the real (unwatermarked) file.
    expect(headers).toMatch(/x-credits-charged: 1\.000000/i);
    const out = new Uint8Array(readFileSync(join(work, outName)));
    expect(out.length).toBe(expected.length);
    expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
    await local.account.flush();
  });

  it('the JS snippet, run with the project client against the same server, gets the same bytes', async () => {
    const inputPath = join(work, INPUT_NAME);
    const outPath = outputName(inputPath, 'pdf');
    rmSync(outPath, { force: true });
    const snippet = jsSnippet(EXTENSION_FIELDS, {
      baseUrl: `${server!.url}/api/v1`,
      fileName: inputPath,
      importFrom: join(root, 'src', 'api', 'client.ts'),
    });
    const file = join(work, 'snippet.ts');
    writeFileSync(file, snippet);
    const saved = { id: process.env[API_ID_VAR], secret: process.env[API_SECRET_VAR] };
    process.env[API_ID_VAR] = 'tracelab';
    process.env[API_SECRET_VAR] = 'tracelab';
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      await import(/* @vite-ignore */ file);
      // The snippet reports what it got: the PDF, charged 1 credit (production mode).
      expect(log).toHaveBeenCalledWith('application/pdf', 'credits charged:', 1);
    } finally {
      log.mockRestore();
      if (saved.id === undefined) delete process.env[API_ID_VAR];
      else process.env[API_ID_VAR] = saved.id;
      if (saved.secret === undefined) delete process.env[API_SECRET_VAR];
      else process.env[API_SECRET_VAR] = saved.secret;
    }
    const out = new Uint8Array(readFileSync(outPath));
    expect(Buffer.from(out).equals(Buffer.from(expected))).toBe(true);
  });
});

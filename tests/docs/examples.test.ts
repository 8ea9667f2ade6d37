/**
 * The shell examples of README.md and docs/service.md, run as written.
 *
 * Each block is taken from its page at test time. `npx tracelab` resolves to a private build of
 * the CLI (tests/cli/private-build.ts) through an `npx` shim first on PATH, so the lines run
 * unchanged; the only substitutions are what a reader fills in: a free port for 8787, the TOKEN and
 * RECEIPT an earlier answer printed, and a local image server for `https://example.com/x.png`.
 * Commands that write files run in a temp folder where `public/samples` is the repository's and
 * `x.png` is a copy of `public/samples/logo.png`.
 *
 * The README's library example is checked by tests/api/readme.test.ts (it quotes
 * examples/node/vectorize.mjs) and run from the packed tarball by scripts/test-package.mjs; the
 * Quick start's CLI command by tests/cli/cli.test.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildPrivateCli, root, type PrivateBuild } from '../cli/private-build.js';
import { freePort } from '../helpers/fleet.js';

let build: PrivateBuild;
let work: string;
let shim: string;
const running = new Set<ChildProcess>();

beforeAll(() => {
  build = buildPrivateCli('tracelab-docs');
  work = mkdtempSync(join(tmpdir(), 'tracelab-docs-'));
  mkdirSync(join(work, 'public'));
  symlinkSync(join(root, 'public', 'samples'), join(work, 'public', 'samples'));
  copyFileSync(join(root, 'public', 'samples', 'logo.png'), join(work, 'x.png'));
  shim = join(work, 'shim');
  mkdirSync(shim);
  writeFileSync(
    join(shim, 'npx'),
    `#!/bin/sh\n[ "$1" = tracelab ] || { echo "npx shim: only tracelab, not $1" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${build.bin}" "$@"\n`,
  );
  chmodSync(join(shim, 'npx'), 0o755);
}, 120_000);

afterEach(async () => {
  await Promise.all([...running].map((c) => stop(c)));
});

afterAll(() => {
  build?.remove();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** The fenced code blocks under `heading` (up to the next heading of the same or a higher level). */
function blocksUnder(page: string, heading: string): string[] {
  const text = readFileSync(join(root, page), 'utf8');
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l === heading);
  if (start < 0) throw new Error(`${page} has no heading "${heading}"`);
  const level = /^#+/.exec(heading)![0].length;
  let inCode = false;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i]!.startsWith('```')) inCode = !inCode;
    const m = /^(#+) /.exec(lines[i]!);
    if (!inCode && m && m[1]!.length <= level) {
      end = i;
      break;
    }
  }
  return [...lines.slice(start + 1, end).join('\n').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/** The commands of a shell block: comment lines dropped, `\` continuations joined. */
function commands(block: string): string[] {
  return annotated(block).map((c) => c.command);
}

/** Each command with what the block says about it: the comment lines just above it and its own trailing comment. */
function annotated(block: string): { command: string; note: string }[] {
  const out: { command: string; note: string }[] = [];
  let above: string[] = [];
  for (const line of block.replace(/\\\n\s*/g, '').split('\n')) {
    if (line.trim() === '') continue;
    if (line.trimStart().startsWith('#')) {
      above.push(line.trim().replace(/^#\s*/, ''));
      continue;
    }
    const trailing = /\s#\s(.*)$/.exec(line)?.[1];
    out.push({ command: line, note: [...above, ...(trailing ? [trailing] : [])].join(' ') });
    above = [];
  }
  return out;
}

/** The environment of a reader's shell: the shim first on PATH, no Tracelab or Vectorizer settings of the caller. */
function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${shim}:${process.env['PATH'] ?? ''}`, TRACELAB_THREADS: '1', ...extra };
  for (const name of Object.keys(env)) {
    if ((name.startsWith('TRACELAB_') || name.startsWith('VECTORIZER_')) && !(name in extra) && name !== 'TRACELAB_THREADS') delete env[name];
  }
  return env;
}

function sh(command: string, env: NodeJS.ProcessEnv, cwd = work) {
  const r = spawnSync('sh', ['-c', command], { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** `sh` without blocking this process (whose own servers must answer meanwhile). */
function shAsync(command: string, env: NodeJS.ProcessEnv, cwd = work): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Starts a long-running command in its own process group; resolves with its output once `ready` shows. */
function start(command: string, env: NodeJS.ProcessEnv, cwd: string, ready: RegExp, ms = 60_000): Promise<{ child: ChildProcess; match: RegExpExecArray; output: () => string }> {
  const child = spawn('sh', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let out = '';
  // eslint-disable-next-line no-control-regex
  const plain = (): string => out.replace(/\u001b\[[0-9;]*m/g, '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`"${command}" did not start: ${plain()}`)), ms);
    const check = (): void => {
      const match = ready.exec(plain());
      if (match) {
        clearTimeout(timer);
        resolve({ child, match, output: plain });
      }
    };
    child.stdout!.on('data', (c: Buffer) => ((out += c.toString('utf8')), check()));
    child.stderr!.on('data', (c: Buffer) => ((out += c.toString('utf8')), check()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`"${command}" exited (${code ?? signal}): ${plain()}`));
    });
  });
}

/** SIGTERM to the process group of a child started by `start`, then wait for it. */
async function stop(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    // already gone
  }
  await exited;
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, 'localhost');
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

describe("README's one example per surface", () => {
  it("README's playground command serves the page (and the docs page it links to)", async () => {
    const [block] = blocksUnder('README.md', '### Playground');
    const [command] = commands(block!);
    expect(command).toMatch(/^npm run dev\b/);
    expect(block).toContain('http://localhost:5173/');
    // Run in the repository, as a reader would; Vite prints the address it serves.
    const dev = await start(command!, shellEnv(), root, /Local:\s+(http:\/\/localhost:(\d+)\/)/);
    const [, url, port] = dev.match;
    // 5173 is Vite's default; another port only when 5173 is taken (another dev server on this machine).
    if (port !== '5173') expect(await listening(5173)).toBe(true);
    const page = await fetch(url!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const docs = await fetch(new URL('docs/remote-mode-and-cors.html', url));
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/<h2>Remote mode and CORS<\/h2>[\s\S]*cors-proxy\.mjs/);
  }, 90_000);

  it("README's CLI example runs as written", () => {
    const [block] = blocksUnder('README.md', '### CLI');
    const lines = commands(block!);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(/^npx tracelab /);
      const r = sh(line, shellEnv({ TRACELAB_DATA_DIR: join(work, 'data-cli') }));
      expect(r.stderr, line).toBe('');
      expect(r.status, line).toBe(0);
      const output = / -o (\S+)/.exec(line)?.[1];
      if (output === undefined) continue;
      const bytes = readFileSync(join(work, output));
      if (output.endsWith('.pdf')) expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      else if (output.endsWith('.svg')) expect(bytes.toString('utf8')).toContain('<path');
      else throw new Error(`no check for ${output}`);
    }
  });

  it("README's local server example runs as written", async () => {
    const [block] = blocksUnder('README.md', '### Local server');
    const port = String(await freePort());
    const [serve, ...rest] = commands(block!.replaceAll('8787', port));
    expect(serve).toMatch(/^npx tracelab serve /);
    expect(rest.length).toBeGreaterThan(0);
    const env = shellEnv({ TRACELAB_DATA_DIR: join(work, 'data-server') });
    await start(serve!, env, work, new RegExp(`tracelab: serving http://127\\.0\\.0\\.1:${port}/api/v1\\n`));
    for (const line of rest) {
      const r = sh(line, env);
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/^HTTP\/1\.1 200 OK\r?$/m);
      // What the block's comment says the call answers.
      const said = /# .*?(X-[\w-]+): (\S+)$/.exec(line);
      if (said) expect(r.stdout.toLowerCase()).toContain(`${said[1]!.toLowerCase()}: ${said[2]}`);
      expect(readFileSync(join(work, / -o (\S+)/.exec(line)![1]!), 'utf8')).toContain('<svg');
    }
  });
});

describe('docs/service.md examples', () => {
  let images: Server | undefined;
  afterEach(() => {
    images?.close();
    images = undefined;
  });

  it("docs/service.md's curl flows run as written against tracelab serve", async () => {
    const [block] = blocksUnder('docs/service.md', '## Typical flows with curl');
    const port = String(await freePort());
    const [setup, ...calls] = commands(block!.replaceAll('8787', port));
    expect(setup).toMatch(/^U=http:\/\/localhost:\d+\/api\/v1; A=/);
    // The `image.url` line names a public address; here a local server answers it.
    images = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(readFileSync(join(work, 'x.png')));
    });
    await new Promise<void>((resolve) => images!.listen(0, '127.0.0.1', resolve));
    const imageUrl = `http://127.0.0.1:${(images.address() as { port: number }).port}/x.png`;
    const env = shellEnv({ TRACELAB_DATA_DIR: join(work, 'data-flows'), TRACELAB_ALLOW_PRIVATE_URLS: '1' });
    await start(`"${process.execPath}" "${build.bin}" serve --port ${port}`, env, work, /tracelab: serving /);

    const notes = new Map(annotated(block!.replaceAll('8787', port)).map((c) => [c.command, c.note]));
    let token = '';
    let receipt = '';
    let sawUrl = false;
    for (const raw of calls) {
      expect(raw).toMatch(/^curl \$A /);
      if (raw.includes('https://example.com/x.png')) sawUrl = true;
      const line = raw.replaceAll('TOKEN', token).replaceAll('RECEIPT', receipt).replaceAll('https://example.com/x.png', imageUrl);
      if (/TOKEN|RECEIPT/.test(raw)) expect(raw.includes('RECEIPT') ? receipt : token, `${raw}: no value from an earlier answer`).not.toBe('');
      // Async: the image server of the `image.url` line runs in this process.
      const r = await shAsync(`${setup}\n${line}`, env);
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      if (line.includes(' -D - ')) {
        expect(r.stdout, line).toMatch(/^HTTP\/1\.1 200 OK\r?$/m);
        // Headers the comment above the call names with a value ("X-Credits-Charged: 0.000000").
        for (const [, name, value] of notes.get(raw)!.matchAll(/(X-[\w-]+): ([\d.]+)/g)) expect(r.stdout.toLowerCase(), line).toContain(`${name!.toLowerCase()}: ${value}`);
        if (/X-Image-Token: TOKEN/.test(notes.get(raw)!)) expect(r.stdout).toMatch(/^x-image-token: /im);
        if (/X-Receipt: RECEIPT/.test(notes.get(raw)!)) expect(r.stdout).toMatch(/^x-receipt: /im);
      }
      token = /^x-image-token: (\S+)\r?$/im.exec(r.stdout)?.[1] ?? token;
      receipt = /^x-receipt: (\S+)\r?$/im.exec(r.stdout)?.[1] ?? receipt;
      const output = / -o (\S+)/.exec(line)?.[1];
      if (output !== undefined) {
        const bytes = readFileSync(join(work, output));
        if (output.endsWith('.png')) expect(bytes.subarray(1, 4).toString('latin1'), line).toBe('PNG');
        else expect(bytes.toString('utf8'), line).toContain('<svg');
      }
      const comment = /\s# (.*)$/.exec(raw)?.[1];
      if (comment?.startsWith('{"success"')) expect(JSON.parse(r.stdout), line).toEqual(JSON.parse(comment));
      if (comment?.startsWith('{"subscriptionPlan"')) {
        // The balance the comment shows: 100 − 1 (production) − 0.21 (2-day preview) − 0.9 (upgrade) − 0.1 (another format).
        const credits = Number(/"credits":([\d.]+)/.exec(comment)![1]);
        expect((JSON.parse(r.stdout) as { credits: number }).credits, line).toBeCloseTo(credits, 6);
      }
    }
    expect(sawUrl).toBe(true);
    expect(token).not.toBe('');
    expect(receipt).toMatch(/^rcpt-/);
  }, 120_000);

  it("docs/service.md's CLI flows run as written", () => {
    const [block] = blocksUnder('docs/service.md', '## The same flows from the CLI');
    const env = shellEnv({ TRACELAB_DATA_DIR: join(work, 'data-cli-flows') });
    let token = '';
    let receipt = '';
    for (const raw of commands(block!)) {
      expect(raw).toMatch(/^npx tracelab /);
      const line = raw.replaceAll('TOKEN', token);
      if (raw.includes('TOKEN')) expect(token).not.toBe('');
      const r = sh(line, env);
      expect(r.status, `${line}\n${r.stderr}`).toBe(0);
      token = /^tracelab: image token: (\S+)$/m.exec(r.stderr)?.[1] ?? token;
      const comment = /\s# (.*)$/.exec(raw)?.[1] ?? '';
      if (comment.startsWith('token on stderr')) expect(token).not.toBe('');
      if (comment.startsWith('receipt on stderr')) {
        receipt = /^tracelab: receipt: (\S+)$/m.exec(r.stderr)![1]!;
        expect(readFileSync(join(work, 'data-cli-flows', 'receipts', token), 'utf8').trim()).toBe(receipt);
      }
      if (comment.startsWith('reuses the kept receipt (0.1)')) {
        expect(r.stderr).toContain('tracelab: credits charged: 0.100000');
        expect(r.stderr).toContain(`used the receipt kept for this token: ${receipt}`);
      }
      if (raw.startsWith('npx tracelab delete')) expect(existsSync(join(work, 'data-cli-flows', 'receipts', token))).toBe(false);
      if (raw.startsWith('npx tracelab account')) expect(JSON.parse(r.stdout)).toMatchObject({ subscriptionPlan: 'tracelab_local' });
    }
    expect(receipt).toMatch(/^rcpt-/);
  });
});

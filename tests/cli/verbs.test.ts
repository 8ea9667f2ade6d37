/** Service verbs of the real `bin/tracelab.js`: vectorize via the service, download, account, delete, serve. */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redSquarePng } from './png.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'tracelab.js');
let dir: string;
let dataDir: string;

function env(): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env, TRACELAB_DATA_DIR: dataDir };
  for (const name of ['VECTORIZER_API_URL', 'TRACELAB_ACCOUNT', 'TRACELAB_CREDITS', 'TRACELAB_PLAN', 'TRACELAB_STATE', 'TRACELAB_API_ID', 'TRACELAB_API_SECRET']) {
    delete e[name];
  }
  return e;
}

function tracelab(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, env: { ...env(), ...extraEnv }, encoding: 'buffer', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { cwd: root, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'tracelab-verbs-'));
  dataDir = join(dir, 'data');
  writeFileSync(join(dir, 'red.png'), redSquarePng());
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('service verbs through the in-process local service', () => {
  let token = '';

  it('vectorize --mode test --retention-days 1 prints the token and credits to stderr', () => {
    const r = tracelab(['vectorize', 'red.png', '-o', 'a.svg', '--mode', 'test', '--retention-days', '1']);
    expect(r.stderr).toMatch(/^tracelab: image token: api-test-[a-z2-7]{32}\n/);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('tracelab: credits charged: 0.000000\n');
    expect(r.stderr).toContain('tracelab: credits calculated: ');
    token = /image token: (\S+)/.exec(r.stderr)![1]!;
    expect(readFileSync(join(dir, 'a.svg'), 'utf8')).toContain('<svg');
  });

  it('download TOKEN -o x.svg --param output.svg.fixed_size=true (a later process)', () => {
    const r = tracelab(['download', token, '-o', 'x.svg', '--param', 'output.svg.fixed_size=true']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('tracelab: credits charged: ');
    expect(readFileSync(join(dir, 'x.svg'), 'utf8')).toMatch(/<svg[^>]* width="/);
  });

  it('account prints JSON; a production call is charged and saved in the data dir', () => {
    const before = tracelab(['account']);
    expect(before.status).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 });
    const paid = tracelab(['vectorize', 'red.png', '-o', 'p.svg', '--mode', 'production']);
    expect(paid.status, paid.stderr).toBe(0);
    expect(paid.stderr).toContain('tracelab: credits charged: 1.000000\n');
    expect(JSON.parse(tracelab(['account']).stdout)).toMatchObject({ credits: 99 });
    expect(JSON.parse(readFileSync(join(dataDir, 'account.json'), 'utf8'))).toMatchObject({ credits: 99 });
  });

  it('delete TOKEN, then the token is unknown (one-line error, exit 2)', () => {
    const r = tracelab(['delete', token]);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ success: true });
    const again = tracelab(['download', token, '-o', 'y.svg']);
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(/^tracelab: error 1027: [^\n]+\n$/);
  });

  it('TRACELAB_ACCOUNT seeds a fresh data dir', () => {
    const seedDir = join(dir, 'seeded');
    writeFileSync(join(dir, 'seed.json'), JSON.stringify({ credits: 7 }));
    const r = tracelab(['account'], { TRACELAB_DATA_DIR: seedDir, TRACELAB_ACCOUNT: join(dir, 'seed.json') });
    expect(JSON.parse(r.stdout)).toMatchObject({ credits: 7 });
  });

  it('plain vectorize still uses the embedded engine (no token, no data written)', () => {
    const fresh = join(dir, 'untouched');
    const r = tracelab(['vectorize', 'red.png', '-o', 'e.svg'], { TRACELAB_DATA_DIR: fresh });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(() => readFileSync(join(fresh, 'account.json'))).toThrow();
  });
});

describe('serve', () => {
  it('serve --port 0 --host 127.0.0.1 answers /account, stops on SIGTERM with exit 0', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: dir, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start line: ${stderr}`)), 30_000);
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
        const m = /tracelab: serving (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/.exec(stderr);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    try {
      const res = await fetch(`${url}/account`, { headers: { Authorization: `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}` } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ subscriptionState: 'active' });
      // the CLI against it with --remote (VECTORIZER_API_*), async so the server keeps running
      const remoteEnv = { ...env(), VECTORIZER_API_URL: url, VECTORIZER_API_ID: 'tracelab', VECTORIZER_API_SECRET: 'tracelab' };
      const run = (args: string[], e: NodeJS.ProcessEnv) =>
        new Promise<{ code: number | null; err: string }>((resolve) => {
          const c = spawn(process.execPath, [bin, ...args], { cwd: dir, env: e, stdio: ['ignore', 'ignore', 'pipe'] });
          let err = '';
          c.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
          c.on('exit', (code) => resolve({ code, err }));
        });
      const ok = await run(['vectorize', 'red.png', '-o', 'r.svg', '--remote', '--mode', 'test'], remoteEnv);
      expect(ok.code, ok.err).toBe(0);
      expect(ok.err).toContain('tracelab: credits charged: 0.000000');
      expect(readFileSync(join(dir, 'r.svg'), 'utf8')).toContain('<svg');
      const denied = await run(['account', '--remote'], { ...remoteEnv, VECTORIZER_API_SECRET: 'wrong' });
      expect(denied.code).toBe(2);
      expect(denied.err).toMatch(/^tracelab: remote: calling [^\n]+\ntracelab: error 10\d\d: [^\n]+\n$/);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('issue 41: VECTORIZER_API_URL alone keeps vectorize local and free; --remote calls it, saying so on every call', async () => {
    const serverData = join(dir, 'remote-server-data');
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0'], { cwd: dir, env: { ...env(), TRACELAB_DATA_DIR: serverData, TRACELAB_CREDITS: '10' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (c: Buffer) => {
        stderr += c.toString('utf8');
        const m = /tracelab: serving (http:\/\/127\.0\.0\.1:\d+\/api\/v1)\n/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    const remoteEnv = { VECTORIZER_API_URL: url, VECTORIZER_API_ID: 'tracelab', VECTORIZER_API_SECRET: 'tracelab' };
    const serverCredits = async (): Promise<number> => {
      const res = await fetch(`${url}/account`, { headers: { Authorization: `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}` } });
      return ((await res.json()) as { credits: number }).credits;
    };
    const run = (args: string[]) =>
      new Promise<{ code: number | null; err: string }>((resolve) => {
        const c = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...env(), ...remoteEnv }, stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        c.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
        c.on('exit', (code) => resolve({ code, err }));
      });
    try {
      const local = await run(['vectorize', 'red.png', '-o', 'local.svg']);
      expect(local.code, local.err).toBe(0);
      expect(local.err).toBe(`tracelab: note: VECTORIZER_API_URL is set but --remote is not: using the embedded engine, no credits; add --remote to call ${url}\n`);
      expect(await serverCredits()).toBe(10);
      const account = await run(['account']);
      expect(account.err).toContain('--remote is not: using the local service');
      const paid = await run(['vectorize', 'red.png', '-o', 'paid.svg', '--remote']);
      expect(paid.code, paid.err).toBe(0);
      expect(paid.err.split('\n')[0]).toBe(`tracelab: remote: calling ${url} (calls there may be charged credits; without --remote tracing is local and free)`);
      expect(paid.err).toContain('tracelab: credits charged: 1.000000\n');
      expect(await serverCredits()).toBe(9);
      const remoteAccount = await run(['account', '--remote']);
      expect(remoteAccount.err).toBe(`tracelab: remote: calling ${url}\n`);
    } finally {
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });

  it('serve with a bad --port is a usage error', () => {
    const r = tracelab(['serve', '--port', 'abc']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^tracelab: usage: --port/);
  });
});

describe('issue 17: output names, kept receipts, inline TRACELAB_ACCOUNT', () => {
  it('-o lemon.jpg is refused (exit 1, nothing written) unless --format is given', () => {
    const r = tracelab(['vectorize', 'red.png', '-o', 'lemon.jpg']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^tracelab: usage: cannot write '\.jpg' files \(-o lemon\.jpg\);[^\n]*--format[^\n]*\n$/);
    expect(() => readFileSync(join(dir, 'lemon.jpg'))).toThrow();
    const down = tracelab(['download', 'api-test-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '-o', 'x.webp']);
    expect(down.status).toBe(1);
    expect(down.stderr).toContain("cannot write '.webp' files");
    const forced = tracelab(['vectorize', 'red.png', '-o', 'lemon.jpg', '--format', 'svg']);
    expect(forced.status, forced.stderr).toBe(0);
    expect(readFileSync(join(dir, 'lemon.jpg'), 'utf8')).toContain('<svg');
    const bare = tracelab(['vectorize', 'red.png', '-o', 'noext']);
    expect(bare.status, bare.stderr).toBe(0);
    expect(readFileSync(join(dir, 'noext'), 'utf8')).toContain('<svg');
  });

  it('download TOKEN twice of a preview charges the 0.9 upgrade once, then 0.1 with the kept receipt', () => {
    const data = join(dir, 'receipts-data');
    const e = { TRACELAB_DATA_DIR: data };
    const made = tracelab(['vectorize', 'red.png', '-o', 'prev.svg', '--mode', 'preview', '--retention-days', '1'], e);
    expect(made.status, made.stderr).toBe(0);
    const token = /image token: (\S+)/.exec(made.stderr)![1]!;
    const credits = () => JSON.parse(tracelab(['account'], e).stdout).credits as number;
    const start = credits();
    const first = tracelab(['download', token, '-o', 'up1.svg'], e);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stderr).toContain('tracelab: credits charged: 0.900000\n');
    const receipt = /receipt: (\S+)/.exec(first.stderr)![1]!;
    expect(readFileSync(join(data, 'receipts', token), 'utf8').trim()).toBe(receipt);
    const second = tracelab(['download', token, '-o', 'up2.pdf'], e);
    expect(second.status, second.stderr).toBe(0);
    expect(second.stderr).toContain('tracelab: credits charged: 0.100000\n');
    expect(second.stderr).toContain(`used the receipt kept for this token: ${receipt}`);
    expect(credits()).toBeCloseTo(start - 1.0, 6);
    expect(tracelab(['delete', token], e).status).toBe(0);
    expect(() => readFileSync(join(data, 'receipts', token))).toThrow();
  });

  it('TRACELAB_ACCOUNT accepts inline JSON as docs/service.md shows it', () => {
    // The example of the page's configuration table, as written there.
    const page = readFileSync(join(root, 'docs', 'service.md'), 'utf8');
    const shown = /`TRACELAB_ACCOUNT='(\{[^'`]*\})'`/.exec(page)?.[1];
    expect(shown, 'docs/service.md shows TRACELAB_ACCOUNT=\'{…}\'').toBeDefined();
    const shownRun = tracelab(['account'], { TRACELAB_DATA_DIR: join(dir, 'inline-shown'), TRACELAB_ACCOUNT: shown! });
    expect(shownRun.status, shownRun.stderr).toBe(0);
    expect(JSON.parse(shownRun.stdout)).toMatchObject(JSON.parse(shown!) as object);
    const r = tracelab(['account'], { TRACELAB_DATA_DIR: join(dir, 'inline'), TRACELAB_ACCOUNT: '{"credits": 11}' });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ credits: 11 });
    const bad = tracelab(['account'], { TRACELAB_DATA_DIR: join(dir, 'inline-bad'), TRACELAB_ACCOUNT: '{"credits": -1}' });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('TRACELAB_ACCOUNT (inline JSON)');
  });
});

/**
 * Real processes for the fleet tests: `/usr/bin/redis-server` on a random loopback port with its
 * data in a temp dir (append-only file on), `tracelab serve --store redis://…` replicas (a private
 * CLI build, tests/cli/private-build.ts) and haproxy with deploy/haproxy.cfg. Nothing is installed
 * here: scripts/test-all.sh installs redis-server and haproxy.
 * In: ports/dirs/env. Out: handles with `stop()`/`kill()`; `stopAll()` ends every process started.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { root } from '../cli/private-build.js';

export const REDIS_SERVER = '/usr/bin/redis-server';
export const HAPROXY = '/usr/sbin/haproxy';
export const AUTH = `Basic ${Buffer.from('tracelab:tracelab').toString('base64')}`;

const started = new Set<ChildProcess>();

function need(path: string, pkg: string): void {
  if (!existsSync(path)) throw new Error(`${path} is missing: scripts/test-all.sh installs it (apt-get install ${pkg})`);
}

/** A port nobody listens on right now (bind :0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/** Resolves when `pattern` shows up in the child's output; rejects on exit or after `ms`. */
function waitFor(child: ChildProcess, output: () => string, pattern: RegExp, what: string, ms = 30_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start: ${output()}`)), ms);
    const check = (): void => {
      const m = pattern.exec(output());
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    };
    child.stdout?.on('data', check);
    child.stderr?.on('data', check);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code ?? signal}): ${output()}`));
    });
    check();
  });
}

export interface Proc {
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit. */
  kill(): Promise<void>;
}

function track(child: ChildProcess): Proc {
  started.add(child);
  child.once('exit', () => started.delete(child));
  let out = '';
  child.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  return {
    child,
    output: () => out,
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
    },
    async kill() {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
}

export interface RedisProc extends Proc {
  readonly port: number;
  readonly url: string;
}

/** redis-server on `port` (default a free one) with its data (AOF) in `dir`. */
export async function startRedis(dir: string, port?: number): Promise<RedisProc> {
  need(REDIS_SERVER, 'redis-server');
  const p = port ?? (await freePort());
  const child = spawn(REDIS_SERVER, ['--bind', '127.0.0.1', '--port', String(p), '--dir', dir, '--appendonly', 'yes', '--save', '', '--daemonize', 'no', '--protected-mode', 'yes'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = track(child);
  await waitFor(child, proc.output, /Ready to accept connections/, 'redis-server');
  return { ...proc, port: p, url: `redis://127.0.0.1:${p}/0` };
}

export interface Replica extends Proc {
  readonly port: number;
  /** http://127.0.0.1:PORT/api/v1 */
  readonly url: string;
}

/** Clean environment for `serve`: nothing from the caller's account or remote settings. */
export function serveEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  // Replicas in these tests sit behind haproxy, which sets X-Tracelab-Request-Id (scripts/fleet.sh does the same).
  const env: NodeJS.ProcessEnv = { ...process.env, TRACELAB_THREADS: '1', TRACELAB_TRUST_REQUEST_ID: '1', ...extra };
  for (const name of ['VECTORIZER_API_URL', 'TRACELAB_ACCOUNT', 'TRACELAB_PLAN', 'TRACELAB_STATE', 'TRACELAB_API_ID', 'TRACELAB_API_SECRET', 'TRACELAB_REDIS_URL']) {
    if (!(name in extra)) delete env[name];
  }
  return env;
}

/** `node BIN serve --port PORT [--store URL]`; resolves once it listens. */
export async function startReplica(bin: string, cwd: string, options: { port?: number; store?: string; env?: Record<string, string> }): Promise<Replica> {
  const port = options.port ?? (await freePort());
  const args = [bin, 'serve', '--port', String(port), ...(options.store ? ['--store', options.store] : [])];
  const child = spawn(process.execPath, args, { cwd, env: serveEnv(options.env ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = track(child);
  await waitFor(child, proc.output, /tracelab: serving http:\/\/127\.0\.0\.1:\d+\/api\/v1\n/, 'tracelab serve');
  return { ...proc, port, url: `http://127.0.0.1:${port}/api/v1` };
}

export interface HaproxyProc extends Proc {
  readonly port: number;
  readonly url: string;
}

/** haproxy with deploy/haproxy.cfg, its `server` lines replaced by `backends`. */
export async function startHaproxy(dir: string, backends: readonly number[]): Promise<HaproxyProc> {
  need(HAPROXY, 'haproxy');
  const port = await freePort();
  const template = readFileSync(join(root, 'deploy', 'haproxy.cfg'), 'utf8');
  const servers = backends.map((p, i) => `    server r${i + 1} 127.0.0.1:${p}`).join('\n');
  const cfg = join(dir, 'haproxy.cfg');
  writeFileSync(cfg, template.replace(/^ {4}server r\d.*$\n?/gm, '') + servers + '\n');
  const child = spawn(HAPROXY, ['-db', '-f', cfg], {
    env: { ...process.env, TRACELAB_FLEET_BIND: `127.0.0.1:${port}`, TRACELAB_DEPLOY_DIR: join(root, 'deploy') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc = track(child);
  // haproxy prints nothing when it starts well: wait until the port answers.
  const url = `http://127.0.0.1:${port}/api/v1`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {
      if (child.exitCode !== null || i > 100) throw new Error(`haproxy did not start: ${proc.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return { ...proc, port, url };
}

/** Polls `url` until it answers 200 (e.g. a replica's /readyz after Redis came back). */
export async function until200(url: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > end) throw new Error(`${url} did not answer 200 within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGKILLs every process these helpers started and is still running. */
export async function stopAll(): Promise<void> {
  const all = [...started];
  for (const c of all) c.kill('SIGKILL');
  await Promise.all(all.map(exited));
}

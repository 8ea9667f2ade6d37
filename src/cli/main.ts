/**
 * Entry point of the `tracelab` command (bundled to dist-cli/tracelab.cjs, which bin/tracelab.js
 * runs with V8's code cache, and to dist-cli/tracelab.mjs for in-process callers). No side effects
 * on import: `main` returns the exit status.
 */

import { basename } from 'node:path';
import { version } from '../../package.json';
import { TracelabError } from '../engine/errors.js';
import type { VectorizeInput } from '../api/client.js';
import { parseArgs, UsageError, type Command } from './args.js';
import { writeFileAtomically } from './atomic-write.js';
import { helpText } from './help.js';
import { readNamedFile } from './read-input.js';

/**
 * The trace worker bundle, next to the CLI bundle (dist-cli/trace-thread.mjs). This module is the
 * bundle's entry, so its import.meta.url is dist-cli/tracelab.cjs or .mjs (chunks live in dist-cli/chunks/).
 */
const TRACE_THREAD_ENTRY = new URL('./trace-thread.mjs', import.meta.url);

export const EXIT_OK = 0;
export const EXIT_USAGE = 1;
export const EXIT_ERROR = 2;
/**
 * `serve` could not start for a reason a restart does not fix (the port is taken, the address is
 * not this machine's, no permission to bind): supervisors (scripts/fleet.sh, systemd's
 * RestartPreventExitStatus) stop instead of restarting it in a loop.
 */
export const EXIT_CANNOT_START = 3;

/** listen() errors that another try will meet again. */
const LASTING_LISTEN_ERRORS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is already in use (another process listens there; choose another --port or stop it)',
  EADDRNOTAVAIL: 'the address is not one of this machine\'s (check --host)',
  EACCES: 'no permission to listen there (ports below 1024 need privileges)',
};

export interface CliIo {
  readStdin(): Promise<Uint8Array>;
  writeStdout(data: Uint8Array | string): Promise<void>;
  writeStderr(text: string): void;
  /** Whether standard error is a terminal (batch progress bar); false when absent. */
  stderrIsTty?(): boolean;
}

export const nodeIo: CliIo = {
  async readStdin() {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  },
  writeStdout(data) {
    return new Promise((resolve, reject) => {
      process.stdout.write(data, (err) => (err ? reject(err) : resolve()));
    });
  },
  writeStderr(text) {
    process.stderr.write(text);
  },
  stderrIsTty() {
    return process.stderr.isTTY === true;
  },
};

export async function main(argv: readonly string[], io: CliIo = nodeIo): Promise<number> {
  try {
    const command = parseArgs(argv);
    switch (command.kind) {
      case 'help':
        await io.writeStdout(helpText(version));
        return EXIT_OK;
      case 'version':
        await io.writeStdout(`${version}\n`);
        return EXIT_OK;
      case 'vectorize': {
        // Remote only with --remote: a set VECTORIZER_API_URL alone never turns a free local trace into a paid call.
        if (command.remote === true || command.service === true) {
          return await runServiceVerb(command, io);
        }
        io.writeStderr(ignoredRemoteUrlNote(false));
        const phases = processPhases();
        // Loaded on demand (lean start): --help, --version and the service verbs never load the
        // engine, the decoders or the writers.
        const { planVectorize, runVectorize, smallShapeCounts } = await import('./vectorize.js');
        phases.end('load');
        const plan = planVectorize(command.fields); // bad parameters fail before any input is read
        const bytes = command.input === '-' ? await io.readStdin() : await readInput(command.input);
        phases.end('read');
        const result = await runVectorize(plan, bytes);
        phases.end('run');
        if (command.output === '-') await io.writeStdout(result.body);
        else await writeAtomically(command.output, result.body);
        phases.end('output');
        // TRACELAB_TIMINGS=1: per-stage milliseconds on stderr as one JSON line (the bench reads it),
        // after the process's own phases: start-up (process start to here), loading the trace code,
        // reading the input, the whole trace call (decode to write) and writing the output file.
        if (process.env.TRACELAB_TIMINGS === '1') {
          const rounded = Object.fromEntries(Object.entries({ ...phases.ms, ...result.timings }).map(([k, v]) => [k, Math.round(v * 10) / 10]));
          io.writeStderr(`tracelab-timings ${JSON.stringify(rounded)}\n`);
        }
        // TRACELAB_STATS=1: what the engine decided — the profile and why, colours, regions — on
        // stderr as one JSON line (the playground shows the same in its stats line).
        if (process.env.TRACELAB_STATS === '1') {
          const { profile, profileReason, colors, regions, strokes, smallShapeKinds } = result.result.stats;
          const small = smallShapeCounts(result.result);
          io.writeStderr(`tracelab-stats ${JSON.stringify({ profile, profileReason, colors, regions, shapes: result.result.shapes.length, ...small, ...(smallShapeKinds ? { smallShapeKinds } : {}), ...(strokes ? { strokes } : {}) })}\n`);
        }
        return EXIT_OK;
      }
      case 'batch': {
        // Loaded on demand, like the service: a single trace does not load the batch code.
        const { runBatch, summaryLines } = await import('./batch.js');
        let remote: { client: () => import('../api/client.js').ApiClient } | undefined;
        if (command.remote === true) {
          const [{ readConfig }, { connectRemote, notSentLine, remoteNotice }] = await Promise.all([import('./config.js'), import('./remote.js')]);
          const config = readConfig();
          remote = { client: () => connectRemote(config).client };
          io.writeStderr(remoteNotice(config, 'batch'));
          io.writeStderr(notSentLine(remote.client(), command.fields));
        } else {
          io.writeStderr(ignoredRemoteUrlNote(false));
        }
        const result = await runBatch({
          ...(remote ? { remote } : {}),
          inputs: command.inputs,
          outDir: command.outDir,
          fields: command.fields,
          ...(command.jobs !== undefined ? { jobs: command.jobs } : {}),
          ...(command.quiet ? { quiet: true } : {}),
          traceThread: TRACE_THREAD_ENTRY,
          writeStderr: (t) => io.writeStderr(t),
          tty: io.stderrIsTty?.() ?? false,
        });
        for (const line of summaryLines(result)) io.writeStderr(`${line}\n`);
        return result.failed.length > 0 ? EXIT_ERROR : EXIT_OK;
      }
      case 'download':
      case 'delete':
      case 'account':
        return await runServiceVerb(command, io);
      case 'serve': {
        // Loaded on demand: the plain trace never loads the service.
        const [{ readConfig }, { runServe }] = await Promise.all([import('./config.js'), import('./serve.js')]);
        const config = readConfig();
        // --store wins over TRACELAB_REDIS_URL; `--store disk` forces the data directory.
        const redisUrl = command.store === undefined ? config.redisUrl : command.store === 'disk' ? undefined : command.store;
        const lasting = (e: unknown): string | undefined => LASTING_LISTEN_ERRORS[String((e as { code?: unknown } | null)?.code)];
        await runServe({
          host: command.host,
          port: command.port,
          config: { ...config, redisUrl },
          allowDefaultSecret: command.allowDefaultSecret === true,
          writeStderr: (t) => io.writeStderr(t),
          // The worker-thread entry is bundled next to this file (scripts/build-cli.mjs).
          traceThread: TRACE_THREAD_ENTRY,
        }).catch((e: unknown) => {
          const why = lasting(e);
          if (why === undefined) throw e;
          throw Object.assign(new Error(`cannot start: cannot listen on ${command.host}:${command.port}: ${why}`), { exitStatus: EXIT_CANNOT_START });
        });
        return EXIT_OK;
      }
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.writeStderr(`tracelab: usage: ${oneLine(err.message)} (see tracelab --help)\n`);
      return EXIT_USAGE;
    }
    if (err instanceof TracelabError || isApiClientError(err)) {
      io.writeStderr(`tracelab: error ${err.code}: ${oneLine(err.message)}\n`);
      return EXIT_ERROR;
    }
    io.writeStderr(`tracelab: error: ${oneLine(err instanceof Error ? err.message : String(err))}\n`);
    return (err as { exitStatus?: unknown } | null)?.exitStatus === EXIT_CANNOT_START ? EXIT_CANNOT_START : EXIT_ERROR;
  }
}

type ServiceCommand = Extract<Command, { kind: 'vectorize' | 'download' | 'delete' | 'account' }>;

/**
 * A verb through the `/api/v1` service: the local one in-process (TRACELAB_DATA_DIR), or with
 * `--remote` the HTTP service VECTORIZER_API_URL (default the real one).
 */
async function runServiceVerb(command: ServiceCommand, io: CliIo): Promise<number> {
  const [{ readConfig }, { connectLocal, connectRemote, describeResult, notSentLine, remoteNotice, base64Of, readKeptReceipt, keepReceipt, forgetReceipt }] = await Promise.all([
    import('./config.js'),
    import('./remote.js'),
  ]);
  const config = readConfig();
  const remote = command.remote === true;
  if (remote) io.writeStderr(remoteNotice(config, command.kind));
  else io.writeStderr(ignoredRemoteUrlNote(true));
  const connection = remote
    ? connectRemote(config)
    : connectLocal(config, (e) => io.writeStderr(`tracelab: warning: ${oneLine(e instanceof Error ? e.message : String(e))}\n`));
  try {
    const { client } = connection;
    switch (command.kind) {
      case 'vectorize': {
        let input: VectorizeInput;
        if (command.source === 'url') input = { url: command.input };
        else if (command.source === 'token') input = { token: command.input };
        else if (command.source === 'base64') input = { base64: await base64Of(command.input, () => io.readStdin()) };
        else {
          const bytes = command.input === '-' ? await io.readStdin() : await readInput(command.input);
          input = { image: bytes, filename: command.input === '-' ? 'image' : basename(command.input) };
        }
        io.writeStderr(notSentLine(client, command.fields));
        const result = await client.vectorize(input, command.fields);
        await writeOutput(command.output, result.body, io);
        io.writeStderr(describeResult(result));
        return EXIT_OK;
      }
      case 'download': {
        // The receipt of an earlier upgrade of this token (kept in the data dir) unless one is given:
        // without it every download of a preview token would be charged the 0.9 upgrade again.
        const given = command.fields.some(([name]) => name === 'receipt');
        const kept = given ? undefined : await readKeptReceipt(config.dataDir, command.token);
        const fields: readonly [string, string][] = kept === undefined ? command.fields : [...command.fields, ['receipt', kept]];
        io.writeStderr(notSentLine(client, fields));
        const result = await client.download(command.token, fields);
        await writeOutput(command.output, result.body, io);
        if (result.receipt !== undefined) await keepReceipt(config.dataDir, command.token, result.receipt);
        io.writeStderr(describeResult(result));
        if (kept !== undefined) io.writeStderr(`tracelab: used the receipt kept for this token: ${kept}\n`);
        return EXIT_OK;
      }
      case 'delete': {
        const answer = await client.delete(command.token);
        await forgetReceipt(config.dataDir, command.token);
        await io.writeStdout(`${JSON.stringify(answer)}\n`);
        return EXIT_OK;
      }
      case 'account':
        await io.writeStdout(`${JSON.stringify(await client.account())}\n`);
        return EXIT_OK;
    }
  } finally {
    await connection.finish();
  }
}

/**
 * Milliseconds of a one-image process's phases: `startup` from the process's start (performance's
 * time origin) to this call, then each `end(name)` the time since the previous mark.
 */
function processPhases(): { ms: Record<string, number>; end(name: string): void } {
  let last = performance.now();
  const ms: Record<string, number> = { startup: last };
  return {
    ms,
    end(name) {
      const now = performance.now();
      ms[name] = now - last;
      last = now;
    },
  };
}

async function writeOutput(path: string, body: Uint8Array, io: CliIo): Promise<void> {
  if (path === '-') await io.writeStdout(body);
  else await writeAtomically(path, body);
}

function readInput(path: string): Promise<Uint8Array> {
  return readNamedFile(path, 'INPUT');
}

/**
 * Writes OUTPUT through a temp file next to it, fsync and rename (atomic-write.ts): a failure
 * (disk full, I/O error) leaves no partial OUTPUT and no temp file, and is one readable error line.
 */
async function writeAtomically(path: string, body: Uint8Array): Promise<void> {
  try {
    await writeFileAtomically(path, body);
  } catch (err) {
    throw new Error(`cannot write OUTPUT '${path}': ${(err as Error).message}`);
  }
}

/**
 * The stderr note for a VECTORIZER_API_URL set without --remote ('' when it is not set): the
 * variable only says where --remote goes, so the user who set it learns the call stayed here.
 */
function ignoredRemoteUrlNote(localService: boolean): string {
  const url = process.env['VECTORIZER_API_URL']?.trim();
  if (!url) return '';
  const where = localService ? 'the local service (TRACELAB_DATA_DIR)' : 'the embedded engine, no credits';
  return `tracelab: note: VECTORIZER_API_URL is set but --remote is not: using ${where}; add --remote to call ${url}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * An error of the API client (src/api/client.ts), told by its shape: importing the class here
 * would load the client for every command.
 */
function isApiClientError(err: unknown): err is Error & { code: number } {
  return err instanceof Error && err.name === 'ApiClientError' && typeof (err as { code?: unknown }).code === 'number';
}

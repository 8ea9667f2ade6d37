/**
 * The same API contract as tests/api/service.test.ts, but over real HTTP: the handler behind
 * the Node server (src/cli/server.ts) on an ephemeral loopback port, with a directory store.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { LocalAccount } from '../../src/api/account.js';
import { createService } from '../../src/api/service.js';
import { createDirectoryStore } from '../../src/api/storage/directory.js';
import { startServer, type RunningServer } from '../../src/cli/server.js';
import { CONTRACT_CREDENTIALS, CONTRACT_EPOCH, runContract } from '../api/contract.js';

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

function seededRandom(): (bytes: Uint8Array) => Uint8Array {
  let s = 12345;
  return (bytes) => {
    for (let i = 0; i < bytes.length; i++) {
      s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
      bytes[i] = s >>> 24;
    }
    return bytes;
  };
}

runContract(async (setup) => {
  let t = CONTRACT_EPOCH;
  const handler = createService({
    store: createDirectoryStore(mkdtempSync(join(tmpdir(), 'tracelab-contract-'))),
    account: new LocalAccount(setup.account),
    credentials: CONTRACT_CREDENTIALS,
    now: () => t,
    random: seededRandom(),
    ...(setup.fetchImage ? { fetchImage: setup.fetchImage } : {}),
  });
  const server = await startServer({ handler, port: 0 });
  servers.push(server);
  return { baseUrl: `${server.url.replace(/\/$/, '')}/api/v1`, fetch: (input, init) => fetch(input, init), advance: (ms) => void (t += ms) };
});

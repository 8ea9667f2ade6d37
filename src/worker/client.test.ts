import { expose } from 'comlink';
import { describe, expect, it } from 'vitest';

import { TracelabError } from '../engine/errors.js';
import { createTracerClient, TracerAbortedError } from './client.js';
import type { TracerApi, VectorizeResult } from './protocol.js';
import { toErrorPayload } from './vectorize.js';

const RESULT: VectorizeResult = {
  svg: '<?xml version="1.0"?><svg/>',
  outlineSvg: '<?xml version="1.0"?><svg/>',
  previewPng: null,
  stats: { profile: 'flat', colors: 1, regions: 1, shapes: 1, bytes: 27, nodes: 4, palette: [{ hex: '#FFFFFF', areaPx: 1, shapes: 1 }] },
  width: 1,
  height: 1,
  ms: 0,
};

/** A MessageChannel standing in for the Worker; the "worker side" exposes `api` with comlink. */
function fakeWorkers(api: Pick<TracerApi, 'vectorize'>) {
  const log = { started: 0, terminated: 0, received: [] as Uint8Array[] };
  const spawn = (): Worker => {
    log.started++;
    const { port1, port2 } = new MessageChannel();
    expose(
      {
        vectorize(bytes: Uint8Array, fields: [string, string][]) {
          log.received.push(bytes);
          return api.vectorize(bytes, fields);
        },
      },
      port2 as unknown as MessagePort,
    );
    return Object.assign(port1, {
      terminate() {
        log.terminated++;
        port1.close();
        port2.close();
      },
    }) as unknown as Worker;
  };
  return { spawn, log };
}

describe('createTracerClient', () => {
  it('returns the result and transfers the bytes', async () => {
    const { spawn, log } = fakeWorkers({ vectorize: async () => RESULT });
    const client = createTracerClient(spawn);
    const bytes = new Uint8Array([1, 2, 3]);
    await expect(client.vectorize(bytes, [])).resolves.toEqual(RESULT);
    expect(bytes.byteLength).toBe(0); // detached: transferred, not copied
    expect([...log.received[0]!]).toEqual([1, 2, 3]);
    client.dispose();
    expect(log.terminated).toBe(1);
  });

  it('rethrows the plain error payload as a TracelabError with its code', async () => {
    const { spawn } = fakeWorkers({
      vectorize: async () => {
        throw toErrorPayload(new TracelabError(1006, 400, 'Failed to read the supplied image: corrupt PNG data'));
      },
    });
    const client = createTracerClient(spawn);
    const err = await client.vectorize(new Uint8Array([0]), []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TracelabError);
    expect(err).toMatchObject({ code: 1006, status: 400, message: 'Failed to read the supplied image: corrupt PNG data' });
    client.dispose();
  });

  it('a newer request terminates the worker of the older one, which rejects as aborted', async () => {
    const { spawn, log } = fakeWorkers({
      // Image [1] never finishes (a long trace); anything else answers at once.
      vectorize: (bytes) => (bytes[0] === 1 ? new Promise<VectorizeResult>(() => {}) : Promise.resolve(RESULT)),
    });
    const client = createTracerClient(spawn);
    const first = client.vectorize(new Uint8Array([1]), []);
    await new Promise((r) => setTimeout(r, 20)); // let the worker start on it
    const second = client.vectorize(new Uint8Array([2]), []);
    await expect(first).rejects.toBeInstanceOf(TracerAbortedError);
    await expect(second).resolves.toEqual(RESULT);
    expect(log).toMatchObject({ started: 2, terminated: 1 });
    client.abort(); // nothing running: no-op
    expect(log).toMatchObject({ started: 2, terminated: 1 });
    // An explicit abort of a running trace: terminate and respawn.
    const third = client.vectorize(new Uint8Array([1]), []);
    await new Promise((r) => setTimeout(r, 20));
    client.abort();
    await expect(third).rejects.toBeInstanceOf(TracerAbortedError);
    expect(log).toMatchObject({ started: 3, terminated: 2 });
    client.dispose();
    expect(log).toMatchObject({ started: 3, terminated: 3 });
  });
});

/**
 * The trace worker (the only `expose` in the project): bytes + API fields in, SVG + stats out,
 * off the main thread. The work itself is vectorize.ts. A failure leaves as a plain
 * `{ code, status, message }` object — a TracelabError would lose its class and code in structured
 * clone — and client.ts turns it back into a TracelabError.
 */

import { expose } from 'comlink';

import type { TracerApi, VectorizeResult } from './protocol.js';
import { toErrorPayload, vectorizeInWorker } from './vectorize.js';

const api: TracerApi = {
  async vectorize(bytes: Uint8Array, fields: [string, string][]): Promise<VectorizeResult> {
    try {
      return await vectorizeInWorker(bytes, fields);
    } catch (err) {
      // comlink rethrows a thrown non-Error value unchanged on the caller's side.
      throw toErrorPayload(err);
    }
  },
};

expose(api);

/**
 * The library's trace worker (`tracelab` in a browser; bundled to dist-lib/browser/worker.js).
 * In: a TraceJob (image bytes or pixels + API fields, transferred) and an optional comlink-proxied
 * progress callback. Out: the file, its media type and stats — `runTraceJob`, the same function
 * the Node trace threads and the HTTP service run, so the bytes are the CLI's. Failures leave as
 * the plain `{ code, status, message }` payload (protocol.ts); library-pool.ts rebuilds the
 * TracelabError. Decoders and non-SVG writers load on demand (dynamic imports → separate chunks).
 */
import { expose, transfer } from 'comlink';

import { runTraceJob, type JobProgress, type TraceJob, type TraceJobResult } from '../api/service-trace.js';
import { toErrorPayload } from './protocol.js';

export interface LibraryWorkerApi {
  run(job: TraceJob, onProgress?: (progress: JobProgress) => void): Promise<TraceJobResult>;
}

const api: LibraryWorkerApi = {
  async run(job, onProgress) {
    try {
      const out = await runTraceJob(job, onProgress);
      return transfer(out, [out.body.buffer as ArrayBuffer]);
    } catch (err) {
      throw toErrorPayload(err);
    }
  },
};

expose(api);

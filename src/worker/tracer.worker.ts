/**
 * The trace worker (the only `expose` in the project). The page runs two: a preview worker
 * (vectorize: bytes + API fields in, SVG + stats out) and an export worker (files in any format,
 * and the in-browser local service with its IndexedDB store and account). The work itself is in
 * vectorize.ts and service-host.ts. A failure leaves as a plain `{ code, status, message }` object
 * — a TracelabError would lose its class and code in structured clone — and client.ts turns it
 * back into a TracelabError. Each trace worker splits large images over engine threads of its
 * own (nested web workers, src/pool/web-pool.ts), which stop when it is terminated.
 */

import { expose, transfer } from 'comlink';

import type { JobPool } from '../pool/job-pool.js';
import { createWebJobPool, defaultWebThreads } from '../pool/web-pool.js';
import type { TracerApi } from './protocol.js';
import { createServiceHost, type ServiceHost } from './service-host.js';
import { browserPreviewCodec, shrinkToPng } from './preview-codec.js';
import { cancelVectorize, exportInWorker, renderOutlineInWorker, renderViewInWorker, toErrorPayload, vectorizeInWorker } from './vectorize.js';

let host: ServiceHost | undefined;
const previewCodec = browserPreviewCodec();
const service = (): ServiceHost => (host ??= createServiceHost());
// Engine threads of this worker: large images are split over them (jobs.ts); same bytes.
let threads: JobPool | undefined;
const engineThreads = (): JobPool | undefined => {
  const count = defaultWebThreads();
  return count > 1 ? (threads ??= createWebJobPool(count)) : undefined;
};

/** Runs `work`; a failure becomes the plain error payload (comlink rethrows it unchanged). */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw toErrorPayload(err);
  }
}

const api: TracerApi = {
  // Large images show a draft first, shrunk and encoded by the browser's own codecs (preview-codec.ts),
  // which also paint a large result's preview PNG.
  vectorize: (bytes, fields, onProgress) =>
    guarded(async () => {
      const out = await vectorizeInWorker(bytes, fields, onProgress, engineThreads(), previewCodec);
      // The file and the preview are handed over, not copied (this worker keeps neither).
      return transfer(out, [out.svgBytes.buffer as ArrayBuffer, ...(out.previewPng ? [out.previewPng.buffer as ArrayBuffer] : [])]);
    }),
  cancel: async () => cancelVectorize(),
  exportFile: (bytes, fields) =>
    guarded(async () => {
      const out = await exportInWorker(bytes, fields, engineThreads());
      return transfer(out, [out.body.buffer as ArrayBuffer]);
    }),
  renderView: (bytes, fields, view) =>
    guarded(async () => {
      const out = await renderViewInWorker(bytes, fields, view, engineThreads());
      return transfer(out, [out.rgba.buffer as ArrayBuffer]);
    }),
  renderOutline: (bytes, fields) =>
    guarded(async () => {
      const out = await renderOutlineInWorker(bytes, fields, engineThreads(), previewCodec);
      return transfer(out, [out.body.buffer as ArrayBuffer]);
    }),
  shrinkImage: (bytes, maxPixels) =>
    guarded(async () => {
      const out = await shrinkToPng(bytes, maxPixels);
      return transfer(out, [out.png.buffer as ArrayBuffer]);
    }),
  callService: (request) =>
    guarded(async () => {
      const out = await service().call(request);
      return transfer(out, [out.body.buffer as ArrayBuffer]);
    }),
  account: () => guarded(() => service().account()),
  setAccount: (status) => guarded(() => service().setAccount(status)),
  resetAccount: () => guarded(() => service().resetAccount()),
  listRetained: () => guarded(() => service().listRetained()),
};

expose(api);

/**
 * The worker's job as a plain function (no comlink, no worker globals) so it runs in Node tests too:
 * bytes + API fields → parseOptions (src/api) → decodeImage (src/decode) → traceImage (src/engine)
 * → writeSvg (src/formats) → SVG + stats. Throws TracelabError (1006, 1013, 1019, …).
 */

import { parseOptions, toEngineParams, toOutputOptions } from '../api/index.js';
import { decodeImage } from '../decode/index.js';
import { parameterError, TracelabError } from '../engine/errors.js';
import { traceImage } from '../engine/index.js';
import { writeSvg } from '../formats/svg.js';
import { countFilledPaths, type VectorizeResult, type WorkerErrorPayload } from './protocol.js';

export async function vectorizeInWorker(bytes: Uint8Array, fields: Iterable<readonly [string, string]>): Promise<VectorizeResult> {
  const start = performance.now();
  // Options first: a bad parameter fails before any pixel is decoded (as the CLI does).
  const options = parseOptions(fields, 'vectorize');
  const outputOptions = toOutputOptions(options);
  if (outputOptions.fileFormat !== 'svg') {
    throw parameterError(
      `output.file_format=${outputOptions.fileFormat} is a valid API value, but the playground writes only svg so far`,
    );
  }
  const decoded = await decodeImage(bytes);
  const result = traceImage({ width: decoded.width, height: decoded.height, data: decoded.data }, toEngineParams(options));
  const svg = writeSvg(result, outputOptions);
  return {
    svg,
    stats: {
      profile: result.stats.profile,
      colors: result.stats.colors,
      regions: result.stats.regions,
      shapes: countFilledPaths(svg),
      bytes: new TextEncoder().encode(svg).length,
    },
    width: decoded.width,
    height: decoded.height,
    ms: Math.round((performance.now() - start) * 10) / 10,
  };
}

/** Any thrown value as the plain `{ code, status, message }` that crosses the worker boundary. */
export function toErrorPayload(err: unknown): WorkerErrorPayload {
  if (err instanceof TracelabError) return { code: err.code, status: err.status, message: err.message };
  const detail = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  return { code: 0, status: 500, message: `Internal error while tracing (${detail})` };
}

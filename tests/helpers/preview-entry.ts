/**
 * Browser entry for tests/helpers/preview-canvas.ts: exposes `paintPreview(result, options)`, which
 * builds the PNG plan of a trace and paints it with the playground's canvas codec
 * (src/worker/preview-codec.ts), returning the PNG as base64. Bundled with esbuild at test time.
 */
import type { TraceResult } from '../../src/engine/types.js';
import { buildPlan } from '../../src/formats/plan.js';
import { outputOptions, type OutputOptions } from '../../src/formats/types.js';
import { browserPreviewCodec } from '../../src/worker/preview-codec.js';

async function paintPreview(result: TraceResult, more: Partial<OutputOptions>): Promise<string> {
  const codec = browserPreviewCodec();
  if (!codec) throw new Error('this browser has no OffscreenCanvas or createImageBitmap');
  const { png } = await codec.paint(buildPlan(result, outputOptions({ ...more, fileFormat: 'png' })));
  let text = '';
  for (const byte of png) text += String.fromCharCode(byte);
  return btoa(text);
}

(globalThis as { paintPreview?: typeof paintPreview }).paintPreview = paintPreview;

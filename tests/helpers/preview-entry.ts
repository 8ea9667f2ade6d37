/**
 * Browser entry for tests/helpers/preview-canvas.ts: exposes `paintPreview(result, options)`, which
 * builds the PNG plan of a trace and paints it with the playground's canvas codec
 * (src/worker/preview-codec.ts), returning the PNG as base64. Bundled with esbuild at test time.
 */
import { SegmentPath } from '../../src/engine/segment-path.js';
import type { Chain, Segment, TraceResult } from '../../src/engine/types.js';
import { buildPlan } from '../../src/formats/plan.js';
import { outputOptions, type OutputOptions } from '../../src/formats/types.js';
import { browserPreviewCodec } from '../../src/worker/preview-codec.js';

async function paintPreview(stored: TraceResult, more: Partial<OutputOptions>): Promise<string> {
  // Chains arrive with their segments as objects (JSON): back to typed paths.
  const chains = stored.chains.map((c): Chain => ({ ...c, segments: SegmentPath.of(c.segments as unknown as Segment[]) }));
  const result: TraceResult = { ...stored, chains };
  const codec = browserPreviewCodec();
  if (!codec) throw new Error('this browser has no OffscreenCanvas or createImageBitmap');
  const { png } = await codec.paint(buildPlan(result, outputOptions({ ...more, fileFormat: 'png' })));
  let text = '';
  for (const byte of png) text += String.fromCharCode(byte);
  return btoa(text);
}

(globalThis as { paintPreview?: typeof paintPreview }).paintPreview = paintPreview;

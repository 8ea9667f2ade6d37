/**
 * One entry point for every output format. The text writers hand over their file's bytes
 * directly (they write into byte buffers; src/formats/text-sink.ts), so no text is encoded here.
 * In: a TraceResult and output options. Out: the file's bytes. The plan (src/formats/plan.ts)
 * is built once per call; each format has its own writer module.
 */
import type { TraceResult } from '../engine/types.js';
import { buildPlan, type OutputPlan } from '../formats/plan.js';
import { writeSvgBytes } from '../formats/svg.js';
import type { OutputOptions } from '../formats/types.js';

export async function writeFile(result: TraceResult, options: OutputOptions): Promise<Uint8Array> {
  return writePlanFile(buildPlan(result, options));
}

export async function writePlanFile(plan: OutputPlan): Promise<Uint8Array> {
  switch (plan.options.fileFormat) {
    case 'svg':
      return writeSvgBytes(plan);
    // The other writers load on first use: pdf-lib alone is most of the CLI's start-up time.
    case 'pdf':
      return (await import('../formats/pdf.js')).writePdf(plan);
    case 'eps':
      return (await import('../formats/eps.js')).writeEpsBytes(plan);
    case 'dxf':
      return (await import('../formats/dxf.js')).writeDxfBytes(plan);
    case 'png':
      return (await import('../formats/png.js')).writePlanPng(plan);
  }
}

/**
 * One entry point for every output format (in src/api: it encodes text, which the pure formats
 * layer, typechecked without DOM or Node types, leaves to its callers).
 * In: a TraceResult and output options. Out: the file's bytes. The plan (src/formats/plan.ts)
 * is built once per call; each format has its own writer module.
 */
import type { TraceResult } from '../engine/types.js';
import { buildPlan, type OutputPlan } from '../formats/plan.js';
import { writeSvgPlan } from '../formats/svg.js';
import type { OutputOptions } from '../formats/types.js';

export async function writeFile(result: TraceResult, options: OutputOptions): Promise<Uint8Array> {
  return writePlanFile(buildPlan(result, options));
}

export async function writePlanFile(plan: OutputPlan): Promise<Uint8Array> {
  switch (plan.options.fileFormat) {
    case 'svg':
      return utf8(writeSvgPlan(plan));
    // The other writers load on first use: pdf-lib alone is most of the CLI's start-up time.
    case 'pdf':
      return (await import('../formats/pdf.js')).writePdf(plan);
    case 'eps':
      return utf8((await import('../formats/eps.js')).writeEps(plan));
    case 'dxf':
      return utf8((await import('../formats/dxf.js')).writeDxf(plan));
    case 'png':
      return (await import('../formats/png.js')).writePlanPng(plan);
  }
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

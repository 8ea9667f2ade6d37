/**
 * What Tracelab decided about an image, which its CLI does not print: the image profile (pixel,
 * flat or photo) and the parameterized shapes it fitted, by family (circle, ellipse, rectangle,
 * triangle, quadrilateral, bullet, star). Triangles, quadrilaterals, bullets and stars are written
 * as plain <path>s, so they cannot be counted in the SVG; this traces the image again in this
 * process through the CLI's own pipeline (src/api/pipeline.ts, bundled by scripts/ts-module.mjs,
 * as bench/warm.mjs does), with the same params, and reads the result.
 *
 * In: image files and the `--param` list (name=value strings). Out: per file { profile, shapes:
 * { family: count }, svg } (svg: the output's text, so the caller can check it is the CLI's bytes).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTs } from '../scripts/ts-module.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Primitive families of the engine (ShapePrimitive['family']), in report order. */
export const FAMILIES = ['circle', 'ellipse', 'rectangle', 'quadrilateral', 'bullet', 'triangle', 'star'];

/** Shapes by primitive family of a TraceResult's `shapes` (every family present, 0 when none). */
export function familyCounts(shapes) {
  const counts = Object.fromEntries(FAMILIES.map((f) => [f, 0]));
  for (const s of shapes) {
    const f = s.primitive?.family;
    if (f) counts[f] = (counts[f] ?? 0) + 1;
  }
  return counts;
}

/** A tracer of files: async (file) → { profile, shapes, svg }. `params`: ['name=value', ...]. */
export async function tracelabFacts(params = []) {
  // The bundle goes to node_modules/.cache/<name>; several checkouts may share node_modules, so the
  // name carries this checkout's path.
  const tag = createHash('sha1').update(ROOT).digest('hex').slice(0, 8);
  const { planVectorize, runVectorize } = await loadTs(ROOT, `bench-facts-${tag}`, 'src/api/pipeline.ts');
  const plan = planVectorize(params.map((p) => {
    const i = p.indexOf('=');
    return [p.slice(0, i), p.slice(i + 1)];
  }));
  return async (file) => {
    const out = await runVectorize(plan, new Uint8Array(readFileSync(file)));
    return { profile: out.result.stats.profile, shapes: familyCounts(out.result.shapes), svg: Buffer.from(out.body) };
  };
}

/**
 * Gradients as PDF / PostScript LanguageLevel 3 smooth shadings (PDF 1.4 §4.6.3, PLRM3 §4.9.3),
 * shared by the PDF and EPS writers.
 * In: a Gradient in traced coordinates (src/formats/gradient.ts) and a colour conversion.
 * Out: the shading dictionary as a plain literal — names as strings, numbers already rounded, so
 * the PDF writer hands it to pdf-lib's `context.obj` and the EPS writer prints it with psLiteral,
 * and both files carry the same numbers:
 *   ShadingType 2 (axial, Coords [x1 y1 x2 y2]) or 3 (radial, Coords [cx cy 0 cx cy r]),
 *   ColorSpace DeviceRGB, Extend [true true] (the end colours pad, as in SVG), and Function: one
 *   exponential interpolation (type 2, N 1) per ramp piece, joined by a stitching function
 *   (type 3, Bounds between pieces, each piece's Encode [0 1]) when there are several.
 * The coordinates stay traced: the caller's pattern matrix maps them exactly as it maps paths. An
 * elliptical radial gradient is written as its circle (centre, r); the caller's matrix composes
 * the circle → ellipse map (src/formats/gradient.ts: ellipseMap).
 */
import type { Gradient, Rgba } from '../engine/types.js';
import { rampPieces } from './gradient.js';
import { formatNumber } from './ps-path.js';

/** A PDF / PostScript object as a literal: a string is a name. */
export type PsLiteral = number | boolean | string | readonly PsLiteral[] | { readonly [key: string]: PsLiteral };

/** The shading dictionary of a gradient; `color` converts each stop colour (e.g. over white for EPS). */
export function shadingLiteral(g: Gradient, color: (c: Rgba) => Rgba = (c) => c): { readonly [key: string]: PsLiteral } {
  const coords = g.kind === 'linear' ? [g.x1, g.y1, g.x2, g.y2] : [g.cx, g.cy, 0, g.cx, g.cy, g.r];
  return {
    ShadingType: g.kind === 'linear' ? 2 : 3,
    ColorSpace: 'DeviceRGB',
    Coords: coords.map(rounded),
    Function: rampFunction(g, color),
    Extend: [true, true],
  };
}

function rampFunction(g: Gradient, color: (c: Rgba) => Rgba): PsLiteral {
  const pieces = rampPieces(g.stops);
  const functions = pieces.map((p) => ({ FunctionType: 2, Domain: [0, 1], C0: rgb(color(p.c0)), C1: rgb(color(p.c1)), N: 1 }));
  // t outside the first and last stop is clamped to the domain: the ends pad.
  const domain = [rounded(pieces[0]!.t0), rounded(pieces[pieces.length - 1]!.t1)];
  if (functions.length === 1) return { ...functions[0]!, Domain: domain };
  return {
    FunctionType: 3,
    Domain: domain,
    Functions: functions,
    Bounds: pieces.slice(1).map((p) => rounded(p.t0)),
    Encode: pieces.flatMap(() => [0, 1]),
  };
}

/** A colour as three 0–1 components, rounded as every other colour the writers print. */
function rgb(c: Rgba): number[] {
  return [c.r, c.g, c.b].map((v) => rounded(Math.max(0, Math.min(255, v)) / 255));
}

function rounded(v: number): number {
  return Number(formatNumber(v));
}

/** A literal in PostScript syntax (also PDF's): /Name, [ … ], << /Key value … >>, true/false. */
export function psLiteral(v: PsLiteral): string {
  if (typeof v === 'number') return formatNumber(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return `/${v}`;
  if (Array.isArray(v)) return `[${v.map(psLiteral).join(' ')}]`;
  const dict = v as { readonly [key: string]: PsLiteral };
  return `<< ${Object.keys(dict).map((k) => `/${k} ${psLiteral(dict[k]!)}`).join(' ')} >>`;
}

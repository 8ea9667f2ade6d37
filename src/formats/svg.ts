/**
 * SVG writer.
 * In: a TraceResult and output options. Out: an SVG document (string) whose viewBox is the
 * input's pixel size. Shapes are written bottom first, one <path> each (outer loop + holes,
 * nonzero fill: holes run the other way). The gap filler — strokes in the average colour of the
 * two neighbours, under every border between two shapes — hides the hairline seams renderers
 * draw between exactly coincident edges (reference §3.6).
 * Precision adapts to the picture: pixel art on the lattice gets integers, small images two
 * decimals, the rest one (≤ 0.05 px rounding, well under the fit tolerance).
 */
import type { ChainUse, Rgba, TraceResult } from '../engine/types.js';
import { chainInDirection, PathWriter, quantizeChain, writeLoop, writeOpenChain, type QChain, type Quantizer } from './path-data.js';
import { DEFAULT_OUTPUT_OPTIONS, type OutputOptions } from './types.js';

export function writeSvg(result: TraceResult, options: OutputOptions = DEFAULT_OUTPUT_OPTIONS): string {
  const quantizer = chooseQuantizer(result);
  const chains = result.chains.map((c) => quantizeChain(c, quantizer));
  const w = formatDecimal(result.inputWidth);
  const h = formatDecimal(result.inputHeight);
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>\n');
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" ${versionAttributes(options)}`);
  if (options.svg.fixedSize) out.push(` width="${w}" height="${h}"`);
  out.push(` viewBox="0 0 ${w} ${h}">\n`);
  if (options.gapFiller.enabled && options.drawStyle === 'fill_shapes') out.push(gapFiller(result, chains, quantizer, options));
  for (const shape of result.shapes) {
    const pw = new PathWriter(quantizer.decimals);
    const cursor = { x: 0, y: 0 };
    writeLoop(pw, shape.outer, chains, cursor);
    for (const hole of shape.holes) writeLoop(pw, hole, chains, cursor);
    out.push(`<path fill="${hexColor(shape.color)}"${opacityAttribute(shape.color, 'fill')} d="${pw.toString()}"/>\n`);
  }
  out.push('</svg>\n');
  return out.join('');
}

function versionAttributes(options: OutputOptions): string {
  switch (options.svg.version) {
    case 'svg_1_0':
      return 'version="1.0"';
    case 'svg_tiny_1_2':
      return 'version="1.2" baseProfile="tiny"';
    default:
      return 'version="1.1"';
  }
}

/** Integer steps for lattice-exact pixel art, otherwise 1 or 2 decimals by image size. */
export function chooseQuantizer(result: TraceResult): Quantizer {
  const scaleX = result.inputWidth / result.width;
  const scaleY = result.inputHeight / result.height;
  const onLattice = result.stats.profile === 'pixel' && Number.isInteger(scaleX) && Number.isInteger(scaleY);
  const decimals = onLattice ? 0 : Math.max(result.inputWidth, result.inputHeight) < 200 ? 2 : 1;
  return { decimals, scaleX, scaleY };
}

/** One stroked path per colour pair, each border stroked once, all below the shapes. */
function gapFiller(result: TraceResult, chains: readonly QChain[], q: Quantizer, options: OutputOptions): string {
  const colorOfRegion = new Map<number, Rgba>();
  for (const s of result.shapes) colorOfRegion.set(s.region, s.color);
  // Chains in the order (and direction) the shapes will use them, so the same path text comes
  // back in the fills soon after and gzip encodes it as a back-reference.
  const byColor = new Map<string, ChainUse[]>();
  const seen = new Uint8Array(result.chains.length);
  for (const shape of result.shapes) {
    for (const loop of [shape.outer, ...shape.holes]) {
      for (const use of loop) {
        if (seen[use.chain]) continue;
        seen[use.chain] = 1;
        const chain = result.chains[use.chain]!;
        const a = colorOfRegion.get(chain.leftRegion);
        const b = colorOfRegion.get(chain.rightRegion);
        if (!a || !b) continue;
        const color = hexColor({ r: (a.r + b.r) >> 1, g: (a.g + b.g) >> 1, b: (a.b + b.b) >> 1, a: 255 });
        let list = byColor.get(color);
        if (!list) byColor.set(color, (list = []));
        list.push(use);
      }
    }
  }
  if (byColor.size === 0) return '';
  const strokeWidth = formatDecimal(options.gapFiller.strokeWidthPx);
  const vectorEffect = options.gapFiller.nonScalingStroke ? ' vector-effect="non-scaling-stroke"' : '';
  const parts: string[] = [`<g fill="none" stroke-width="${strokeWidth}" stroke-linecap="round" stroke-linejoin="round">\n`];
  for (const [color, list] of byColor) {
    const pw = new PathWriter(q.decimals);
    const cursor = { x: 0, y: 0 };
    for (const use of list) writeOpenChain(pw, chainInDirection(chains, use), cursor, result.chains[use.chain]!.closed);
    parts.push(`<path stroke="${color}"${vectorEffect} d="${pw.toString()}"/>\n`);
  }
  parts.push('</g>\n');
  return parts.join('');
}

export function hexColor(c: Rgba): string {
  const hex = [c.r, c.g, c.b].map((v) => Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, '0'));
  if (hex.every((h) => h[0] === h[1])) return `#${hex[0]![0]}${hex[1]![0]}${hex[2]![0]}`;
  return `#${hex.join('')}`;
}

function opacityAttribute(c: Rgba, kind: 'fill' | 'stroke'): string {
  return c.a >= 255 ? '' : ` ${kind}-opacity="${formatDecimal(Math.round((c.a / 255) * 1000) / 1000)}"`;
}

function formatDecimal(v: number): string {
  return String(Math.round(v * 1e6) / 1e6);
}

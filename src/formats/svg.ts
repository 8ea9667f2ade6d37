/**
 * SVG writer.
 * In: an output plan (src/formats/plan.ts). Out: an SVG document, as text (writeSvgPlan) or as its
 * UTF-8 bytes (writeSvgBytes), written element by element into one reused byte buffer
 * (src/formats/text-sink.ts; no string per element or path). Coordinates are in
 * input pixels: the viewBox is the input's size, or — when output.size sets a page — the page box
 * mapped back into input pixels, with width/height carrying the page size and unit.
 * Fills are one <path> each (outer loop + holes) or a native
 * <circle>/<ellipse>/<rect> for detected primitives; pixel art on the lattice under cutouts writes
 * all fills of one colour as one <path> (writeMergedFills). Strokes (outlines, edges and the gap filler —
 * reference §3.3, §3.6) are unfilled paths; consecutive gap-filler strokes share one <g> that
 * carries their common attributes; a clipped filler references the shapes it serves via <use>, and
 * on a large two-colour picture under cutouts the filler is a <use> of each shape of one colour
 * (fillerReference: their outlines are exactly the shared borders).
 * A loop whose chains mostly run backwards (the hole a figure leaves in its background, the side
 * of a border it shares with its neighbour) is written the other way round, so that each shared
 * border is the same text in both shapes (and in the gap filler) and gzip stores it once more as
 * a back reference (a traced drawing's background is the page minus every figure on it: half the
 * file). The document then says fill-rule="evenodd", under which a loop's direction does not
 * matter (no two loops of one shape cross).
 * Groups become <g id>. A gradient paint (tracelab.gradients) is `fill="url(#gN)"` or
 * `stroke="url(#gN)"`: one <defs> right after <svg> holds one <linearGradient> or <radialGradient>
 * per distinct gradient (ids g0, g1… in the order the file first uses them), with
 * gradientUnits="userSpaceOnUse" and coordinates in input pixels rounded like path coordinates (an
 * elliptical radial gradient is the unit circle at the origin placed by a gradientTransform
 * `translate(cx cy) rotate(θ) scale(r ry)`);
 * every version (Tiny 1.2 included) and Adobe mode have these. Path data comes from src/formats/path-data.ts: every chain is quantised
 * once, so a border written forwards in one shape and backwards in the next lands on the same
 * points. Precision adapts to the picture: pixel art on the lattice gets integers, small images
 * two decimals, the rest one (≤ 0.05 px rounding, well under the fit tolerance).
 */
import type { Chain, ChainUse, Gradient, Loop, Rgba, TraceResult } from '../engine/types.js';
import { GradientIds, halfTurnDeg, isElliptical, mapGradient, type EllipticalGradient } from './gradient.js';
import { svgUnitSuffix } from './page.js';
import { PathWriter, quantizeChains, writeLoop, writeOpenChain, type QChains, type Quantizer } from './path-data.js';
import { TextSink } from './text-sink.js';
import { buildPlan, channelByte, codeChain, codeReversed, hexByte, type FillItem, type OutputPlan, type PlanItem, type Primitive, type StrokeItem } from './plan.js';
import { DEFAULT_OUTPUT_OPTIONS, type OutputOptions } from './types.js';

export function writeSvg(result: TraceResult, options: OutputOptions = DEFAULT_OUTPUT_OPTIONS): string {
  return writeSvgPlan(buildPlan(result, { ...options, fileFormat: 'svg' }));
}

interface SvgContext {
  readonly plan: OutputPlan;
  readonly quantizer: Quantizer;
  readonly chains: QChains;
  /** Shapes a clip path refers to get an id. */
  readonly referenced: Set<number>;
  /** Fills of one colour may share a <path> (see mergesFills). */
  readonly mergeFills: boolean;
  clipCount: number;
  /** One path writer for the whole file, emptied per <path> (thousands of paths: no buffer each). */
  readonly pathWriter: PathWriter;
  /** Gradient ids in the order the file first uses them (their <defs> go in front at the end). */
  readonly gradientIds: GradientIds;
  /** Loops that mostly run backwards are written the other way (fill-rule="evenodd"; see the header). */
  readonly forwardHoles: boolean;
}

/** Whether any drawn fill has a loop whose chains mostly run backwards. */
function hasForwardHoles(items: readonly PlanItem[], chains: readonly Chain[]): boolean {
  for (const item of items) {
    if (item.kind === 'group' && hasForwardHoles(item.items, chains)) return true;
    if (item.kind === 'fill' && !item.primitive && item.loops.some((loop) => mostlyBackwards(loop, chains))) return true;
  }
  return false;
}

/** More of the loop's segments lie in chains it walks backwards than forwards. */
function mostlyBackwards(loop: Loop, chains: readonly Chain[]): boolean {
  let balance = 0;
  for (const use of loop) balance += (use.reversed ? 1 : -1) * chains[use.chain]!.segments.length;
  return balance > 0;
}

export function writeSvgPlan(plan: OutputPlan): string {
  return writeSvgDocument(plan, true);
}

/** writeSvgPlan's text as UTF-8 bytes (what a file holds), without the string in between. */
export function writeSvgBytes(plan: OutputPlan): Uint8Array {
  return writeSvgInto(new TextSink(FIRST_BUFFER_BYTES), plan, true).toBytes();
}

/** A document's buffer to start with (64 KiB), doubled as the document grows: one per document. */
const FIRST_BUFFER_BYTES = 1 << 16;

/**
 * writeSvgPlan, with the ink reference (inkReference) switchable: off, the gap filler is written
 * out border by border as in any other picture (tests compare the two renders).
 */
export function writeSvgDocument(plan: OutputPlan, fillerByReference: boolean): string {
  return writeSvgInto(new TextSink(FIRST_BUFFER_BYTES), plan, fillerByReference).toString();
}

function writeSvgInto(out: TextSink, plan: OutputPlan, fillerByReference: boolean): TextSink {
  const result = plan.result;
  const quantizer = chooseQuantizer(result);
  const ctx: SvgContext = {
    plan,
    quantizer,
    chains: quantizeChains(plan.chains, quantizer),
    referenced: referencedShapes(plan.items),
    mergeFills: mergesFills(result, quantizer),
    clipCount: 0,
    pathWriter: new PathWriter(quantizer.decimals, out),
    gradientIds: new GradientIds(),
    forwardHoles: hasForwardHoles(plan.items, plan.chains),
  };
  const ref = fillerByReference ? worthReferencing(out, fillerReference(plan, ctx), plan.items, ctx) : undefined;
  out.text('<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg"');
  if (ctx.referenced.size > 0 || ref) out.text(' xmlns:xlink="http://www.w3.org/1999/xlink"');
  out.text(` ${versionAttributes(plan.options)}${sizeAttributes(plan)}${ctx.forwardHoles ? ' fill-rule="evenodd"' : ''}`);
  if (ref) {
    out.byte(SPACE);
    writeFillPaint(out, ref.color);
  }
  out.text('>\n');
  // The <defs> go here once the document has named every gradient it uses.
  const defsAt = out.length;
  if (ref) writeWithFillerReference(out, plan.items, ref, ctx);
  else writeItems(out, plan.items, ctx);
  if (ctx.gradientIds.list.length > 0) out.insertText(defsAt, gradientDefs(ctx.gradientIds.list, quantizer));
  out.text('</svg>\n');
  return out;
}

function writeItems(out: TextSink, items: readonly PlanItem[], ctx: SvgContext): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i]!;
    if (item.kind === 'group' && isPenGroup(item.items)) {
      writePenGroup(out, item.id, item.items as readonly StrokeItem[], ctx);
    } else if (item.kind === 'group') {
      out.text(`<g id="${item.id}">\n`);
      writeItems(out, item.items, ctx);
      out.text('</g>\n');
    } else if (item.kind === 'fill') {
      if (!ctx.mergeFills) {
        writeFillElement(out, item, ctx);
        continue;
      }
      let j = i;
      while (j < items.length && items[j]!.kind === 'fill') j++;
      writeMergedFills(out, items, i, j, ctx);
      i = j - 1;
    } else if (item.role === 'gap_filler') {
      // A run of filler strokes shares one group with their common attributes.
      let j = i;
      while (j < items.length && items[j]!.kind === 'stroke' && (items[j] as StrokeItem).role === 'gap_filler') j++;
      out.text(`<g fill="none" stroke-width="${formatDecimal(item.widthPx)}" stroke-linecap="round" stroke-linejoin="round">\n`);
      for (let k = i; k < j; k++) writeStrokeElement(out, items[k] as StrokeItem, ctx, false);
      out.text('</g>\n');
      i = j - 1;
    } else {
      writeStrokeElement(out, item, ctx, true);
    }
  }
}

/**
 * A fill's element: a <path>, or the primitive's own element. Its paint attributes: by default
 * the shape's id when a clip path refers to it, then its fill; a fill referenced by the gap filler
 * (writeWithFillerReference) instead gets ` id="f<referenceId>"` and `referenceExtra`, and takes
 * its colour from the root element.
 */
function writeFillElement(out: TextSink, item: FillItem, ctx: SvgContext, referenceId?: number, referenceExtra = ''): void {
  out.byte(LESS_THAN);
  out.text(item.primitive ? item.primitive.kind : 'path');
  if (referenceId !== undefined) {
    out.text(' id="f');
    out.integer(referenceId);
    out.byte(QUOTE);
    out.text(referenceExtra);
  } else {
    if (ctx.referenced.has(item.shape)) {
      out.text(' id="s');
      out.integer(item.shape);
      out.byte(QUOTE);
    }
    out.byte(SPACE);
    if (item.gradient) out.text(gradientPaint(item.gradient, item.color, 'fill', ctx));
    else writeFillPaint(out, item.color);
  }
  if (item.primitive) {
    out.text(primitiveAttributes(item.primitive, ctx.quantizer));
    return;
  }
  out.text(' d="');
  const pw = ctx.pathWriter.begin();
  const cursor = { x: 0, y: 0 };
  for (const loop of item.loops) writeLoop(pw, loop, ctx.chains, cursor, ctx.forwardHoles && mostlyBackwards(loop, ctx.plan.chains));
  out.text('"/>\n');
}

/**
 * A two-colour picture under cutouts (a 1-bit drawing, text, a scan; ink on paper): every border
 * two shapes share lies between a shape of one colour and a shape of the other, so the gap filler
 * — each shared border stroked once, underneath — is the outlines of either colour's shapes
 * stroked. Their other borders lie on the picture's edge, where a stroke falls outside the view
 * or under the shape's own fill. The filler is then a <use> of each shape of the colour with fewer
 * shapes instead of a third copy of every border (the two shapes on either side of it are the
 * other two): about a third of such a file. The shapes keep their order; the referenced ones take
 * their colour from the root element (a <use> gives them fill="none" and the filler's stroke).
 */
interface FillerReference {
  /** paintKey of the referenced colour. */
  readonly key: number;
  readonly color: Rgba;
  readonly filler: StrokeItem;
}

function fillerReference(plan: OutputPlan, ctx: SvgContext): FillerReference | undefined {
  if ((plan.result.shapeStacking ?? 'cutouts') !== 'cutouts' || ctx.mergeFills || ctx.referenced.size > 0 || plan.options.svg.adobeCompatibilityMode) return undefined;
  let filler: StrokeItem | undefined;
  let fillsBegun = false;
  const shapes = new Map<number, { count: number; color: Rgba }>();
  for (const item of plan.items) {
    if (item.kind === 'group') return undefined;
    if (item.kind === 'stroke') {
      // Filler strokes only, all alike, all underneath the fills.
      if (fillsBegun || item.role !== 'gap_filler' || item.gradient || item.clipShapes) return undefined;
      if (filler && (paintKey(filler.color) !== paintKey(item.color) || filler.widthPx !== item.widthPx || filler.nonScaling !== item.nonScaling)) return undefined;
      filler ??= item;
      continue;
    }
    fillsBegun = true;
    if (item.gradient || item.color.a < 255) return undefined;
    const key = paintKey(item.color);
    const entry = shapes.get(key);
    if (entry) entry.count++;
    else shapes.set(key, { count: 1, color: item.color });
    if (shapes.size > 2) return undefined;
  }
  if (!filler || shapes.size !== 2) return undefined;
  const [[firstKey, first], [secondKey, second]] = [...shapes] as [[number, { count: number; color: Rgba }], [number, { count: number; color: Rgba }]];
  return first.count <= second.count ? { key: firstKey, color: first.color, filler } : { key: secondKey, color: second.color, filler };
}

/**
 * Below this many characters of filler path data the three copies of each border stay within
 * deflate's 32 kB window, gzip stores the later ones as back references, and a <use> per shape
 * would cost more than it saves (the corpus's 1-bit drawings under 4 kB gzip: 0–40 bytes more).
 */
const FILLER_REFERENCE_MIN_CHARS = 10_000;

function worthReferencing(out: TextSink, ref: FillerReference | undefined, items: readonly PlanItem[], ctx: SvgContext): FillerReference | undefined {
  if (!ref) return undefined;
  // The filler as it would be written, measured at the end of the sink and then dropped (these
  // strokes have no clip paths or gradients: writing them names nothing).
  const start = out.length;
  for (const item of items) if (item.kind === 'stroke') writeStrokeElement(out, item, ctx, false);
  const chars = out.length - start;
  out.truncate(start);
  return chars >= FILLER_REFERENCE_MIN_CHARS ? ref : undefined;
}

function writeWithFillerReference(out: TextSink, items: readonly PlanItem[], ref: FillerReference, ctx: SvgContext): void {
  const { filler } = ref;
  // The filler group first: a <use> of each fill of the referenced colour, ids f0, f1… in order.
  let referencedCount = 0;
  for (const item of items) if (item.kind === 'fill' && paintKey(item.color) === ref.key) referencedCount++;
  out.text(`<g fill="none" stroke="${hexColor(filler.color)}"${opacityAttribute(filler.color, 'stroke')} stroke-width="${formatDecimal(filler.widthPx)}" stroke-linecap="round" stroke-linejoin="round">\n`);
  for (let i = 0; i < referencedCount; i++) {
    if (i > 0) out.byte(NEWLINE);
    out.text('<use xlink:href="#f');
    out.integer(i);
    out.text('"/>');
  }
  out.text('\n</g>\n');
  // vector-effect is not inherited: each referenced shape carries it for the stroke a <use> gives it.
  const nonScaling = filler.nonScaling ? ' vector-effect="non-scaling-stroke"' : '';
  let next = 0;
  for (const item of items) {
    if (item.kind !== 'fill') continue;
    if (paintKey(item.color) !== ref.key) writeFillElement(out, item, ctx);
    else writeFillElement(out, item, ctx, next++, nonScaling);
  }
}

/**
 * Pixel art on the lattice under cutouts: no two shapes overlap (integer outlines, no fitted
 * curves) and any paint order gives the same picture, so every fill of one colour in a run of
 * fills becomes one <path>, placed where that colour first appears. A one-pixel shape then costs
 * a 12-byte subpath instead of a 50-byte <rect>, and a renderer no longer draws an anti-aliased
 * seam between two touching shapes of the same colour.
 */
function mergesFills(result: TraceResult, quantizer: Quantizer): boolean {
  return quantizer.decimals === 0 && result.stats.profile === 'pixel' && (result.shapeStacking ?? 'cutouts') === 'cutouts';
}

/** A fill's paint attributes as written: the hex colour and, when not opaque, its opacity. */
function writeFillPaint(out: TextSink, color: Rgba): void {
  out.text('fill="');
  writeHexColor(out, color);
  out.byte(QUOTE);
  if (color.a < 255) out.text(opacityAttribute(color, 'fill'));
}

/** The run of fills items[from] .. items[to − 1] (read in place: tens of thousands on pixel art), merged by colour. */
function writeMergedFills(out: TextSink, items: readonly PlanItem[], from: number, to: number, ctx: SvgContext): void {
  const groups = colourGroups(items, from, to, ctx);
  const { members, start, rectSteps } = groups;
  for (let k = from; k < to; k++) if (groups.colourOf[k - from] === ALONE) writeFillElement(out, items[k] as FillItem, ctx);
  for (let c = 0; c + 1 < start.length; c++) {
    if (start[c + 1]! - start[c]! === 1) {
      writeFillElement(out, items[members[start[c]!]!] as FillItem, ctx);
      continue;
    }
    const first = items[members[start[c]!]!] as FillItem;
    out.text('<path ');
    writeFillPaint(out, first.color);
    out.text(' d="');
    const pw = ctx.pathWriter.begin();
    const cursor = { x: 0, y: 0 };
    for (let m = start[c]!; m < start[c + 1]!; m++) {
      // Members are lattice rectangles (their corners at hand: the item is not read again) or
      // traced loops (any other primitive is written alone).
      const k = members[m]!;
      if (groups.isRect[k - from]) writeRectSubpath(pw, rectSteps, 4 * (k - from), cursor);
      else for (const loop of (items[k] as FillItem).loops) writeLoop(pw, loop, ctx.chains, cursor);
    }
    out.text('"/>\n');
  }
}

/** colourGroups' mark of a fill written alone (a clip path refers to it, a gradient, or a primitive other than a lattice rectangle). */
const ALONE = -1;

/**
 * The fills items[from] .. items[to − 1] by the paint they are written with (paintKey): per fill
 * its colour's number (colours numbered as they first appear) or ALONE, and the fills of colour c,
 * in item order, as `members[start[c]]` .. `members[start[c + 1] − 1]` (item indices): counted,
 * then placed, with no list per colour grown fill by fill. Per fill that is a lattice rectangle
 * (isRect), its corners in output steps (rectCorners): read here, in item order, rather than
 * item by item in colour order across the heap.
 */
function colourGroups(items: readonly PlanItem[], from: number, to: number, ctx: SvgContext): ColourGroups {
  // Keyed by the paint as written (colour channels may be fractional; the file rounds them), as
  // one number (paintKey) rather than the attribute text built and hashed per fill.
  const numberOf = new Map<number, number>();
  const colourOf = new Int32Array(to - from);
  const isRect = new Uint8Array(to - from);
  const rectSteps = new Float64Array(4 * (to - from));
  const anyReferenced = ctx.referenced.size > 0;
  for (let k = from; k < to; k++) {
    const item = items[k] as FillItem;
    if ((anyReferenced && ctx.referenced.has(item.shape)) || item.gradient || (item.primitive && !isLatticeRect(item.primitive))) {
      colourOf[k - from] = ALONE;
      continue;
    }
    if (item.primitive) {
      isRect[k - from] = 1;
      rectCorners(item.primitive as RectPrimitive, ctx.quantizer, rectSteps, 4 * (k - from));
    }
    const key = paintKey(item.color);
    let c = numberOf.get(key);
    if (c === undefined) numberOf.set(key, (c = numberOf.size));
    colourOf[k - from] = c;
  }
  const start = new Int32Array(numberOf.size + 1);
  for (let i = 0; i < colourOf.length; i++) if (colourOf[i]! !== ALONE) start[colourOf[i]! + 1]!++;
  for (let c = 0; c < numberOf.size; c++) start[c + 1]! += start[c]!;
  const members = new Int32Array(start[numberOf.size]!);
  const next = start.slice(0, numberOf.size);
  for (let i = 0; i < colourOf.length; i++) if (colourOf[i]! !== ALONE) members[next[colourOf[i]!]!++] = from + i;
  return { colourOf, members, start, isRect, rectSteps };
}

/** colourGroups' result (see there). */
interface ColourGroups {
  readonly colourOf: Int32Array;
  readonly members: Int32Array;
  readonly start: Int32Array;
  readonly isRect: Uint8Array;
  /** Per fill, left, top, right, bottom in output steps (lattice rectangles only). */
  readonly rectSteps: Float64Array;
}

/**
 * A number that two colours share exactly when writeFillPaint writes the same text for them: the
 * rounded channels and the opacity in thousandths as opacityAttribute rounds it (1001 for none).
 */
function paintKey(c: Rgba): number {
  const opacity = c.a >= 255 ? 1001 : opacityThousandths(c.a);
  return ((channelByte(c.r) * 256 + channelByte(c.g)) * 256 + channelByte(c.b)) * 1002 + opacity;
}

type RectPrimitive = Extract<Primitive, { kind: 'rect' }>;

function isLatticeRect(p: Primitive): p is RectPrimitive {
  return p.kind === 'rect' && p.rotationDeg === 0 && !p.cornerRadius;
}

/** An axis-aligned rectangle's left, top, right, bottom on the same output steps <rect> would use, into steps[o …]. */
function rectCorners(p: RectPrimitive, q: Quantizer, steps: Float64Array, o: number): void {
  const f = 10 ** q.decimals;
  const w = p.width * q.scaleX;
  const h = p.height * q.scaleY;
  const left = Math.round((p.cx * q.scaleX - w / 2) * f);
  const top = Math.round((p.cy * q.scaleY - h / 2) * f);
  steps[o] = left;
  steps[o + 1] = top;
  steps[o + 2] = left + Math.round(w * f);
  steps[o + 3] = top + Math.round(h * f);
}

/** The rectangle at steps[o …] (rectCorners) as a closed subpath. */
function writeRectSubpath(pw: PathWriter, steps: Float64Array, o: number, cursor: { x: number; y: number }): void {
  const left = steps[o]!;
  const top = steps[o + 1]!;
  const right = steps[o + 2]!;
  const bottom = steps[o + 3]!;
  pw.move(left - cursor.x, top - cursor.y);
  pw.letter('h');
  pw.number(right - left);
  pw.letter('v');
  pw.number(bottom - top);
  pw.letter('h');
  pw.number(left - right);
  pw.close();
  cursor.x = left;
  cursor.y = top;
}

function writeStrokeElement(out: TextSink, item: StrokeItem, ctx: SvgContext, withStyle: boolean): void {
  // A clipped stroke's clip path goes first: the path refers to it.
  const clipId = item.clipShapes ? ctx.clipCount++ : -1;
  if (item.clipShapes) {
    out.text('<clipPath id="c');
    out.integer(clipId);
    out.text('">');
    for (const s of item.clipShapes) {
      out.text('<use xlink:href="#s');
      out.integer(s);
      out.text('"/>');
    }
    out.text('</clipPath>\n');
  }
  out.text(withStyle ? '<path fill="none" ' : '<path ');
  if (item.gradient) out.text(gradientPaint(item.gradient, item.color, 'stroke', ctx));
  else {
    out.text('stroke="');
    writeHexColor(out, item.color);
    out.byte(QUOTE);
    if (item.color.a < 255) out.text(opacityAttribute(item.color, 'stroke'));
  }
  if (withStyle) out.text(` stroke-width="${formatDecimal(item.widthPx)}" stroke-linecap="round" stroke-linejoin="round"`);
  if (item.nonScaling) out.text(' vector-effect="non-scaling-stroke"');
  if (item.clipShapes) {
    out.text(' clip-path="url(#c');
    out.integer(clipId);
    out.text(')"');
  }
  out.text(' d="');
  const pw = ctx.pathWriter.begin();
  // `open` from the start: writeOpenChain sets it, and a field added later changes the object's shape.
  const cursor = { x: 0, y: 0, open: false };
  if (item.singleUses) {
    // A gap filler: its paths without building their objects (plan.ts, SingleUsePaths).
    const { useCodes, closed, from, to } = item.singleUses;
    for (let k = from; k < to; k++) writeOpenChain(pw, ctx.chains, codeChain(useCodes[k]!), codeReversed(useCodes[k]!), cursor, closed[k] === 1);
  } else {
    for (const path of item.paths) {
      if (path.uses.length === 1) writeOpenChain(pw, ctx.chains, path.uses[0]!.chain, path.uses[0]!.reversed, cursor, path.closed);
      else writeLoop(pw, path.uses, ctx.chains, cursor);
    }
  }
  out.text('"/>\n');
}

/** A group of pen strokes (tracelab.strokes, one colour: see penItems in plan.ts). */
function isPenGroup(items: readonly PlanItem[]): boolean {
  return items.length > 0 && items.every((i) => i.kind === 'stroke' && i.role === 'pen');
}

/**
 * Pen strokes of one colour: `<g id fill="none" stroke stroke-linecap stroke-linejoin>` carrying
 * the style most of them share (the width too, when all share it); each <path> says only how it
 * differs. Widths are in input pixels, like the coordinates (they scale with the page).
 */
function writePenGroup(out: TextSink, id: string, items: readonly StrokeItem[], ctx: SvgContext): void {
  const cap = mostCommon(items.map((i) => i.cap ?? 'round'));
  const join = mostCommon(items.map((i) => i.join ?? 'round'));
  const sharedWidth = items.every((i) => i.widthPx === items[0]!.widthPx) ? items[0]!.widthPx : undefined;
  out.text(`<g id="${id}" fill="none" stroke="`);
  writeHexColor(out, items[0]!.color);
  out.byte(QUOTE);
  if (items[0]!.color.a < 255) out.text(opacityAttribute(items[0]!.color, 'stroke'));
  if (sharedWidth !== undefined) out.text(` stroke-width="${formatDecimal(sharedWidth)}"`);
  out.text(` stroke-linecap="${cap}" stroke-linejoin="${join}">\n`);
  for (const item of items) {
    out.text('<path');
    if (sharedWidth === undefined) out.text(` stroke-width="${formatDecimal(item.widthPx)}"`);
    if ((item.cap ?? 'round') !== cap) out.text(` stroke-linecap="${item.cap ?? 'round'}"`);
    if ((item.join ?? 'round') !== join) out.text(` stroke-linejoin="${item.join ?? 'round'}"`);
    out.text(' d="');
    const pw = ctx.pathWriter.begin();
    const cursor: { x: number; y: number; open?: boolean } = { x: 0, y: 0 };
    for (const path of item.paths) {
      if (path.uses.length === 1) writeOpenChain(pw, ctx.chains, path.uses[0]!.chain, path.uses[0]!.reversed, cursor, path.closed);
      else writeLoop(pw, path.uses, ctx.chains, cursor);
      // A dot (one zero-length line) would be a bare `m`, which draws nothing: `h0` draws its cap.
      if (isDot(ctx.plan.chains, path.uses)) {
        pw.letter('h');
        pw.number(0);
        cursor.open = false;
      }
    }
    out.text('"/>\n');
  }
  out.text('</g>\n');
}

/** A path of one chain whose every segment ends where it starts (a dot of tracelab.strokes). */
function isDot(chains: readonly Chain[], uses: readonly ChainUse[]): boolean {
  if (uses.length !== 1) return false;
  const c = chains[uses[0]!.chain]!;
  for (let k = 0; k < c.segments.length; k++) if (c.segments.x(k) !== c.startX || c.segments.y(k) !== c.startY) return false;
  return c.segments.length > 0;
}

/** The value most of `values` have (the first of them on a tie). */
function mostCommon<T extends string>(values: readonly T[]): T {
  const count = new Map<T, number>();
  let best = values[0]!;
  for (const v of values) {
    const n = (count.get(v) ?? 0) + 1;
    count.set(v, n);
    if (n > count.get(best)!) best = v;
  }
  return best;
}

/** A primitive element's geometry attributes and its end (`<circle`, `<ellipse` or `<rect` and the paint come before). */
function primitiveAttributes(p: Primitive, q: Quantizer): string {
  const f = 10 ** q.decimals;
  const num = (v: number): string => formatDecimal(Math.round(v * f) / f);
  const x = (v: number): string => num(v * q.scaleX);
  const y = (v: number): string => num(v * q.scaleY);
  const k = (q.scaleX + q.scaleY) / 2;
  const rotate = (deg: number, cx: number, cy: number): string => (deg === 0 ? '' : ` transform="rotate(${formatDecimal(deg)} ${x(cx)} ${y(cy)})"`);
  switch (p.kind) {
    case 'circle':
      return ` cx="${x(p.cx)}" cy="${y(p.cy)}" r="${num(p.r * k)}"/>\n`;
    case 'ellipse': {
      const turn = writtenTurn(p.rotationDeg, Math.max(p.rx, p.ry) * k, 1 / f, PRIMITIVE_ROTATION_DECIMALS);
      const [rx, ry] = turn.quarter ? [p.ry, p.rx] : [p.rx, p.ry];
      return ` cx="${x(p.cx)}" cy="${y(p.cy)}" rx="${num(rx * k)}" ry="${num(ry * k)}"${rotate(turn.deg, p.cx, p.cy)}/>\n`;
    }
    case 'rect': {
      const turn = writtenTurn(p.rotationDeg, (Math.hypot(p.width, p.height) / 2) * k, 1 / f, PRIMITIVE_ROTATION_DECIMALS);
      const [pw, ph] = turn.quarter ? [p.height, p.width] : [p.width, p.height];
      const w = turn.deg === 0 ? pw * q.scaleX : pw * k;
      const h = turn.deg === 0 ? ph * q.scaleY : ph * k;
      const left = num(p.cx * q.scaleX - w / 2);
      const top = num(p.cy * q.scaleY - h / 2);
      const rx = p.cornerRadius ? ` rx="${num(p.cornerRadius * k)}"` : '';
      return ` x="${left}" y="${top}" width="${num(w)}" height="${num(h)}"${rx}${rotate(turn.deg, p.cx, p.cy)}/>\n`;
    }
  }
}

/** Decimals of a rect's or an ellipse's written rotation (degrees). */
const PRIMITIVE_ROTATION_DECIMALS = 2;

/**
 * The rotation an ellipse or a rect (each the same turned half a turn) is written with: none, with
 * its sides swapped for a quarter turn, when the turn to the nearest multiple of 90° moves its
 * farthest point (`reach`, output units) by at most half a written coordinate step (`stepUnits`),
 * or when the rotation rounds to such a multiple — an axis-aligned rectangle fitted at 89.99° or
 * 0.003° is written as drawn; else the rotation rounded to `decimals`. Shapes (rect, ellipse) and
 * elliptical gradients follow this one rule.
 */
function writtenTurn(rotationDeg: number, reach: number, stepUnits: number, decimals: number): { readonly deg: number; readonly quarter: boolean } {
  const deg = halfTurnDeg(rotationDeg);
  const nearestQuarter = Math.round(deg / 90) * 90;
  const f = 10 ** decimals;
  const within = Math.abs(deg - nearestQuarter) * (Math.PI / 180) * reach <= stepUnits / 2;
  if (within || Math.round(deg * f) / f === nearestQuarter) return { deg: 0, quarter: nearestQuarter !== 0 };
  return { deg: Math.round(rotationDeg * f) / f, quarter: false };
}

/**
 * A gradient paint attribute, `fill="url(#gN)"` or `stroke="url(#gN)"`, with the item's opacity
 * (its colour's alpha: the stops are opaque) when it is not opaque.
 */
function gradientPaint(gradient: Gradient, color: Rgba, kind: 'fill' | 'stroke', ctx: SvgContext): string {
  return `${kind}="url(#g${ctx.gradientIds.id(gradient)})"${opacityAttribute(color, kind)}`;
}

/**
 * <defs> with one element per gradient, id = its index. Geometry goes from traced coordinates to
 * input pixels (the user units) by the quantizer's scales (mapGradient: exact for linear axes and
 * ellipses), rounded to its decimals like path coordinates; stop offsets to six decimals.
 */
function gradientDefs(gradients: readonly Gradient[], q: Quantizer): string {
  const f = 10 ** q.decimals;
  const num = (v: number): string => formatDecimal(Math.round(v * f) / f);
  const out: string[] = ['<defs>\n'];
  gradients.forEach((traced, i) => {
    const g = mapGradient(traced, q.scaleX, q.scaleY, 0, 0);
    const stops = g.stops.map((s) => `<stop offset="${formatDecimal(s.offset)}" stop-color="${hexColor(s.color)}"/>`).join('');
    const open = `id="g${i}" gradientUnits="userSpaceOnUse"`;
    if (g.kind === 'linear') {
      out.push(`<linearGradient ${open} x1="${num(g.x1)}" y1="${num(g.y1)}" x2="${num(g.x2)}" y2="${num(g.y2)}">${stops}</linearGradient>\n`);
    } else if (isElliptical(g) && num(g.r) !== num(g.ry)) {
      out.push(`<radialGradient ${open} cx="0" cy="0" r="1" gradientTransform="${ellipseTransform(g, num, 1 / f)}">${stops}</radialGradient>\n`);
    } else {
      // A circle, or an ellipse whose radii round to one number: the circle as written before ellipses.
      out.push(`<radialGradient ${open} cx="${num(g.cx)}" cy="${num(g.cy)}" r="${num(g.r)}">${stops}</radialGradient>\n`);
    }
  });
  out.push('</defs>\n');
  return out.join('');
}

/** Decimals of an elliptical gradient's rotation: a 5000-px radius then moves ≤ 0.05 px at its rim. */
const ROTATION_DECIMALS = 3;

/**
 * The gradientTransform placing the unit circle at the origin onto the ellipse (user units):
 * `translate(cx cy) rotate(θ) scale(r ry)` — centre and radii rounded like coordinates (`step`
 * apart), θ written by writtenTurn (no rotate() near 0°, swapped radii near a quarter turn).
 */
function ellipseTransform(g: EllipticalGradient, num: (v: number) => string, step: number): string {
  const turn = writtenTurn(halfTurnDeg(g.rotationDeg ?? 0), Math.max(g.r, g.ry), step, ROTATION_DECIMALS);
  const rotate = turn.deg === 0 ? '' : ` rotate(${formatDecimal(turn.deg)})`;
  const [rx, ry] = turn.quarter ? [g.ry, g.r] : [g.r, g.ry];
  return `translate(${num(g.cx)} ${num(g.cy)})${rotate} scale(${num(rx)} ${num(ry)})`;
}

function referencedShapes(items: readonly PlanItem[], into = new Set<number>()): Set<number> {
  for (const item of items) {
    if (item.kind === 'group') referencedShapes(item.items, into);
    else if (item.kind === 'stroke' && item.clipShapes) for (const s of item.clipShapes) into.add(s);
  }
  return into;
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

/**
 * width/height/viewBox. Without output.size: the input's pixel box (width/height only with
 * fixed_size). With it: the page size in its unit, and a viewBox that is the page box mapped
 * back to input pixels, so alignment and overflow need no transform.
 */
function sizeAttributes(plan: OutputPlan): string {
  const { page, result } = plan;
  if (!page.explicitSize) {
    const w = formatDecimal(result.inputWidth);
    const h = formatDecimal(result.inputHeight);
    const fixed = plan.options.svg.fixedSize ? ` width="${w}" height="${h}"` : '';
    return `${fixed} viewBox="0 0 ${w} ${h}"`;
  }
  // Page units per input pixel on each axis.
  const fitX = (page.scaleX * result.width) / result.inputWidth;
  const fitY = (page.scaleY * result.height) / result.inputHeight;
  const unit = svgUnitSuffix(page.unit);
  const box = [-page.offsetX / fitX, -page.offsetY / fitY, page.width / fitX, page.height / fitY].map((v) => formatDecimal(round6(v)));
  const stretch = Math.abs(fitX - fitY) > 1e-9 * Math.max(fitX, fitY) ? ' preserveAspectRatio="none"' : '';
  return ` width="${formatDecimal(round6(page.width))}${unit}" height="${formatDecimal(round6(page.height))}${unit}" viewBox="${box.join(' ')}"${stretch}`;
}

/** Integer steps for lattice-exact pixel art, otherwise 1 or 2 decimals by image size. */
export function chooseQuantizer(result: TraceResult): Quantizer {
  const scaleX = result.inputWidth / result.width;
  const scaleY = result.inputHeight / result.height;
  const onLattice = result.stats.profile === 'pixel' && Number.isInteger(scaleX) && Number.isInteger(scaleY);
  const decimals = onLattice ? 0 : Math.max(result.inputWidth, result.inputHeight) < 200 ? 2 : 1;
  return { decimals, scaleX, scaleY };
}

/** #rgb when every channel's two hex digits are equal, else #rrggbb (channels rounded, clamped). */
export function hexColor(c: Rgba): string {
  const r = channelByte(c.r);
  const g = channelByte(c.g);
  const b = channelByte(c.b);
  // A channel's two digits are equal when it is a multiple of 0x11.
  if (r % 17 === 0 && g % 17 === 0 && b % 17 === 0) return `#${HEX_DIGIT[r / 17]}${HEX_DIGIT[g / 17]}${HEX_DIGIT[b / 17]}`;
  return `#${hexByte(r)}${hexByte(g)}${hexByte(b)}`;
}

const HEX_DIGIT = '0123456789abcdef';

/** hexColor's text, written into the sink. */
function writeHexColor(out: TextSink, c: Rgba): void {
  const r = channelByte(c.r);
  const g = channelByte(c.g);
  const b = channelByte(c.b);
  out.byte(HASH);
  if (r % 17 === 0 && g % 17 === 0 && b % 17 === 0) {
    out.byte(HEX_CODES[r / 17]!);
    out.byte(HEX_CODES[g / 17]!);
    out.byte(HEX_CODES[b / 17]!);
    return;
  }
  writeHexByte(out, r);
  writeHexByte(out, g);
  writeHexByte(out, b);
}

/** hexByte's two digits (a channel already rounded and clamped to 0–255). */
function writeHexByte(out: TextSink, v: number): void {
  out.byte(HEX_CODES[v >> 4]!);
  out.byte(HEX_CODES[v & 15]!);
}

const HEX_CODES = Uint8Array.from(HEX_DIGIT, (d) => d.charCodeAt(0));
const HASH = 35;
const QUOTE = 34;
const LESS_THAN = 60;
const SPACE = 32;
const NEWLINE = 10;

function opacityAttribute(c: Rgba, kind: 'fill' | 'stroke'): string {
  return c.a >= 255 ? '' : ` ${kind}-opacity="${formatDecimal(opacityThousandths(c.a) / 1000)}"`;
}

/** Opacity as written: alpha (0–255) in whole thousandths. */
function opacityThousandths(alpha: number): number {
  return Math.round((alpha / 255) * 1000);
}

function round6(v: number): number {
  return Math.round(v * 1e6) / 1e6;
}

function formatDecimal(v: number): string {
  return String(Math.round(v * 1e6) / 1e6);
}

/**
 * Compact SVG path data from traced chains.
 * In: chains (engine geometry), a scale to output units and a decimal precision. Out: `d`
 * strings with relative commands, h/v/s/t shorthands where exact, repeated commands implied,
 * minimal separators and no leading zeros.
 * Exactness: every coordinate is rounded once, as an absolute position, to an integer number of
 * output steps; relative offsets are differences of those integers. So a chain written forwards
 * in one shape and backwards in its neighbour lands on exactly the same points — no drift, no
 * gap — however long the path.
 */
import type { Chain, ChainUse, Segment } from '../engine/types.js';
import { reverseSegments } from './curves.js';

/** A segment with every coordinate in integer output steps. */
export type QSegment =
  | { kind: 'line'; x: number; y: number }
  | { kind: 'quad'; cx: number; cy: number; x: number; y: number }
  | { kind: 'cubic'; c1x: number; c1y: number; c2x: number; c2y: number; x: number; y: number }
  | { kind: 'arc'; rx: number; ry: number; rotationDeg: number; largeArc: boolean; sweep: boolean; x: number; y: number };

export interface QChain {
  readonly x: number;
  readonly y: number;
  readonly segments: readonly QSegment[];
}

export interface Quantizer {
  readonly decimals: number;
  readonly scaleX: number;
  readonly scaleY: number;
}

export function quantizeChain(chain: Chain, q: Quantizer): QChain {
  const f = 10 ** q.decimals;
  const qx = (v: number): number => Math.round(v * q.scaleX * f);
  const qy = (v: number): number => Math.round(v * q.scaleY * f);
  const segments = chain.segments.map((s: Segment): QSegment => {
    switch (s.kind) {
      case 'line':
        return { kind: 'line', x: qx(s.x), y: qy(s.y) };
      case 'quad':
        return { kind: 'quad', cx: qx(s.cx), cy: qy(s.cy), x: qx(s.x), y: qy(s.y) };
      case 'cubic':
        return { kind: 'cubic', c1x: qx(s.c1x), c1y: qy(s.c1y), c2x: qx(s.c2x), c2y: qy(s.c2y), x: qx(s.x), y: qy(s.y) };
      case 'arc':
        // Radii round down: a radius rounded up past half the (rounded) chord would turn a half
        // ellipse into a flatter minor arc, while a radius a hair too small is scaled up by every
        // renderer (SVG arc radius correction) to pass exactly through both end points.
        return {
          kind: 'arc',
          rx: Math.floor(s.rx * q.scaleX * f),
          ry: Math.floor(s.ry * q.scaleY * f),
          rotationDeg: s.rotationDeg,
          largeArc: s.largeArc,
          sweep: s.sweep,
          x: qx(s.x),
          y: qy(s.y),
        };
    }
  });
  return { x: qx(chain.startX), y: qy(chain.startY), segments };
}

/** The same chain walked from its end to its start, on the same integer points. */
export function reverseChain(chain: QChain): QChain {
  // Quantised segments have the engine's segment shape (integer steps instead of pixels).
  const reversed = reverseSegments(chain.x, chain.y, chain.segments as readonly Segment[]);
  return { x: reversed.x, y: reversed.y, segments: reversed.segments as QSegment[] };
}

/** Writes numbers and commands with the fewest separators a conforming parser accepts. */
export class PathWriter {
  private parts: string[] = [];
  private lastCommand = '';
  private lastNumber = '';
  private readonly scale: number;

  constructor(readonly decimals: number) {
    this.scale = 10 ** decimals;
  }

  command(letter: string, ...values: number[]): void {
    if (letter !== this.lastCommand || letter === 'm' || letter === 'M') {
      this.parts.push(letter);
      this.lastCommand = letter;
      this.lastNumber = '';
    }
    for (const v of values) this.number(v);
  }

  /** A value already in integer output steps. */
  number(v: number): void {
    const text = formatSteps(v, this.decimals, this.scale);
    this.raw(text);
  }

  /** An arc flag or other literal number that is not in output steps. */
  literal(text: string): void {
    this.raw(text);
  }

  close(): void {
    this.parts.push('z');
    this.lastCommand = 'z';
    this.lastNumber = '';
  }

  toString(): string {
    return this.parts.join('');
  }

  private raw(text: string): void {
    const needsSpace = this.lastNumber !== '' && !(text.startsWith('-') || (text.startsWith('.') && this.lastNumber.includes('.')));
    this.parts.push(needsSpace ? ` ${text}` : text);
    this.lastNumber = text;
  }
}

/** Formats an integer count of 10^-decimals units: 123 → "12.3", -5 → "-.5", 10 → "1". */
export function formatSteps(v: number, decimals: number, scale = 10 ** decimals): string {
  if (v === 0) return '0';
  const sign = v < 0 ? '-' : '';
  const abs = v < 0 ? -v : v;
  if (decimals === 0) return sign + abs;
  const whole = Math.floor(abs / scale);
  let frac = abs - whole * scale;
  if (frac === 0) return sign + whole;
  // Fraction digits without trailing zeros, e.g. 50 of 100 → "5", 5 of 100 → "05".
  let digits = decimals;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  let text = String(frac);
  while (text.length < digits) text = '0' + text;
  return whole === 0 ? `${sign}.${text}` : `${sign}${whole}.${text}`;
}

/**
 * Appends one closed loop (chain uses) to the writer as a relative subpath starting with `m`
 * from `cursor` (the previous subpath's start, which `z` returns to). Returns the new start.
 */
export function writeLoop(w: PathWriter, loop: readonly ChainUse[], chains: readonly QChain[], cursor: { x: number; y: number }): void {
  // Reversed chains are made as they are written, not kept: each is used once, and holding a
  // reversed copy of every chain would double the writer's memory on large pictures.
  const first = chainInDirection(chains, loop[0]!);
  let segments: QSegment[] = [];
  for (let p = 0; p < loop.length; p++) {
    const part = p === 0 ? first : chainInDirection(chains, loop[p]!);
    for (const s of part.segments) segments.push(s);
  }
  let startX = first.x;
  let startY = first.y;
  segments = mergeCollinearLines(startX, startY, segments);
  // A start in the middle of a straight run (a chain junction) splits that run in two: start at a
  // corner instead. Same outline, one command fewer.
  const turn = cornerStart(startX, startY, segments);
  if (turn > 0) {
    const before = segments[turn - 1]!;
    startX = before.x;
    startY = before.y;
    const rotated = segments.slice(turn).concat(segments.slice(0, turn));
    segments = mergeCollinearLines(startX, startY, rotated);
  }
  w.command('m', startX - cursor.x, startY - cursor.y);
  const pen = { x: startX, y: startY, prevC2x: NaN, prevC2y: NaN, prevQx: NaN, prevQy: NaN, prevKind: '' };
  let count = segments.length;
  // A final straight line back to the start is what `z` draws anyway.
  const last = segments[count - 1];
  if (last && last.kind === 'line' && last.x === startX && last.y === startY) count--;
  for (let i = 0; i < count; i++) writeSegment(w, segments[i]!, pen);
  w.close();
  cursor.x = startX;
  cursor.y = startY;
}

/**
 * Consecutive straight segments that continue in the same direction become one (chains meet at
 * junctions, and lattice chains are unit steps). Exact: points are integers in output steps, so
 * "same direction" is a zero cross product, not a tolerance.
 */
export function mergeCollinearLines(startX: number, startY: number, segments: readonly QSegment[]): QSegment[] {
  const out: QSegment[] = [];
  let x = startX;
  let y = startY;
  // Start of the last written segment (valid while it is a line).
  let fromX = startX;
  let fromY = startY;
  for (const s of segments) {
    const prev = out[out.length - 1];
    if (s.kind === 'line' && prev && prev.kind === 'line' && sameDirection(prev.x - fromX, prev.y - fromY, s.x - x, s.y - y)) {
      out[out.length - 1] = { kind: 'line', x: s.x, y: s.y };
    } else {
      if (s.kind === 'line' && s.x === x && s.y === y) continue; // a zero-length step says nothing
      fromX = x;
      fromY = y;
      out.push(s);
    }
    x = s.x;
    y = s.y;
  }
  return out;
}

function sameDirection(ax: number, ay: number, bx: number, by: number): boolean {
  return ax * by - ay * bx === 0 && ax * bx + ay * by > 0;
}

/**
 * Index of a segment to start a closed loop at so that the loop does not begin inside a straight
 * run: 0 when the loop already starts at a corner (or has no straight run through its start).
 */
function cornerStart(startX: number, startY: number, segments: readonly QSegment[]): number {
  const n = segments.length;
  if (n < 3) return 0;
  const first = segments[0]!;
  const last = segments[n - 1]!;
  if (first.kind !== 'line' || last.kind !== 'line') return 0;
  const beforeLast = segments[n - 2]!;
  if (!sameDirection(startX - beforeLast.x, startY - beforeLast.y, first.x - startX, first.y - startY)) return 0;
  let x = startX;
  let y = startY;
  for (let i = 0; i < n - 1; i++) {
    const a = segments[i]!;
    const b = segments[i + 1]!;
    if (a.kind !== 'line' || b.kind !== 'line' || !sameDirection(a.x - x, a.y - y, b.x - a.x, b.y - a.y)) return i + 1;
    x = a.x;
    y = a.y;
  }
  return 0;
}

/** A chain as a loop or stroke uses it: as quantised, or reversed onto the same points. */
export function chainInDirection(chains: readonly QChain[], use: ChainUse): QChain {
  return use.reversed ? reverseChain(chains[use.chain]!) : chains[use.chain]!;
}

/** Appends an open chain as its own subpath (for strokes). */
export function writeOpenChain(w: PathWriter, chain: QChain, cursor: { x: number; y: number; open?: boolean }, closed: boolean): void {
  // A chain that starts where the previous open one ended just continues the subpath (no `m0 0`).
  const continues = cursor.open === true && !closed && chain.x === cursor.x && chain.y === cursor.y;
  if (!continues) w.command('m', chain.x - cursor.x, chain.y - cursor.y);
  const pen = { x: chain.x, y: chain.y, prevC2x: NaN, prevC2y: NaN, prevQx: NaN, prevQy: NaN, prevKind: '' };
  const segments = mergeCollinearLines(chain.x, chain.y, chain.segments);
  let count = segments.length;
  const last = segments[count - 1];
  if (closed && last && last.kind === 'line' && last.x === chain.x && last.y === chain.y) count--;
  for (let i = 0; i < count; i++) writeSegment(w, segments[i]!, pen);
  if (closed) w.close();
  // After an open subpath the current point is its end; `m` is relative to that.
  cursor.x = closed ? chain.x : pen.x;
  cursor.y = closed ? chain.y : pen.y;
  cursor.open = !closed;
}

interface Pen {
  x: number;
  y: number;
  prevC2x: number;
  prevC2y: number;
  prevQx: number;
  prevQy: number;
  prevKind: string;
}

function writeSegment(w: PathWriter, s: QSegment, pen: Pen): void {
  const dx = s.x - pen.x;
  const dy = s.y - pen.y;
  switch (s.kind) {
    case 'line':
      if (dy === 0) w.command('h', dx);
      else if (dx === 0) w.command('v', dy);
      else w.command('l', dx, dy);
      pen.prevKind = 'line';
      break;
    case 'quad': {
      const rx = 2 * pen.x - pen.prevQx;
      const ry = 2 * pen.y - pen.prevQy;
      if (pen.prevKind === 'quad' && rx === s.cx && ry === s.cy) w.command('t', dx, dy);
      else w.command('q', s.cx - pen.x, s.cy - pen.y, dx, dy);
      pen.prevQx = s.cx;
      pen.prevQy = s.cy;
      pen.prevKind = 'quad';
      break;
    }
    case 'cubic': {
      const rx = 2 * pen.x - pen.prevC2x;
      const ry = 2 * pen.y - pen.prevC2y;
      if (pen.prevKind === 'cubic' && rx === s.c1x && ry === s.c1y) w.command('s', s.c2x - pen.x, s.c2y - pen.y, dx, dy);
      else w.command('c', s.c1x - pen.x, s.c1y - pen.y, s.c2x - pen.x, s.c2y - pen.y, dx, dy);
      pen.prevC2x = s.c2x;
      pen.prevC2y = s.c2y;
      pen.prevKind = 'cubic';
      break;
    }
    case 'arc':
      w.command('a', s.rx, s.ry);
      w.literal(String(Math.round(s.rotationDeg * 100) / 100));
      w.literal(s.largeArc ? '1' : '0');
      w.literal(s.sweep ? '1' : '0');
      w.number(dx);
      w.number(dy);
      pen.prevKind = 'arc';
      break;
  }
  pen.x = s.x;
  pen.y = s.y;
}

// Structural statistics of an SVG string: drawn elements and path nodes.
// Pure functions over strings; a small tolerant scanner, not a full XML parser.

const ARITY = { M: 2, L: 2, H: 1, V: 1, C: 6, S: 4, Q: 4, T: 2, A: 7, Z: 0 };
const DRAWN = /<(path|circle|ellipse|rect|polygon|polyline)\b([^>]*)>/gi;

function isDigit(c) {
  return c >= 48 && c <= 57;
}

/**
 * Count the segments of an SVG path `d` string: every M/L/H/V/C/S/Q/T/A segment
 * (absolute or relative), implicit repeats included (extra coordinate pairs after
 * M count as implicit L segments). Z closes and is not counted. Arc flags may be
 * written without separators ("a1 1 0 00 1 1" style), as the SVG grammar allows.
 */
export function countPathNodes(d) {
  let nodes = 0;
  let cmd = null;
  let argIdx = 0; // index of the next argument within the current segment
  let i = 0;
  const n = d.length;
  while (i < n) {
    const c = d.charCodeAt(i);
    const ch = d[i];
    // whitespace and commas
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || ch === ',') { i++; continue; }
    const up = ch.toUpperCase();
    if (up in ARITY && !(ch === 'e' || ch === 'E')) {
      cmd = up;
      argIdx = 0;
      i++;
      continue;
    }
    if (cmd === null || cmd === 'Z') {
      // numbers without a command (malformed) or after Z: SVG treats numbers after Z as error; skip a token
      i++;
      continue;
    }
    const arity = ARITY[cmd];
    if (cmd === 'A' && (argIdx === 3 || argIdx === 4) && (ch === '0' || ch === '1')) {
      // single-character flag
      i++;
    } else {
      // number: [+-]? digits? (. digits)? ([eE][+-]?digits)?
      let j = i;
      if (d[j] === '+' || d[j] === '-') j++;
      let digits = 0;
      while (j < n && isDigit(d.charCodeAt(j))) { j++; digits++; }
      if (d[j] === '.') {
        j++;
        while (j < n && isDigit(d.charCodeAt(j))) { j++; digits++; }
      }
      if (digits === 0) { i++; continue; } // not a number: skip the character
      if (d[j] === 'e' || d[j] === 'E') {
        let k = j + 1;
        if (d[k] === '+' || d[k] === '-') k++;
        if (k < n && isDigit(d.charCodeAt(k))) {
          while (k < n && isDigit(d.charCodeAt(k))) k++;
          j = k;
        }
      }
      i = j;
    }
    argIdx++;
    if (argIdx === arity) {
      nodes++;
      argIdx = 0;
      if (cmd === 'M') cmd = 'L'; // implicit lineto after moveto
    }
  }
  return nodes;
}

function attr(attrs, name) {
  const m = new RegExp(`(?:^|\\s)${name}\\s*=\\s*("([^"]*)"|'([^']*)')`, 'i').exec(attrs);
  return m ? (m[2] ?? m[3]) : null;
}

/** Count numbers in a points="..." list and return the number of points. */
function countPoints(points) {
  const nums = points.match(/[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g);
  return nums ? Math.floor(nums.length / 2) : 0;
}

/**
 * Gradient elements of an SVG text: `<linearGradient` and `<radialGradient` start tags (a namespace
 * prefix such as `svg:` allowed) outside comments, wherever they are (in or out of `<defs>`;
 * a gradient that only references another one's stops counts too).
 */
export function countGradients(svg) {
  const body = String(svg).replace(/<!--[\s\S]*?-->/g, '');
  return (body.match(/<(?:[\w-]+:)?(?:linear|radial)Gradient\b/g) ?? []).length;
}

/**
 * { paths, nodes, gradients } of an SVG document.
 * paths: drawn elements (<path>, <circle>, <ellipse>, <rect>, <polygon>, <polyline>)
 *        outside <defs>.
 * nodes: path segments (see countPathNodes); polygon/polyline points; 1 per
 *        circle, ellipse or rect.
 * gradients: see countGradients.
 */
export function svgStats(svg) {
  const body = svg.replace(/<!--[\s\S]*?-->/g, '').replace(/<defs\b[\s\S]*?<\/defs>/gi, '');
  let paths = 0;
  let nodes = 0;
  for (const m of body.matchAll(DRAWN)) {
    const tag = m[1].toLowerCase();
    const attrs = m[2];
    paths++;
    if (tag === 'path') nodes += countPathNodes(attr(attrs, 'd') ?? '');
    else if (tag === 'polygon' || tag === 'polyline') nodes += countPoints(attr(attrs, 'points') ?? '');
    else nodes += 1;
  }
  return { paths, nodes, gradients: countGradients(svg) };
}

/** Drawn element names counted by drawnElements, in that order. */
export const DRAWN_TAGS = ['path', 'circle', 'ellipse', 'rect', 'polygon', 'polyline'];

/**
 * Drawn elements of an SVG document by name, outside comments and <defs>:
 * { path, circle, ellipse, rect, polygon, polyline }. Tracelab writes its parameterized circles,
 * ellipses and rectangles as <circle>/<ellipse>/<rect> and every other primitive (triangle,
 * quadrilateral, bullet, star) as a <path>, so only the first three can be told from the text.
 */
export function drawnElements(svg) {
  const body = String(svg).replace(/<!--[\s\S]*?-->/g, '').replace(/<defs\b[\s\S]*?<\/defs>/gi, '');
  const counts = Object.fromEntries(DRAWN_TAGS.map((t) => [t, 0]));
  for (const m of body.matchAll(DRAWN)) counts[m[1].toLowerCase()]++;
  return counts;
}

const PAINT_PROPS = ['stroke', 'stroke-width', 'fill', 'vector-effect'];

/** The paint properties an element sets: its presentation attributes, then its style (which wins). */
function ownPaint(attrs) {
  const own = {};
  for (const prop of PAINT_PROPS) {
    const m = attrs.match(new RegExp(`(?:^|\\s)${prop}\\s*=\\s*["']([^"']*)["']`));
    if (m) own[prop] = m[1].trim();
  }
  const style = attrs.match(/(?:^|\s)style\s*=\s*["']([^"']*)["']/);
  if (style) {
    for (const decl of style[1].split(';')) {
      const i = decl.indexOf(':');
      const prop = decl.slice(0, i).trim();
      if (PAINT_PROPS.includes(prop)) own[prop] = decl.slice(i + 1).trim();
    }
  }
  return own;
}

/**
 * The stroke widths an SVG writes, in its user units: one entry per drawn element (path, circle,
 * ellipse, rect, polygon, polyline, line, text) whose stroke, inherited from its groups, is painted with
 * a width above 0 (SVG's default width 1 where none is set). Left out: elements inside <defs>, and
 * Tracelab's gap filler (its strokes are `vector-effect="non-scaling-stroke"` paths, or <use>s of
 * the filled shapes, which are not drawn elements here). Transforms are not applied (the artist's
 * files the bench picks have none). Each entry: { width, filled } (filled: the element's own fill
 * is painted, i.e. an outline around a fill rather than a free line).
 */
export function strokeWidths(svg) {
  const body = svg.replace(/<!--[\s\S]*?-->/g, '');
  const stack = [{ stroke: 'none', 'stroke-width': '1', fill: 'black', 'vector-effect': 'none' }];
  const out = [];
  let defsDepth = 0;
  for (const m of body.matchAll(/<(\/?)([a-zA-Z][\w:-]*)([^>]*?)(\/?)>/g)) {
    const [, closing, tag, attrs, selfClosing] = m;
    if (closing) {
      if (tag === 'defs') defsDepth--;
      if (stack.length > 1) stack.pop();
      continue;
    }
    const paint = { ...stack[stack.length - 1], ...ownPaint(attrs) };
    if (tag === 'defs') defsDepth++;
    if (defsDepth === 0 && /^(path|circle|ellipse|rect|polygon|polyline|line|text)$/.test(tag)) {
      const width = parseFloat(paint['stroke-width']);
      if (paint.stroke !== 'none' && paint.stroke !== '' && paint['vector-effect'] !== 'non-scaling-stroke' && width > 0) {
        out.push({ width, filled: paint.fill !== 'none' });
      }
    }
    if (selfClosing) {
      if (tag === 'defs') defsDepth--;
      continue;
    }
    stack.push(paint);
  }
  return out;
}

/** Rendered pixels per user unit of an SVG drawn `pixelWidth` wide (its viewBox, else its width). */
export function pixelsPerUnit(svg, pixelWidth) {
  const root = svg.match(/<svg\b[^>]*>/)?.[0] ?? '';
  const viewBox = root.match(/viewBox\s*=\s*["']\s*[-\d.eE+]+[\s,]+[-\d.eE+]+[\s,]+([\d.eE+]+)/);
  const width = root.match(/\swidth\s*=\s*["']\s*([\d.eE+]+)\s*(px)?["']/);
  const units = viewBox ? parseFloat(viewBox[1]) : width ? parseFloat(width[1]) : NaN;
  return units > 0 ? pixelWidth / units : NaN;
}

/**
 * The stroke width an SVG draws, in pixels of a render `pixelWidth` wide: the median of its
 * stroke widths (strokeWidths), or null when it writes no stroke.
 */
export function medianStrokePx(svg, pixelWidth) {
  const widths = strokeWidths(svg).map((s) => s.width).sort((a, b) => a - b);
  if (widths.length === 0) return null;
  const mid = widths.length >> 1;
  const median = widths.length % 2 ? widths[mid] : (widths[mid - 1] + widths[mid]) / 2;
  return median * pixelsPerUnit(svg, pixelWidth);
}

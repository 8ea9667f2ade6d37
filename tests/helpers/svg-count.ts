/** Count of filled shape elements (path, circle, ellipse, rect) in an SVG written by src/formats/svg.ts. */
export function countFilledPaths(svg: string): number {
  let n = 0;
  for (const m of svg.matchAll(/<(?:path|circle|ellipse|rect)\b[^>]*>/g)) if (/\sfill="(?!none")/.test(m[0])) n++;
  return n;
}

/**
 * CIEDE2000 colour difference between two sRGB colours (0–255), for tests that hold colours to a
 * perceptual tolerance: the engine's own formula (src/engine/color.ts deltaE2000) on CIE Lab (D65).
 */
import { deltaE2000 as deltaE2000OfLab, rgbToLab } from '../../src/engine/color.js';

export type Rgb3 = readonly [number, number, number];

export function deltaE2000(a: Rgb3, b: Rgb3): number {
  const lab = new Float64Array(6);
  rgbToLab(a[0], a[1], a[2], lab, 0);
  rgbToLab(b[0], b[1], b[2], lab, 3);
  return deltaE2000OfLab(lab, 0, lab, 1);
}

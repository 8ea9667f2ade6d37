/**
 * The sample gallery: small pictures in public/samples/, drawn by the project (e2e/samples.ts,
 * `node scripts/make-samples.mjs`; provenance in public/samples/SOURCES.md). One per kind of
 * picture the presets aim at, each with the preset that suits it.
 */

import type { Preset } from './presets.js';

export interface Sample {
  /** File in public/samples/. */
  readonly file: string;
  readonly title: string;
  /** Alt text of the thumbnail. */
  readonly alt: string;
  /** The preset that suits the picture. */
  readonly preset: Preset['id'] | null;
  /** Shown with hard pixel edges when scaled up. */
  readonly pixelated?: true;
}

export const SAMPLES: readonly Sample[] = [
  { file: 'shapes.png', title: 'Shapes', alt: 'Blue square, red ring, yellow star and green triangle', preset: null },
  { file: 'logo.png', title: 'Logo', alt: 'Teal badge with a white star beside an orange frame', preset: 'logo' },
  { file: 'lineart.png', title: 'Line art', alt: 'Smiling sun drawn in dark ink on paper', preset: 'line-art' },
  { file: 'pixel.png', title: 'Pixel art', alt: 'Red pixel-art heart above green grass', preset: 'pixel-art', pixelated: true },
  { file: 'photo.png', title: 'Photo', alt: 'Sunset over hills with a glowing sun', preset: 'photo' },
];

/** The site's base URL (the page may be served from a sub-path). */
export function siteBase(): string {
  return new URL(import.meta.env.BASE_URL, document.baseURI).href;
}

/** Absolute URL of a sample file. */
export function sampleUrl(sample: Sample): string {
  return new URL(`samples/${sample.file}`, siteBase()).href;
}

/**
 * The sample gallery: pictures in public/samples/, listed by kind (SAMPLE_KINDS). Each kind has a
 * real, freely redistributable picture at a realistic size — a logo, an icon, line art, a scan,
 * pixel art, a photo, taken from Debian packages (public domain, CC0, BSD or GPL; source and
 * licence of each in public/samples/SOURCES.md) — so the gallery shows what the tool does with the
 * pictures people bring; and the small pictures the project draws itself (e2e/samples.ts,
 * `node scripts/make-samples.mjs`), which tests use. Each sample names the preset that suits it.
 * tests/engine/profile.test.ts checks every sample gets the profile its kind says.
 */

import type { Preset } from './presets.js';

/** A kind of picture, and the profile (tracelab.profile) the engine must decide for it. */
export interface SampleKind {
  readonly id: 'logo' | 'icon' | 'lineart' | 'scan' | 'pixel' | 'photo';
  /** Heading of the kind in the gallery. */
  readonly title: string;
  readonly profile: 'flat' | 'lineart' | 'pixel' | 'photo';
}

/** The kinds, in gallery order. A scan of ink on paper is traced as line art (docs/lineart.md). */
export const SAMPLE_KINDS: readonly SampleKind[] = [
  { id: 'logo', title: 'Logos and flat art', profile: 'flat' },
  { id: 'icon', title: 'Icons', profile: 'flat' },
  { id: 'lineart', title: 'Line art', profile: 'lineart' },
  { id: 'scan', title: 'Scans', profile: 'lineart' },
  { id: 'pixel', title: 'Pixel art', profile: 'pixel' },
  { id: 'photo', title: 'Photos', profile: 'photo' },
];

export interface Sample {
  /** File in public/samples/. */
  readonly file: string;
  readonly kind: SampleKind['id'];
  readonly title: string;
  /** Alt text of the thumbnail. */
  readonly alt: string;
  /** 'real': a picture from elsewhere (SOURCES.md); 'drawn': drawn by the project's code. */
  readonly origin: 'real' | 'drawn';
  /** The preset that suits the picture. */
  readonly preset: Preset['id'] | null;
  /** Shown with hard pixel edges when scaled up. */
  readonly pixelated?: true;
}

export const SAMPLES: readonly Sample[] = [
  { file: 'logo-debian.png', kind: 'logo', title: 'Debian logo', alt: 'Pink hand-lettered "debian" over a lilac swirl', origin: 'real', preset: 'logo' },
  { file: 'shapes.png', kind: 'logo', title: 'Shapes', alt: 'Blue square, red ring, yellow star and green triangle', origin: 'drawn', preset: null },
  { file: 'logo.png', kind: 'logo', title: 'Logo', alt: 'Teal badge with a white star beside an orange frame', origin: 'drawn', preset: 'logo' },
  { file: 'icon-home.png', kind: 'icon', title: 'Home folder icon', alt: 'Blue folder with a white house on it', origin: 'real', preset: 'logo' },
  { file: 'lineart-owl.png', kind: 'lineart', title: 'Owl engraving', alt: 'Owl perched on a stump, cut in black ink', origin: 'real', preset: 'line-art' },
  { file: 'lineart.png', kind: 'lineart', title: 'Line art', alt: 'Smiling sun drawn in dark ink on paper', origin: 'drawn', preset: 'line-art' },
  { file: 'scan-graph.png', kind: 'scan', title: 'Scanned graph', alt: 'A printed line graph, scanned slightly askew', origin: 'real', preset: 'line-art' },
  { file: 'pixel-dungeon.png', kind: 'pixel', title: 'Dungeon items', alt: 'Pixel-art amulets, armour, boots and a wizard hat', origin: 'real', preset: 'pixel-art', pixelated: true },
  { file: 'pixel.png', kind: 'pixel', title: 'Pixel art', alt: 'Red pixel-art heart above green grass', origin: 'drawn', preset: 'pixel-art', pixelated: true },
  { file: 'photo-coffee.jpg', kind: 'photo', title: 'Coffee cup', alt: 'An espresso cup with a spoon on a red saucer, on a wooden table', origin: 'real', preset: 'photo' },
  { file: 'photo.png', kind: 'photo', title: 'Photo', alt: 'Sunset over hills with a glowing sun', origin: 'drawn', preset: 'photo' },
];

/** The samples of each kind, in gallery order (kinds without a sample are left out). */
export function samplesByKind(samples: readonly Sample[] = SAMPLES): { readonly kind: SampleKind; readonly samples: readonly Sample[] }[] {
  return SAMPLE_KINDS.map((kind) => ({ kind, samples: samples.filter((s) => s.kind === kind.id) })).filter((g) => g.samples.length > 0);
}

/** The site's base URL (the page may be served from a sub-path). */
export function siteBase(): string {
  return new URL(import.meta.env.BASE_URL, document.baseURI).href;
}

/** Absolute URL of a sample file. */
export function sampleUrl(sample: Sample): string {
  return new URL(`samples/${sample.file}`, siteBase()).href;
}

/**
 * Stage 1: look at the bitmap and decide what kind of picture it is, from evidence in its pixels,
 * never from its size alone.
 * In: RGBA pixels (and their neighbour spread, see neighbourSpread). Out: ProfileFacts — the profile,
 * a short human reason for it, and the measurements it was decided on:
 * - 'pixel': an intended lattice — hard steps without anti-aliasing, runs of exactly one colour,
 *   colours that repeat (traced on the pixel lattice);
 * - 'flat': flat or anti-aliased art (palette + sub-pixel edges);
 * - 'photo': continuous tone — grain (no exact runs) or smooth ramps with noise (coarser palette,
 *   automatic speckle removal, no polygonal primitives);
 * - 'lineart': ink on paper — exactly two colours without blends (potrace-style outlines), two
 *   contrasting tones with anti-aliased blends between them (twoTones; traced as flat art), a scan
 *   of ink on paper (inkOnPaper: grain, a drifting paper, blurred edges; traced in its two tones,
 *   inInkAndPaper), or one ink anti-aliased on transparent paper.
 * The anti-aliasing test counts edge pixels that are a strict blend of the pixels on both sides,
 * and apart from them hairline pixels (darkenedBlend: the two sides darkened by a partial line).
 */
import { blendResidualSqFromB, blendShare, blendSpanSq } from '../blend.js';
import { pixelWords, RGB_MASK } from '../pixel-words.js';
import type { ImageProfile } from '../types.js';

export const OPAQUE_ALPHA_MIN = 128;
/** Pixel art has a bounded palette; dithered title screens reach a few thousand colours. */
const MAX_PIXEL_ART_COLORS = 4096;
/**
 * Contrasty pairs per pixel below which a picture has too few edges to call them hard: every
 * pixel-art image of the corpus and validation set has 0.02 or more (a floor texture 0.021,
 * sprites 0.5–0.9); a smooth microscope image 0.000.
 */
const PIXEL_MIN_EDGE_DENSITY = 0.005;
/** Share of contrasty neighbour pairs with an in-between blend above which art is anti-aliased. */
const MAX_PIXEL_ART_BLEND_RATIO = 0.2;
/**
 * Share of contrasty pairs that are hairline blends (blendTest) from which edges are not hard: a
 * logo outlined with a 0.4-px hairline has 0.05–0.16 (by the bench's count), pixel art of the
 * corpus and validation set 0.01 or less (its 1-px outlines repeat one exact colour).
 */
const HAIRLINE_RATIO_MAX = 0.025;
/**
 * Share of contrasty pairs that are alpha blends (alphaBlendRatio) from which edges are not hard:
 * lettering exported on transparency has 0.2 or more (fixtures), pixel art keeps its alpha binary
 * (0 on every pixel-art image of the corpus and validation set).
 */
const ALPHA_BLEND_RATIO_MAX = 0.05;
/** Share of flat pixels from which art is flat (areas of one colour), not texture or photo. */
const FLAT_SHARE_MIN = 0.45;
/** Palette size up to which a picture without flat areas is read as dithered / textured pixel art. */
const MAX_TEXTURE_COLORS = 64;
/**
 * Opaque pixels up to which a two-colour picture is a sprite or an icon (pixel art), not a
 * drawing: at 128 × 128 and below, two colours are too few pixels to hold smooth outlines.
 */
const MAX_SPRITE_PIXELS = 16_384;
/**
 * Share of pixels with an exactly equal 4-neighbour ("runs") from which hard-edged art is pixel
 * art: every clean pixel-art image of the corpus and validation set has 0.67 or more; a photo's
 * grain leaves 0.02–0.20 (clipped skies and JPEG-smoothed areas up to 0.61).
 */
const PIXEL_RUNS_MIN = 0.5;
/**
 * A sprite whose shading ramps are drawn per pixel (pre-rendered sprites: every ramp step is a
 * blend of its neighbours, so the blend ratio reaches 0.2–0.3): pixel art when its runs and
 * repeated colours say the lattice is intended.
 */
const SPRITE_BLEND_RATIO_MAX = 0.3;
const SPRITE_RUNS_MIN = 0.7;
const SPRITE_NOISE_MAX = 0.05;
/**
 * ... and when its blends are spread over the picture, not gathered in anti-aliased tiles (a blend
 * ratio of 0.35 or more in a tile): flat art with a sprite beside it averages to the same blend
 * ratio, but its flat-art tiles are plainly anti-aliased (that picture is flat art whose sprite
 * tiles stay on the lattice: hardTiles).
 */
const SPRITE_AA_TILES_MAX = 0.15;
const AA_TILE_BLEND_RATIO = 0.35;
/**
 * A colour picture with fewer runs than this and more than GREY_LEVELS colours is grain: a photo.
 * Flat and gradient art keep 0.73 or more (JPEG'd art 0.59 or more), scans of line art have few
 * colours.
 */
const PHOTO_RUNS_MAX = 0.5;
const GREY_LEVELS = 256;
/**
 * A grey picture's runs say little (levels repeat by chance), its level histogram more: grey art
 * keeps most pixels on a few levels (its flat tones; anti-aliasing adds thin tails), a photo
 * spreads them. The 8 most common levels hold 93–99 % of the corpus's grey drawings and text and
 * 8–23 % of grey copies of the corpus's and tuning set's photos; the threshold is the middle of
 * that gap.
 */
const TOP_GREY_LEVELS = 8;
const GREY_PHOTO_TOP_LEVELS_MAX = 0.58;
/**
 * ... unless nearly every pixel has an exactly equal neighbour while there are edges: a grey icon
 * shaded with gradients spreads its levels too, but a rendering repeats each level along the
 * gradient (0.85–0.96 of pixels in runs on Tango's grey device icons), where grey photos keep
 * 0.09–0.67 (scikit-image's photos; an edgeless, smooth picture is a photo whatever its runs).
 */
const GREY_PHOTO_RUNS_MAX = 0.76;
/**
 * Pixel-scale texture (a painted wall tile): some runs, colours that mostly repeat, hard edges
 * more often than not, no flat areas. A grainy photo never has both the runs and the repeats;
 * a grey photo's values repeat by chance (256 levels), so grey pictures never qualify.
 */
const TEXTURE_RUNS_MIN = 0.25;
const TEXTURE_NOISE_MAX = 0.5;
const TEXTURE_BLEND_MAX = 0.5;
/**
 * Smooth photos (fog, skies, a moon): share of RAMP_TILE_PX tiles without an edge whose colour
 * still drifts by RAMP_MIN_RANGE or more, together with rare colours (grain, JPEG noise on a
 * ramp). Gradient art reaches 0.20 of ramp tiles but keeps its colours (noise ≤ 0.09); JPEG'd
 * flat art has noise but few ramp tiles (≤ 0.09); the corpus's night sky (photo-rocket) has 0.15
 * and 0.18, the validation set's smooth photos 0.21–0.66 and 0.15–0.56.
 */
const SMOOTH_RAMP_TILES_MIN = 0.12;
/**
 * Anti-aliased line art (twoTones): on the corpus's anti-aliased drawings and text 100 % of pixels
 * are ink, paper or a blend of them and 88–99 % ink or paper (a blurred, JPEG'd scan of thin
 * strokes 73 %); gradient art, photos and pixel-art floors that have two main colours keep 58 %
 * or less on the tones themselves, and a deep-sky photo (black with specks) stays below 96 % on
 * the segment.
 */
const TWO_TONE_BLEND_SHARE_MIN = 0.98;
const TWO_TONE_SHARE_MIN = 0.7;
/**
 * Pixels in rare colours (noiseShare) from which a picture may have a photo's grain: a smooth
 * photo's ramps read as grain only from here (decideProfile), and noisy flat art under it has the
 * rare colours of its gradients and of JPEG damage along its edges, not grain all over (hasPhotoGrain).
 */
const SMOOTH_NOISE_MIN = 0.12;
const RAMP_TILE_PX = 16;
const RAMP_MAX_SPREAD = 8;
const RAMP_MIN_RANGE = 10;

export interface ProfileFacts {
  readonly profile: ImageProfile;
  /** Why: a short human sentence for the stats (e.g. "two colours, no anti-aliasing: line art"). */
  readonly reason: string;
  /** Distinct opaque colours, counted up to MAX_PIXEL_ART_COLORS + 1. */
  readonly distinctColors: number;
  /** Share of contrasty pixel pairs whose middle pixel is an in-between blend. */
  readonly blendRatio: number;
  /**
   * Contrasty pixel pairs (edges that turn or slant) per opaque pixel: how much edge evidence the
   * blend ratio rests on. A smooth, low-contrast photo has almost none, so its blend ratio of 0
   * says nothing about hard edges.
   */
  readonly edgeDensity: number;
  /** Share of opaque pixels that match all four neighbours (within a small tolerance). */
  readonly flatShare: number;
  /**
   * Share of opaque pixels whose exact colour occurs at most 3 times in the image. Clean art
   * repeats its colours (even anti-aliasing blends repeat along edges): under 1–3 %. JPEG
   * noise and scans make most edge colours unique: 5 % and more.
   */
  readonly noiseShare: number;
  /** Share of opaque pixels with an exactly equal opaque 4-neighbour: runs of one colour. */
  readonly runShare: number;
  /** Every opaque pixel is grey (R = G = B): colours repeat by chance, runs say less. */
  readonly grey: boolean;
  /** Grey pictures: share of pixels in the TOP_GREY_LEVELS most common levels (1 for colour pictures). */
  readonly topLevelsShare: number;
  /** Share of RAMP_TILE_PX tiles with no edge whose colour drifts: smooth ramps (0 when no rule read it). */
  readonly rampTiles: number;
  /** Share of judged tiles (HARD_TILE_MIN_EDGES edges or more) that are plainly anti-aliased. */
  readonly antiAliasedTiles: number;
  /** Ink and paper: how much of the picture is two contrasting tones and blends between them (0 and 0 when no rule read it). */
  readonly tones: TwoTones;
  /**
   * Ink and paper as a scan delivers them (grain, drift, blurred edges): see InkOnPaper. Measured
   * when a rule read it or the runs leave room for a scan (inInkAndPaper), else NO_INK.
   */
  readonly ink: InkOnPaper;
  /**
   * Share of contrasty pixel pairs whose middle pixel is a darkened blend of the two: a line
   * thinner than a pixel drawn between them (a hairline outline), anti-aliased by its coverage.
   */
  readonly hairlineRatio: number;
  /**
   * Share of contrasty pixel pairs that are alpha blends (a partly transparent pixel between an
   * opaque and a transparent one): ink anti-aliased in its alpha channel. Pixel art keeps its
   * alpha binary: 0.
   */
  readonly alphaBlendRatio: number;
  /**
   * Tiles of pixel art inside the picture (a sprite on a page, pixel art beside a photo): per
   * TILE_PX square, 1 when its edges are hard (turning or slanting edges, none anti-aliased).
   * Chains of flat or photo pictures that run through such tiles stay on the pixel lattice.
   */
  readonly hardTiles: TileMask;
  /**
   * Tiles of photo inside the picture (a photo pasted into a poster, a screenshot with a
   * thumbnail): per TILE_PX square, 1 when it is opaque grain — few exact runs among its pixels.
   * Outlines of a flat picture that run through such tiles get no cornered shapes (shapesFor).
   */
  readonly photoTiles: TileMask;
}

/** One flag per TILE_PX square of the picture, row by row. */
export interface TileMask {
  readonly tilePx: number;
  /** Tiles per row. */
  readonly columns: number;
  readonly set: Uint8Array;
}

/**
 * @param colors countColors(data, width × height), computed by the caller (it needs no spread, so
 * it can run while the spread is computed elsewhere).
 */
export function classifyImage(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  spread: Uint8Array,
  colors: ColorCounts = countColors(data, width * height),
): ProfileFacts {
  const opaque = colors.opaque;
  const tilesX = Math.ceil(width / TILE_PX);
  const tilesY = Math.ceil(height / TILE_PX);
  const tileContrast = new Int32Array(tilesX * tilesY);
  const tileBlends = new Int32Array(tilesX * tilesY);
  // The pixel loop is a function of its own: V8 compiles a long function again for each hot loop
  // and deoptimises on code after a loop that had not run yet; a small one compiles once.
  const tileFlat = new Int32Array(tilesX * tilesY);
  const { contrastPairs, blends, hairlines, flat, alphaBlends } = countEdgePairs(data, width, height, spread, tilesX, tileContrast, tileBlends, tileFlat);
  const noiseShare = opaque === 0 ? 0 : colors.rare / opaque;
  const blendRatio = contrastPairs === 0 ? 0 : blends / contrastPairs;
  const hairlineRatio = contrastPairs === 0 ? 0 : hairlines / contrastPairs;
  const alphaBlendRatio = contrastPairs === 0 ? 0 : alphaBlends / contrastPairs;
  const flatShare = opaque === 0 ? 1 : flat / opaque;
  const edgeDensity = opaque === 0 ? 0 : contrastPairs / opaque;
  const tileRuns = new Int32Array(tilesX * tilesY);
  const tileOpaque = new Int32Array(tilesX * tilesY);
  const { runShare, grey, topLevelsShare } = countRuns(data, width, height, tilesX, tileRuns, tileOpaque);
  const { hardTiles, photoTiles } = tileKinds(tileRuns, tileOpaque, tileFlat, tileContrast, tileBlends, tilesX, width, height);
  const antiAliasedTiles = antiAliasedTileShare(tileContrast, tileBlends);
  const late = new LateEvidence(data, width, height, spread);
  const measured = late.withEarly({ distinct: colors.distinct, opaque, blendRatio, hairlineRatio, alphaBlendRatio, edgeDensity, flatShare, noiseShare, runShare, grey, topLevelsShare, antiAliasedTiles });
  const { profile, reason } = decideProfile(measured);
  const areas = areaNote(profile, blendRatio, hardTiles, photoTiles);
  // inInkAndPaper reads the ink of a picture with grain whatever profile is decided or forced.
  const ink = runShare < SCAN_RUNS_MAX ? late.ink() : late.inkIfMeasured();
  return {
    profile,
    reason: reason + areas,
    distinctColors: Math.min(colors.distinct, MAX_PIXEL_ART_COLORS + 1),
    blendRatio,
    edgeDensity,
    flatShare,
    noiseShare,
    runShare,
    grey,
    topLevelsShare,
    rampTiles: late.rampTilesIfMeasured(),
    antiAliasedTiles,
    tones: late.tonesIfMeasured(),
    ink,
    hairlineRatio,
    alphaBlendRatio,
    hardTiles: { tilePx: TILE_PX, columns: tilesX, set: hardTiles },
    photoTiles: { tilePx: TILE_PX, columns: tilesX, set: photoTiles },
  };
}

/**
 * What was decided per area, for the stats' reason: pixel-art tiles inside a picture traced with
 * sub-pixel edges (flat, photo, anti-aliased line art) stay on the lattice; photo tiles inside
 * flat art lose their grain as a photo does and get no cornered shapes (index.ts, jobs.ts).
 */
function areaNote(profile: ImageProfile, blendRatio: number, hardTiles: Uint8Array, photoTiles: Uint8Array): string {
  const share = (tiles: Uint8Array): number => tiles.reduce((sum, t) => sum + t, 0) / tiles.length;
  const pct = (v: number): string => (v < 0.01 ? 'under 1 %' : `${Math.round(v * 100)} %`);
  const notes: string[] = [];
  const subpixel = profile === 'flat' || profile === 'photo' || (profile === 'lineart' && isAntiAliased({ blendRatio }));
  const hard = share(hardTiles);
  if (subpixel && hard > 0) notes.push(`pixel art in ${pct(hard)} of it (kept on the pixel lattice)`);
  const photo = share(photoTiles);
  if (profile === 'flat' && photo > 0) notes.push(`photo in ${pct(photo)} of it (grain removed as in a photo, no cornered shapes)`);
  return notes.length === 0 ? '' : `; ${notes.join('; ')}`;
}

/**
 * Whether as many of the picture's pixels are in rare colours as in a grainy photo's
 * (SMOOTH_NOISE_MIN). Under it, flat art that is noisy has the rare colours of its gradients
 * (the tango icons and fluent emoji: 4–9 % of pixels) or of JPEG damage along its edges; the
 * validation set's smooth photo and pixel-art title traced as flat have 14–15 %.
 */
export function hasPhotoGrain(facts: Pick<ProfileFacts, 'noiseShare'>): boolean {
  return facts.noiseShare >= SMOOTH_NOISE_MIN;
}

/**
 * The evidence decideProfile reads last (ramp tiles, two tones, ink on paper), each measured on its
 * first read: pixel art and line art in two tones are decided before some of it is read, and a
 * clean picture (noiseShare under SMOOTH_NOISE_MIN) never reads its ramp tiles. Unread evidence is
 * reported as not measured (…IfMeasured: NOT_MEASURED_RAMP_TILES, NO_TONES, NO_INK).
 */
class LateEvidence {
  private histogram: ToneHistogram | undefined;
  private measuredRampTiles: number | undefined;
  private measuredTones: TwoTones | undefined;
  private measuredInk: InkOnPaper | undefined;

  constructor(
    private readonly data: Uint8Array | Uint8ClampedArray,
    private readonly width: number,
    private readonly height: number,
    private readonly spread: Uint8Array,
  ) {}

  /** The whole evidence: the measurements made up front, and this late evidence read through getters. */
  withEarly(early: Omit<ProfileEvidence, 'rampTiles' | 'tones' | 'ink'>): ProfileEvidence {
    const late = this;
    return {
      ...early,
      get rampTiles() {
        return late.rampTiles();
      },
      get tones() {
        return late.tones();
      },
      get ink() {
        return late.ink();
      },
    };
  }

  rampTiles(): number {
    return (this.measuredRampTiles ??= rampTileShare(this.data, this.width, this.height, this.spread));
  }

  tones(): TwoTones {
    return (this.measuredTones ??= twoTones(this.data, this.width * this.height, this.toneHistogram()));
  }

  ink(): InkOnPaper {
    return (this.measuredInk ??= inkOnPaper(this.data, this.width, this.height, this.toneHistogram()));
  }

  rampTilesIfMeasured(): number {
    return this.measuredRampTiles ?? NOT_MEASURED_RAMP_TILES;
  }

  tonesIfMeasured(): TwoTones {
    return this.measuredTones ?? NO_TONES;
  }

  inkIfMeasured(): InkOnPaper {
    return this.measuredInk ?? NO_INK;
  }

  private toneHistogram(): ToneHistogram {
    return (this.histogram ??= toneHistogram(this.data, this.width * this.height));
  }
}

const NOT_MEASURED_RAMP_TILES = 0;

/** Whether the picture's contrasting edges are mostly blends (anti-aliased), not hard steps. */
export function isAntiAliased(facts: Pick<ProfileFacts, 'blendRatio'>): boolean {
  return facts.blendRatio >= MAX_PIXEL_ART_BLEND_RATIO;
}

/** The measurements decideProfile reads (see ProfileFacts for each), with the exact colour and opaque pixel counts. */
export interface ProfileEvidence
  extends Pick<ProfileFacts, 'blendRatio' | 'hairlineRatio' | 'alphaBlendRatio' | 'edgeDensity' | 'flatShare' | 'noiseShare' | 'runShare' | 'grey' | 'topLevelsShare' | 'rampTiles' | 'antiAliasedTiles' | 'tones' | 'ink'> {
  readonly distinct: number;
  readonly opaque: number;
}

/**
 * The profile and its reason from the evidence, first rule that holds. Pixel art needs positive
 * evidence of an intended lattice (hard steps, runs, repeated colours); a photo is recognised by
 * grain (no runs among thousands of colours) or by smooth ramps with noise; size alone decides
 * nothing (a 96-px photo is a photo; a 30 × 60 sprite is pixel art for its runs, not its size).
 * Within a rule the cheap evidence is read first: classifyImage measures the late evidence (ramp
 * tiles, two tones, ink on paper) only when a rule reads it (LateEvidence).
 */
/**
 * Two contrasting tones, nearly every pixel one of them or a blend between them, and most pixels
 * the tones themselves: ink on paper (a ramp between two colours is all blends). At sprite size
 * the profile calls such a picture pixel art; tracelab.strokes=auto still reads its pen lines.
 */
export function isTwoToneInk(tones: TwoTones): boolean {
  return tones.blendShare >= TWO_TONE_BLEND_SHARE_MIN && tones.toneShare >= TWO_TONE_SHARE_MIN;
}

export function decideProfile(e: ProfileEvidence): { profile: ImageProfile; reason: string } {
  const colours = e.distinct > MAX_PIXEL_ART_COLORS ? `over ${MAX_PIXEL_ART_COLORS}` : String(e.distinct);
  const pct = (v: number): string => `${Math.round(v * 100)} %`;
  // Two colours and no blends, not sprite-sized: a drawing or a scan thresholded to black and
  // white (an exact upscale of pixel art never gets here: its lattice was found first).
  if (e.distinct <= 2 && e.blendRatio < MAX_PIXEL_ART_BLEND_RATIO && e.opaque > MAX_SPRITE_PIXELS) {
    return { profile: 'lineart', reason: 'two colours, no anti-aliasing: line art' };
  }
  // "No anti-aliasing" needs edges to have been looked at: a smooth, low-contrast photo (a
  // microscope slide, fog) has no contrasty edge at all, and long runs by chance in 8-bit grey.
  // A small palette is evidence enough (a striped tile has only straight edges, which are not
  // counted).
  // Hairlines (outlines thinner than a pixel, anti-aliased by coverage) are edges that are not
  // hard, though no pixel of them is a blend of its two sides alone.
  const mayBePixelArt =
    e.distinct <= MAX_PIXEL_ART_COLORS && (e.edgeDensity >= PIXEL_MIN_EDGE_DENSITY || e.distinct <= MAX_TEXTURE_COLORS) && e.hairlineRatio < HAIRLINE_RATIO_MAX && e.alphaBlendRatio < ALPHA_BLEND_RATIO_MAX;
  if (mayBePixelArt && e.blendRatio < MAX_PIXEL_ART_BLEND_RATIO && e.runShare >= PIXEL_RUNS_MIN) {
    return { profile: 'pixel', reason: `hard edges without anti-aliasing, ${pct(e.runShare)} of pixels in runs, ${colours} colours: pixel art` };
  }
  if (mayBePixelArt && e.blendRatio < SPRITE_BLEND_RATIO_MAX && e.runShare >= SPRITE_RUNS_MIN && e.noiseShare < SPRITE_NOISE_MAX && e.antiAliasedTiles <= SPRITE_AA_TILES_MAX) {
    return { profile: 'pixel', reason: `hard edges, ${pct(e.runShare)} of pixels in runs, colours repeat (shading drawn per pixel): pixel art` };
  }
  // Ink on paper: two contrasting tones, nearly every pixel one of them or a blend between them
  // (anti-aliased edges), and most pixels the tones themselves (a ramp between two colours is
  // all blends). Traced as flat art is; the profile says what the picture is.
  if (e.opaque > MAX_SPRITE_PIXELS && isTwoToneInk(e.tones)) {
    return { profile: 'lineart', reason: `two tones (${pct(e.tones.toneShare)} of pixels) and anti-aliased blends between them: line art` };
  }
  // A scan: the same ink and paper, but with grain, a drifting paper tone, blurred edges.
  if (e.opaque > MAX_SPRITE_PIXELS && isInkOnPaper(e.ink)) {
    return { profile: 'lineart', reason: `ink on paper (${pct(e.ink.axisShare)} of pixels between the two tones, in-between tones only along the ink's edges): line art` };
  }
  if (hasPhotoGrain(e) && e.rampTiles >= SMOOTH_RAMP_TILES_MIN) {
    return { profile: 'photo', reason: `smooth ramps over ${pct(e.rampTiles)} of the picture, ${pct(e.noiseShare)} of pixels in rare colours (grain): photo` };
  }
  if (mayBePixelArt && !e.grey && e.flatShare < FLAT_SHARE_MIN && e.runShare >= TEXTURE_RUNS_MIN && e.noiseShare <= TEXTURE_NOISE_MAX && e.blendRatio < TEXTURE_BLEND_MAX) {
    return { profile: 'pixel', reason: `pixel-scale texture: ${pct(e.runShare)} of pixels in runs, most colours repeat, mostly hard edges: pixel art` };
  }
  if (e.grey && e.topLevelsShare < GREY_PHOTO_TOP_LEVELS_MAX && (e.runShare < GREY_PHOTO_RUNS_MAX || e.edgeDensity < PIXEL_MIN_EDGE_DENSITY)) {
    return { profile: 'photo', reason: `grey tones spread over many levels (the ${TOP_GREY_LEVELS} most common hold ${pct(e.topLevelsShare)} of pixels): photo` };
  }
  if (!e.grey && e.distinct > GREY_LEVELS && e.runShare < PHOTO_RUNS_MAX) {
    return { profile: 'photo', reason: `${colours} colours and grain (only ${pct(e.runShare)} of pixels in runs): photo` };
  }
  if (e.flatShare >= FLAT_SHARE_MIN) {
    return { profile: 'flat', reason: `${pct(e.flatShare)} of pixels in flat areas${e.blendRatio >= MAX_PIXEL_ART_BLEND_RATIO ? ', anti-aliased edges' : ''}: flat art` };
  }
  return withoutFlatAreas(e, colours, pct);
}

/** decideProfile's last rules: a picture without flat areas that no earlier rule placed. */
function withoutFlatAreas(e: ProfileEvidence, colours: string, pct: (v: number) => string): { profile: ImageProfile; reason: string } {
  // Few colours and no flat areas: dithering or a noise texture drawn from a small palette (a
  // photo has thousands of colours). Its ramps look like blends, but every pixel is meant.
  // One ink whose edges are anti-aliased in the alpha channel (two colours cannot blend: every
  // blend counted is an alpha one): ink on transparent paper, a drawing or lettering.
  if (e.distinct <= 2 && e.blendRatio >= MAX_PIXEL_ART_BLEND_RATIO) return { profile: 'lineart', reason: 'one ink anti-aliased on transparent paper: line art' };
  // Dithering keeps its alpha binary: a picture anti-aliased in its alpha channel is not it.
  if (e.distinct <= MAX_TEXTURE_COLORS && e.alphaBlendRatio < ALPHA_BLEND_RATIO_MAX) return { profile: 'pixel', reason: `${colours} colours without flat areas (dithering or a drawn texture): pixel art` };
  // Thin lettering or a logo on transparency: too thin for flat areas, but anti-aliased and its
  // colours in runs, not grain (PHOTO_RUNS_MAX). Hairline-outlined lettering keeps 0.55–0.70 of
  // its pixels in runs (fixtures); the photos of the corpus and validation set that get here
  // (under 45 % flat pixels) 0.30 or fewer.
  if (isAntiAliased(e) && e.runShare >= PHOTO_RUNS_MAX) {
    return { profile: 'flat', reason: `anti-aliased edges, ${pct(e.runShare)} of pixels in runs, too thin for flat areas: flat art` };
  }
  return { profile: 'photo', reason: `continuous tone: ${colours} colours, ${pct(e.flatShare)} of pixels in flat areas: photo` };
}

/** Pixels of tile t (edge tiles are cut by the picture's border). */
function tileArea(t: number, tilesX: number, width: number, height: number): number {
  const x0 = (t % tilesX) * TILE_PX;
  const y0 = Math.floor(t / tilesX) * TILE_PX;
  return (Math.min(width, x0 + TILE_PX) - x0) * (Math.min(height, y0 + TILE_PX) - y0);
}

/**
 * Runs: the share of opaque pixels with an exactly equal opaque right or lower neighbour, counted
 * for both pixels of the pair (and per TILE_PX tile into tileRuns, with its opaque pixels in
 * tileOpaque); and whether every opaque pixel is grey.
 */
function countRuns(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  tilesX: number,
  tileRuns: Int32Array,
  tileOpaque: Int32Array,
): { runShare: number; grey: boolean; topLevelsShare: number } {
  // Per column: the pixel pairs with the one above (found on the row before) or below (for the row
  // after); along the row, with its left neighbour. In a run when any of its four pairs is.
  let above = new Uint8Array(width);
  let below = new Uint8Array(width);
  // Per grey level (the red channel: only read when every pixel is grey).
  const levels = new Float64Array(256);
  const words = pixelWords(data);
  let opaque = 0;
  let grey = true;
  let runs = 0;
  // Tile by tile along the row: a tile's opaque pixels and runs are counted in locals, added once.
  for (let y = 0; y < height; y++) {
    const rowStart = y * width;
    const hasBelow = y + 1 < height;
    let leftRun = 0;
    for (let x0 = 0, tile = (y >> TILE_SHIFT) * tilesX; x0 < width; x0 += TILE_PX, tile++) {
      const x1 = Math.min(width, x0 + TILE_PX);
      let opaqueInTile = 0;
      let runsInTile = 0;
      for (let x = x0; x < x1; x++) {
        const i = rowStart + x;
        const o = i * 4;
        if (data[o + 3]! < OPAQUE_ALPHA_MIN) {
          below[x] = leftRun = 0;
          continue;
        }
        opaqueInTile++;
        // The levels are only read when every pixel is grey: not counted past the first colour.
        if (grey) {
          const level = data[o]!;
          if (level !== data[o + 1] || level !== data[o + 2]) grey = false;
          else levels[level]!++;
        }
        // One masked word comparison first: it rules out most pairs of a busy picture.
        const w = words[i]!;
        const rightRun = x + 1 < width && ((w ^ words[i + 1]!) & RGB_MASK) === 0 && data[o + 7]! >= OPAQUE_ALPHA_MIN ? 1 : 0;
        const downRun = hasBelow && ((w ^ words[i + width]!) & RGB_MASK) === 0 && data[o + width * 4 + 3]! >= OPAQUE_ALPHA_MIN ? 1 : 0;
        below[x] = downRun;
        runsInTile += above[x]! | leftRun | rightRun | downRun;
        leftRun = rightRun;
      }
      tileOpaque[tile]! += opaqueInTile;
      opaque += opaqueInTile;
      tileRuns[tile]! += runsInTile;
      runs += runsInTile;
    }
    const done = above;
    above = below;
    below = done;
  }
  return { runShare: opaque === 0 ? 1 : runs / opaque, grey, topLevelsShare: grey && opaque > 0 ? topLevelsOf(levels) / opaque : 1 };
}

/** Pixels on the TOP_GREY_LEVELS most common of the grey levels counted (sorts `levels`). */
function topLevelsOf(levels: Float64Array): number {
  let topLevels = 0;
  levels.sort();
  for (let k = 0; k < TOP_GREY_LEVELS; k++) topLevels += levels[255 - k]!;
  return topLevels;
}

/**
 * Share of whole RAMP_TILE_PX tiles that hold no edge (every pixel's spread ≤ RAMP_MAX_SPREAD,
 * all opaque) and whose colour still spans RAMP_MIN_RANGE or more in some channel: a smooth ramp
 * (a sky, fog, a gradient). 0 for pictures smaller than one tile.
 */
function rampTileShare(data: Uint8Array | Uint8ClampedArray, width: number, height: number, spread: Uint8Array): number {
  let tiles = 0;
  let ramps = 0;
  for (let ty = 0; ty + RAMP_TILE_PX <= height; ty += RAMP_TILE_PX) {
    for (let tx = 0; tx + RAMP_TILE_PX <= width; tx += RAMP_TILE_PX) {
      tiles++;
      let smooth = true;
      let lo0 = 255, lo1 = 255, lo2 = 255, hi0 = 0, hi1 = 0, hi2 = 0;
      for (let y = ty; y < ty + RAMP_TILE_PX && smooth; y++) {
        for (let x = tx; x < tx + RAMP_TILE_PX; x++) {
          const i = y * width + x;
          const o = i * 4;
          if (spread[i]! > RAMP_MAX_SPREAD || data[o + 3]! < OPAQUE_ALPHA_MIN) {
            smooth = false;
            break;
          }
          const r = data[o]!, g = data[o + 1]!, b = data[o + 2]!;
          if (r < lo0) lo0 = r;
          if (r > hi0) hi0 = r;
          if (g < lo1) lo1 = g;
          if (g > hi1) hi1 = g;
          if (b < lo2) lo2 = b;
          if (b > hi2) hi2 = b;
        }
      }
      if (smooth && Math.max(hi0 - lo0, hi1 - lo1, hi2 - lo2) >= RAMP_MIN_RANGE) ramps++;
    }
  }
  return tiles === 0 ? 0 : ramps / tiles;
}

/**
 * Per tile: grain (few exact runs among mostly opaque pixels) = a piece of photo; otherwise many
 * edges that turn or slant, none of them anti-aliased = a piece of pixel art. Grain comes first:
 * a photo's tile along a hard seam (a photo pasted on paper) has hard edges too.
 */
function tileKinds(
  tileRuns: Int32Array,
  tileOpaque: Int32Array,
  tileFlat: Int32Array,
  tileContrast: Int32Array,
  tileBlends: Int32Array,
  tilesX: number,
  width: number,
  height: number,
): { hardTiles: Uint8Array; photoTiles: Uint8Array } {
  const hardTiles = new Uint8Array(tileRuns.length);
  const photoTiles = new Uint8Array(tileRuns.length);
  for (let t = 0; t < hardTiles.length; t++) {
    const grain = tileRuns[t]! < tileOpaque[t]! * PHOTO_TILE_RUNS_MAX && tileFlat[t]! < tileOpaque[t]! * PHOTO_TILE_FLAT_MAX;
    if (tileOpaque[t]! * 2 >= tileArea(t, tilesX, width, height) && grain) photoTiles[t] = 1;
    else if (tileContrast[t]! >= HARD_TILE_MIN_EDGES && tileBlends[t]! <= tileContrast[t]! * HARD_TILE_MAX_BLEND_RATIO) hardTiles[t] = 1;
  }
  return { hardTiles, photoTiles };
}

/** The share of tiles with enough edges to judge whose edges are mostly blends (anti-aliased). */
function antiAliasedTileShare(tileContrast: Int32Array, tileBlends: Int32Array): number {
  let judged = 0;
  let antiAliased = 0;
  for (let t = 0; t < tileContrast.length; t++) {
    if (tileContrast[t]! < HARD_TILE_MIN_EDGES) continue;
    judged++;
    if (tileBlends[t]! >= tileContrast[t]! * AA_TILE_BLEND_RATIO) antiAliased++;
  }
  return judged === 0 ? 0 : antiAliased / judged;
}

/**
 * A translucent pixel between an opaque and a transparent one is anti-aliasing done in the alpha
 * channel (logos exported on transparency): counted like a colour blend, across x and across y.
 * Returns the contrast pairs (bits 0–1) and blends (bits 2–3) it makes, 0–2 each.
 */
function alphaEdgePairs(data: Uint8Array | Uint8ClampedArray, o: number, x: number, y: number, width: number, height: number): number {
  let contrast = 0;
  let blends = 0;
  if (x > 0 && x < width - 1) {
    const r = alphaBlendTest(data, o, o - 4, o + 4);
    contrast += r & 1;
    blends += r >> 1;
  }
  if (y > 0 && y < height - 1) {
    const r = alphaBlendTest(data, o, o - width * 4, o + width * 4);
    contrast += r & 1;
    blends += r >> 1;
  }
  return contrast | (blends << 2);
}

/**
 * The opaque pixel at byte o between its neighbours across x and across y (blendTest), per tile
 * into tileContrast and tileBlends. Returns the contrast pairs (bits 0–1), blends (bits 2–3) and
 * hairline blends (bits 4–5) it makes, 0–2 each.
 * A straight edge along the lattice (a vertical edge for the horizontal test) looks the same in
 * aliased and anti-aliased art: only edges that turn or slant tell them apart, and counting the
 * straight ones would let a logo's long straight sides outvote its curves.
 */
function colourEdgePairs(data: Uint8Array | Uint8ClampedArray, o: number, x: number, y: number, width: number, height: number, tile: number, tileContrast: Int32Array, tileBlends: Int32Array): number {
  const row = width * 4;
  let contrast = 0;
  let blends = 0;
  let hairlines = 0;
  if (x > 0 && x < width - 1 && !(y > 0 && y < height - 1 && straightRun(data, o, row) && straightRun(data, o - 4, row) && straightRun(data, o + 4, row))) {
    const r = blendTest(data, o, o - 4, o + 4);
    contrast += r & 1;
    blends += (r >> 1) & 1;
    hairlines += r >> 2;
    tileContrast[tile]! += r & 1;
    // A tile's hairline blends make its edges as soft as anti-aliasing does.
    tileBlends[tile]! += ((r >> 1) | (r >> 2)) & 1;
  }
  if (y > 0 && y < height - 1 && !(x > 0 && x < width - 1 && straightRun(data, o, 4) && straightRun(data, o - row, 4) && straightRun(data, o + row, 4))) {
    const r = blendTest(data, o, o - width * 4, o + width * 4);
    contrast += r & 1;
    blends += (r >> 1) & 1;
    hairlines += r >> 2;
    tileContrast[tile]! += r & 1;
    tileBlends[tile]! += ((r >> 1) | (r >> 2)) & 1;
  }
  return contrast | (blends << 2) | (hairlines << 4);
}

/**
 * classifyImage's pixel loop: high-contrast neighbour pairs that turn or slant (contrastPairs),
 * those of them that are blends, those that are hairline blends, and flat opaque pixels; per tile into tileContrast, tileBlends and
 * tileFlat.
 */
function countEdgePairs(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  spread: Uint8Array,
  tilesX: number,
  tileContrast: Int32Array,
  tileBlends: Int32Array,
  tileFlat: Int32Array,
): { contrastPairs: number; blends: number; hairlines: number; flat: number; alphaBlends: number } {
  let contrastPairs = 0;
  let alphaBlends = 0;
  let blends = 0;
  let hairlines = 0;
  let flat = 0;
  // Tile by tile along the row (a shift per tile, not a division per pixel): a tile's flat pixels
  // are counted in a local and added once.
  for (let y = 0; y < height; y++) {
    const tileRow = (y >> TILE_SHIFT) * tilesX;
    for (let x0 = 0, tile = tileRow; x0 < width; x0 += TILE_PX, tile++) {
      const x1 = Math.min(width, x0 + TILE_PX);
      let flatInTile = 0;
      for (let x = x0; x < x1; x++) {
        const i = y * width + x;
        const o = i * 4;
        if (data[o + 3]! < OPAQUE_ALPHA_MIN) {
          if (data[o + 3]! > 0) {
            const counts = alphaEdgePairs(data, o, x, y, width, height);
            contrastPairs += counts & 3;
            blends += counts >> 2;
            alphaBlends += counts >> 2;
          }
          continue;
        }
        const pixelSpread = spread[i]!;
        if (pixelSpread <= 6) flatInTile++;
        // A blend sits between two neighbours that differ by ≥ 48, so it differs from one of them
        // by ≥ 24: pixels with a smaller spread cannot be blends (most pixels of flat art).
        if (pixelSpread < 24) continue;
        const counts = colourEdgePairs(data, o, x, y, width, height, tile, tileContrast, tileBlends);
        contrastPairs += counts & 3;
        blends += (counts >> 2) & 3;
        hairlines += counts >> 4;
      }
      tileFlat[tile]! += flatInTile;
      flat += flatInTile;
    }
  }
  return { contrastPairs, blends, hairlines, flat, alphaBlends };
}

/** Side of the square tiles (px) in which pixel art is recognised within a mixed picture. */
const TILE_SHIFT = 5;
const TILE_PX = 1 << TILE_SHIFT;
/** A tile needs this many turning or slanting edge pairs to be judged. */
const HARD_TILE_MIN_EDGES = 24;
/** ... and at most this share of them anti-aliased to count as pixel art. */
const HARD_TILE_MAX_BLEND_RATIO = 0.04;
/**
 * A mostly opaque tile with fewer exact runs than this share of its pixels is grain: a piece of
 * photo. Flat and anti-aliased art keep long runs even in busy tiles; PHOTO_RUNS_MAX is the
 * whole-picture rule.
 */
const PHOTO_TILE_RUNS_MAX = 0.3;
/**
 * ... and fewer flat pixels (neighbour spread ≤ 6) than this share: a rendered gradient has no
 * runs either, but every pixel of it is flat; grain is not.
 */
const PHOTO_TILE_FLAT_MAX = 0.9;

/** True when the pixels before and after o (at ±stride) match o within 8 per channel. */
function straightRun(data: Uint8Array | Uint8ClampedArray, o: number, stride: number): boolean {
  return near(data, o, o - stride) && near(data, o, o + stride);
}

function near(data: Uint8Array | Uint8ClampedArray, o: number, q: number): boolean {
  return (
    Math.abs(data[o]! - data[q]!) <= 8 &&
    Math.abs(data[o + 1]! - data[q + 1]!) <= 8 &&
    Math.abs(data[o + 2]! - data[q + 2]!) <= 8 &&
    Math.abs(data[o + 3]! - data[q + 3]!) <= 8
  );
}

/** The first opaque pixel at or after pixel i (pixelCount when there is none). */
function nextOpaque(data: Uint8Array | Uint8ClampedArray, i: number, pixelCount: number): number {
  while (i < pixelCount && data[i * 4 + 3]! < OPAQUE_ALPHA_MIN) i++;
  return i;
}

/** The end (exclusive) of the run of pixels from opaque pixel i on with its exact RGB, all opaque. */
function opaqueRunEnd(words: Uint32Array, data: Uint8Array | Uint8ClampedArray, i: number, pixelCount: number): number {
  const colour = words[i]! & RGB_MASK;
  let end = i + 1;
  while (end < pixelCount && (words[end]! & RGB_MASK) === colour && data[end * 4 + 3]! >= OPAQUE_ALPHA_MIN) end++;
  return end;
}

/**
 * Opaque pixels, distinct opaque colours, and pixels whose exact colour occurs at most 3 times,
 * counted with an open-addressing hash table (Fibonacci hashing, linear probing) sized to the
 * colours actually seen: it starts at 4,096 slots and grows fourfold at half load. A table sized to the
 * pixel count (4 MB for 0.3 MP) cost ~30 ms in page faults alone for clip art with 1,431 colours.
 */
export interface ColorCounts {
  readonly opaque: number;
  readonly distinct: number;
  readonly rare: number;
}

const EMPTY_KEY = -1;

export function countColors(data: Uint8Array | Uint8ClampedArray, pixelCount: number): ColorCounts {
  let bits = 12;
  let keys = new Int32Array(1 << bits).fill(EMPTY_KEY);
  // Occurrences per slot, saturating at 255 (only "≤ 3" matters).
  let counts = new Uint8Array(1 << bits);
  let opaque = 0;
  let distinct = 0;
  // Flat art repeats the colour of the pixel before: a run of one opaque colour (pixel words
  // compared) is counted at once, and the last colour's slot is reused.
  const words = pixelWords(data);
  let lastKey = EMPTY_KEY;
  let lastSlot = 0;
  let i = nextOpaque(data, 0, pixelCount);
  while (i < pixelCount) {
    const o = i * 4;
    const end = opaqueRunEnd(words, data, i, pixelCount);
    const run = end - i;
    i = nextOpaque(data, end, pixelCount);
    opaque += run;
    const key = (data[o]! << 16) | (data[o + 1]! << 8) | data[o + 2]!;
    if (key !== lastKey) {
      lastSlot = findSlot(keys, bits, key);
      if (keys[lastSlot] === EMPTY_KEY) {
        keys[lastSlot] = key;
        distinct++;
        if (distinct * 2 > keys.length) {
          // Rehash into four times the slots (few rehashes for photos with ~10⁵ colours); the
          // key's new slot is looked up again.
          const grownKeys = new Int32Array(keys.length * 4).fill(EMPTY_KEY);
          const grownCounts = new Uint8Array(keys.length * 4);
          for (let s = 0; s < keys.length; s++) {
            if (keys[s] === EMPTY_KEY) continue;
            const t = findSlot(grownKeys, bits + 2, keys[s]!);
            grownKeys[t] = keys[s]!;
            grownCounts[t] = counts[s]!;
          }
          keys = grownKeys;
          counts = grownCounts;
          bits += 2;
          lastSlot = findSlot(keys, bits, key);
        }
      }
      lastKey = key;
    }
    counts[lastSlot] = Math.min(255, counts[lastSlot]! + run);
  }
  // Each pixel of a colour seen ≤ 3 times is rare: the sum of those counts.
  let rare = 0;
  for (let s = 0; s < counts.length; s++) if (counts[s]! <= 3) rare += counts[s]!;
  return { opaque, distinct, rare };
}

/** The slot holding `key`, or the empty slot where it goes (Fibonacci hash: the product's high bits). */
function findSlot(keys: Int32Array, bits: number, key: number): number {
  const mask = keys.length - 1;
  let slot = Math.imul(key, 0x9e3779b1) >>> (32 - bits);
  while (keys[slot] !== EMPTY_KEY && keys[slot] !== key) slot = (slot + 1) & mask;
  return slot;
}

/**
 * Bit 0: the two outer pixels contrast strongly (RGB distance ≥ 48). Bit 1: the middle pixel is
 * a linear mix t·a + (1−t)·b of them (0.08 < t < 0.92, within 8 RGB units) — what anti-aliasing
 * produces. Pixel-art shading ramps are rarely such exact mixes (artists shift hue along a ramp).
 * Bit 2 (with bit 0, not bit 1): a hairline's blend (darkenedBlend).
 */
function blendTest(data: Uint8Array | Uint8ClampedArray, mid: number, a: number, b: number): number {
  if (data[a + 3]! < OPAQUE_ALPHA_MIN || data[b + 3]! < OPAQUE_ALPHA_MIN) return 0;
  const t = blendShare(data[mid]!, data[mid + 1]!, data[mid + 2]!, data[a]!, data[a + 1]!, data[a + 2]!, data[b]!, data[b + 1]!, data[b + 2]!, CONTRAST_MIN_SPAN_SQ);
  if (Number.isNaN(t)) return 0;
  if (t > 0.08 && t < 0.92 && blendResidualSqFromB(data[mid]!, data[mid + 1]!, data[mid + 2]!, data[a]!, data[a + 1]!, data[a + 2]!, data[b]!, data[b + 1]!, data[b + 2]!, t) < MIX_MAX_RESIDUAL_SQ) return 3;
  if (linearBlend(data, mid, a, b)) return 3;
  return darkenedBlend(data, mid, a, b) ? 5 : 1;
}

/**
 * Bit 2 of blendTest: the middle pixel is a darkened mix u·a + v·b (u, v ≥ 0, 0.3 ≤ u + v ≤ 0.95,
 * within 8 RGB units) and darker than both sides by 8 levels of luma or more: the two sides with a
 * dark line thinner than a pixel between them, covering the rest (a hairline outline). Pixel art's
 * 1-px outline is the line colour itself (u + v ≈ 0), its shading a hue of its own.
 */
function darkenedBlend(data: Uint8Array | Uint8ClampedArray, mid: number, a: number, b: number): boolean {
  const lumaOf = (o: number): number => 0.299 * data[o]! + 0.587 * data[o + 1]! + 0.114 * data[o + 2]!;
  if (lumaOf(mid) > Math.min(lumaOf(a), lumaOf(b)) - 8) return false;
  const ar = data[a]!, ag = data[a + 1]!, ab = data[a + 2]!;
  const br = data[b]!, bg = data[b + 1]!, bb = data[b + 2]!;
  const mr = data[mid]!, mg = data[mid + 1]!, mb = data[mid + 2]!;
  // Least squares for u, v: the 2 × 2 normal equations.
  const aa = ar * ar + ag * ag + ab * ab;
  const bbSq = br * br + bg * bg + bb * bb;
  const abDot = ar * br + ag * bg + ab * bb;
  const det = aa * bbSq - abDot * abDot;
  if (Math.abs(det) < 1) return false;
  const am = ar * mr + ag * mg + ab * mb;
  const bm = br * mr + bg * mg + bb * mb;
  const u = (am * bbSq - bm * abDot) / det;
  const v = (bm * aa - am * abDot) / det;
  if (u < 0 || v < 0 || u + v < 0.3 || u + v > 0.95) return false;
  const er = mr - u * ar - v * br;
  const eg = mg - u * ag - v * bg;
  const eb = mb - u * ab - v * bb;
  return er * er + eg * eg + eb * eb < 64;
}

/** Outer pixels closer than this (RGB units², 48 units) do not contrast: no mix is measured between them. */
const CONTRAST_MIN_SPAN_SQ = 48 * 48;
/** A middle pixel within this (RGB units², 8 units) of the straight mix is anti-aliasing. */
const MIX_MAX_RESIDUAL_SQ = 64;
/** The same floor in linear light (units² of 0–1 light). */
const LINEAR_MIN_SPAN_SQ = 1e-4;

/** sRGB byte → linear light (0–1). */
const LINEAR = Float64Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

/**
 * The same mix test in linear light: renderers that blend coverage in linear light (resvg,
 * browsers with gamma-correct text, most vector editors' exports) put an edge pixel on a curve in
 * sRGB between two saturated colours, off the straight sRGB segment.
 */
function linearBlend(data: Uint8Array | Uint8ClampedArray, mid: number, a: number, b: number): boolean {
  const ar = LINEAR[data[a]!]!;
  const ag = LINEAR[data[a + 1]!]!;
  const ab = LINEAR[data[a + 2]!]!;
  const br = LINEAR[data[b]!]!;
  const bg = LINEAR[data[b + 1]!]!;
  const bb = LINEAR[data[b + 2]!]!;
  const mr = LINEAR[data[mid]!]!;
  const mg = LINEAR[data[mid + 1]!]!;
  const mb = LINEAR[data[mid + 2]!]!;
  const t = blendShare(mr, mg, mb, ar, ag, ab, br, bg, bb, LINEAR_MIN_SPAN_SQ);
  if (Number.isNaN(t) || t <= 0.08 || t >= 0.92) return false;
  // 2 % of the pair's distance, and at least what 8-bit rounding leaves.
  return blendResidualSqFromB(mr, mg, mb, ar, ag, ab, br, bg, bb, t) < Math.max(blendSpanSq(ar, ag, ab, br, bg, bb) * 0.0004, 2e-5);
}

/**
 * The alpha-channel twin of blendTest: bit 0 when one outer pixel is opaque and the other
 * transparent (alpha < 16); bit 1 when the middle pixel's alpha lies strictly between (8 %–92 %),
 * as edge coverage does. Pixel art keeps alpha binary, so it rarely passes.
 */
function alphaBlendTest(data: Uint8Array | Uint8ClampedArray, mid: number, a: number, b: number): number {
  const aa = data[a + 3]!;
  const ab = data[b + 3]!;
  const opaqueTransparent = (aa >= OPAQUE_ALPHA_MIN && ab < 16) || (ab >= OPAQUE_ALPHA_MIN && aa < 16);
  if (!opaqueTransparent) return 0;
  const t = data[mid + 3]! / 255;
  return t > 0.08 && t < 0.92 ? 3 : 1;
}

/**
 * Per pixel, the largest channel difference (R, G, B or A) to any in-image 4-neighbour. A pixel
 * is "flat" at tolerance t when its spread is ≤ t. Computed once and shared by every stage.
 * Rows [rowFrom, rowTo) only (a band; default the whole image): each value depends on the pixel
 * and its neighbours alone, so bands computed apart concatenate to the whole-image result.
 */
export function neighbourSpread(
  data: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  rowFrom = 0,
  rowTo = height,
): Uint8Array {
  const spread = new Uint8Array(width * (rowTo - rowFrom));
  // Each horizontal and vertical pair is compared once and credited to both pixels (the pair
  // above the band's first row is compared too). Written out without helper calls: it runs once
  // per pixel, before the JIT has optimised anything.
  const base = rowFrom * width;
  const bandEnd = rowTo * width;
  // Equal pixels (most pairs in art) differ by 0, which the spread already holds: one word
  // comparison skips them.
  const words = pixelWords(data);
  for (let y = Math.max(0, rowFrom - 1); y < rowTo; y++) {
    const rowStart = y * width;
    if (y >= rowFrom) {
      // Horizontal pairs of this row: both pixels are in the band.
      for (let i = rowStart; i < rowStart + width - 1; i++) {
        if (words[i] === words[i + 1]) continue;
        const o = i * 4;
        let d = Math.abs(data[o]! - data[o + 4]!);
        const dg = Math.abs(data[o + 1]! - data[o + 5]!);
        const db = Math.abs(data[o + 2]! - data[o + 6]!);
        const da = Math.abs(data[o + 3]! - data[o + 7]!);
        if (dg > d) d = dg;
        if (db > d) d = db;
        if (da > d) d = da;
        if (d > spread[i - base]!) spread[i - base] = d;
        if (d > spread[i + 1 - base]!) spread[i + 1 - base] = d;
      }
    }
    if (y + 1 >= height) continue;
    // Vertical pairs with the next row; either pixel may lie outside the band.
    const upperInBand = y >= rowFrom;
    const lowerInBand = rowStart + width < bandEnd;
    const step = width * 4;
    for (let i = rowStart; i < rowStart + width; i++) {
      if (words[i] === words[i + width]) continue;
      const o = i * 4;
      let d = Math.abs(data[o]! - data[o + step]!);
      const dg = Math.abs(data[o + 1]! - data[o + step + 1]!);
      const db = Math.abs(data[o + 2]! - data[o + step + 2]!);
      const da = Math.abs(data[o + 3]! - data[o + step + 3]!);
      if (dg > d) d = dg;
      if (db > d) d = db;
      if (da > d) d = da;
      if (upperInBand && d > spread[i - base]!) spread[i - base] = d;
      if (lowerInBand && d > spread[i + width - base]!) spread[i + width - base] = d;
    }
  }
  return spread;
}

/** Two contrasting tones (ink and paper) and how much of the picture they and their blends cover. */
export interface TwoTones {
  /** Share of opaque pixels within TONE_NEAR of the segment between the two tones (tones and their blends). */
  readonly blendShare: number;
  /** Share of opaque pixels within TONE_NEAR of either tone itself. */
  readonly toneShare: number;
}

/** No two tones (or not measured). */
const NO_TONES: TwoTones = { blendShare: 0, toneShare: 0 };

/** Bits per channel of the tone histogram. */
const TONE_BITS = 4;
/** Smallest channel difference (0–255) between ink and paper. */
const TONE_MIN_CONTRAST = 96;
/**
 * ... and for faint ink, which only tracelab.profile=lineart takes as ink on paper: a scanned
 * map's hairlines blurred to 50–90 levels under the paper (fixtures); paper grain and blotches
 * stay within ±35.
 */
const FAINT_INK_CONTRAST = 48;
/** RGB distance within which a pixel is on a tone or on the blend between the tones. */
const TONE_NEAR = 24;

/** A histogram of opaque colours in TONE_BITS-per-channel bins: pixels and channel sums per bin. */
interface ToneHistogram {
  readonly count: Int32Array;
  readonly sum: Float64Array;
  readonly opaque: number;
}

function toneHistogram(data: Uint8Array | Uint8ClampedArray, pixelCount: number): ToneHistogram {
  const bins = 1 << (3 * TONE_BITS);
  const shift = 8 - TONE_BITS;
  const count = new Int32Array(bins);
  const sum = new Float64Array(bins * 3);
  let opaque = 0;
  // A run of one exact opaque colour is added once (art repeats the colour of the pixel before),
  // found by comparing pixel words. Sums of whole numbers are exact in doubles: the totals are
  // the same as pixel by pixel.
  const words = pixelWords(data);
  let i = nextOpaque(data, 0, pixelCount);
  while (i < pixelCount) {
    const o = i * 4;
    const end = opaqueRunEnd(words, data, i, pixelCount);
    const runLength = end - i;
    const r = data[o]!;
    const g = data[o + 1]!;
    const b = data[o + 2]!;
    const bin = ((r >> shift) << (2 * TONE_BITS)) | ((g >> shift) << TONE_BITS) | (b >> shift);
    count[bin]! += runLength;
    sum[bin * 3] += r * runLength;
    sum[bin * 3 + 1] += g * runLength;
    sum[bin * 3 + 2] += b * runLength;
    opaque += runLength;
    i = nextOpaque(data, end, pixelCount);
  }
  return { count, sum, opaque };
}

/** Mean colour of bin b. */
function binMean(h: ToneHistogram, b: number): readonly [number, number, number] {
  const n = h.count[b]!;
  return [h.sum[b * 3]! / n, h.sum[b * 3 + 1]! / n, h.sum[b * 3 + 2]! / n];
}

/** The most populous bin (the paper of an ink-on-paper picture). */
function paperBin(h: ToneHistogram): number {
  let first = 0;
  for (let b = 1; b < h.count.length; b++) if (h.count[b]! > h.count[first]!) first = b;
  return first;
}

/** Largest channel difference between bin b's mean and `a`. */
function binDistance(h: ToneHistogram, b: number, a: readonly [number, number, number]): number {
  const n = h.count[b]!;
  return Math.max(Math.abs(h.sum[b * 3]! / n - a[0]), Math.abs(h.sum[b * 3 + 1]! / n - a[1]), Math.abs(h.sum[b * 3 + 2]! / n - a[2]));
}

/**
 * The two tones of an ink-on-paper picture: the most common colour (a 16-level-per-channel
 * histogram bin, its mean) and the most common one at least TONE_MIN_CONTRAST away in some
 * channel; then how many pixels are those tones or blends of them (anti-aliased edges).
 */
export function twoTones(data: Uint8Array | Uint8ClampedArray, pixelCount: number, histogram: ToneHistogram = toneHistogram(data, pixelCount)): TwoTones {
  const { count, opaque } = histogram;
  const none = NO_TONES;
  if (opaque === 0) return none;
  const first = paperBin(histogram);
  const a = binMean(histogram, first);
  let second = -1;
  for (let b = 0; b < count.length; b++) {
    if (count[b] === 0 || (second >= 0 && count[b]! <= count[second]!)) continue;
    if (binDistance(histogram, b, a) >= TONE_MIN_CONTRAST) second = b;
  }
  if (second < 0) return none;
  const c = binMean(histogram, second);
  const dx = c[0] - a[0];
  const dy = c[1] - a[1];
  const dz = c[2] - a[2];
  const length2 = dx * dx + dy * dy + dz * dz;
  let onBlend = 0;
  let onTone = 0;
  // Art repeats the colour of the pixel before: a run of one opaque colour (pixel words compared)
  // takes one verdict, 0 off the segment, 1 a blend, 2 a tone.
  const words = pixelWords(data);
  let i = nextOpaque(data, 0, pixelCount);
  while (i < pixelCount) {
    const o = i * 4;
    const end = opaqueRunEnd(words, data, i, pixelCount);
    const verdict = toneVerdict(data[o]! - a[0], data[o + 1]! - a[1], data[o + 2]! - a[2], dx, dy, dz, length2);
    if (verdict > 0) onBlend += end - i;
    if (verdict > 1) onTone += end - i;
    i = nextOpaque(data, end, pixelCount);
  }
  return { blendShare: onBlend / opaque, toneShare: onTone / opaque };
}

/**
 * Where a colour lies against the segment from tone a to tone a + (dx, dy, dz) (length2 its
 * squared length), given as p − a: 0 off it (further than TONE_NEAR), 1 on it (a blend), 2 within
 * TONE_NEAR of either tone.
 */
function toneVerdict(px: number, py: number, pz: number, dx: number, dy: number, dz: number, length2: number): number {
  const near2 = TONE_NEAR * TONE_NEAR;
  const t = Math.min(1, Math.max(0, (px * dx + py * dy + pz * dz) / length2));
  const ex = px - t * dx;
  const ey = py - t * dy;
  const ez = pz - t * dz;
  if (ex * ex + ey * ey + ez * ez > near2) return 0;
  return px * px + py * py + pz * pz <= near2 || (px - dx) ** 2 + (py - dy) ** 2 + (pz - dz) ** 2 <= near2 ? 2 : 1;
}

/**
 * Ink on paper as a scanner or a camera delivers it: the paper has grain and drifts in tone, the
 * ink's edges are blurred into a halo of in-between tones, JPEG adds its noise. Measured along the
 * line from the paper (the most common tone) to the ink (the darkest tone common enough to be
 * the ink's, not a speck's), in units of that contrast (t: 0 paper, 1 ink).
 */
export interface InkOnPaper {
  /** Largest channel difference between paper and ink (0 when there is no second tone). */
  readonly contrast: number;
  /**
   * Share of opaque pixels within TONE_NEAR of the line through paper and ink (neither side far
   * beyond); 0 when more than 1 − INK_AXIS_SHARE_MIN of them are off it (the count stops there:
   * a colour picture is no ink on paper, and a photo's pixels need not all be projected).
   */
  readonly axisShare: number;
  /**
   * Share of opaque pixels of an in-between tone (t in the middle band) whose 3 × 3 neighbourhood
   * hardly changes: flat areas of a grey, which anti-aliasing and blur never make (their
   * in-between tones sit on a slope between ink and paper). 1 when not measured (no line, or the
   * count passed INK_LOOSE_SHARE_MAX and stopped).
   */
  readonly looseShare: number;
  /**
   * Share of neighbouring TILE_PX tiles whose papers differ by more than PAPER_STEP_MAX of the
   * contrast: a second paper (a scroll's fill on a white page) rather than a drift of one (1 when
   * not measured).
   */
  readonly paperSteps: number;
  /**
   * Share of opaque pixels of an in-between tone (t in the middle band): a scan's are the slopes of
   * its ink's edges, a minority beside paper and ink; a grey photo's texture (gravel) is mostly
   * in-between tones, each on a slope too (1 when not measured).
   */
  readonly midShare: number;
  /** Set when the evidence holds only with the light evened (a page under a lamp): that light. */
  readonly light?: EvenLight;
}

const NO_INK: InkOnPaper = { contrast: 0, axisShare: 0, looseShare: 1, paperSteps: 1, midShare: 1 };
/** The ink is the farthest bin holding at least this share of the most common far bin's pixels. */
const INK_BIN_SHARE = 1 / 8;
/** The middle band of t (neither paper nor ink). */
const MID_TONE_MIN = 0.3;
const MID_TONE_MAX = 0.7;
/** A middle-band pixel whose 3 × 3 neighbourhood spans less than this (in t) is a flat grey. */
const LOOSE_RANGE_MAX = 0.25;
/** Tiles whose paper tones differ by more than this (in t) are two papers. */
const PAPER_STEP_MAX = 0.08;
/** A tile's paper is measured when at least this share of its pixels is paper. */
const TILE_PAPER_MIN = 0.25;
/** Pixels beyond the paper (t below) or the ink (t above) that still lie on the line: grain, darker ink cores. */
const AXIS_T_MIN = -0.6;
const AXIS_T_MAX = 2;

export function inkOnPaper(data: Uint8Array | Uint8ClampedArray, width: number, height: number, histogram: ToneHistogram): InkOnPaper {
  const { count, opaque } = histogram;
  if (opaque === 0) return NO_INK;
  const paper = binMean(histogram, paperBin(histogram));
  // Faint ink (thin lines blurred below the full contrast, a pencil map) is looked for only when
  // no ink of the full contrast is there: its evidence serves tracelab.profile=lineart (inInkAndPaper).
  let common = commonFarBin(histogram, paper, TONE_MIN_CONTRAST);
  if (common < 0) common = commonFarBin(histogram, paper, FAINT_INK_CONTRAST);
  if (common < 0) return NO_INK;
  // A blurred thin stroke spreads its ink over many bins: the darkest of them that is still common
  // is the ink's core (the most common far bin may be its halo).
  let inkBin = common;
  let farthest = binDistance(histogram, common, paper);
  for (let b = 0; b < count.length; b++) {
    if (count[b]! * (1 / INK_BIN_SHARE) < count[common]!) continue;
    const d = binDistance(histogram, b, paper);
    if (d > farthest) {
      farthest = d;
      inkBin = b;
    }
  }
  const ink = binMean(histogram, inkBin);
  const t = toneAlongAxis(data, width * height, paper, ink, Math.floor(opaque * (1 - INK_AXIS_SHARE_MIN)));
  if (!t) return { ...NO_INK, contrast: farthest };
  let onAxis = 0;
  for (let i = 0; i < t.length; i++) if (!Number.isNaN(t[i]!)) onAxis++;
  const measured = midToneEvidence(t, t, width, height, opaque, farthest, onAxis / opaque);
  if (isInkOnPaper(measured)) return measured;
  // A second look with the light evened out: a page photographed under a lamp darkens its paper
  // towards the ink's tone in one corner, which the first look reads as flat in-between tones.
  // Its paper steps are still measured on the tones as they are: a drift passes them, a second
  // paper (or a photo's texture) does not.
  const evened = evenedTones(t, width, height);
  if (!evened) return measured;
  const second = midToneEvidence(evened.t, evened.t, width, height, opaque, farthest, onAxis / opaque);
  return isInkOnPaper(second) ? { ...second, light: { paper, ink, surface: evened.surface } } : measured;
}

/**
 * The light over a page photographed under a lamp (InkOnPaper.light): t of each pixel (paper 0,
 * ink 1 along paper → ink) is the quadratic `surface` at (x / width, y / height) where its paper
 * lies.
 */
export interface EvenLight {
  readonly paper: readonly [number, number, number];
  readonly ink: readonly [number, number, number];
  readonly surface: Float64Array;
}

/**
 * The picture with its light evened (line art traced in ink and paper only, whose paper darkens
 * across the page): each opaque pixel moved along paper → ink from its t to t' = (t − light) /
 * (1 − light), so paper in shadow labels as paper and ink as ink. Transparent pixels stay.
 */
export function evenLight(data: Uint8Array | Uint8ClampedArray, width: number, height: number, light: EvenLight): Uint8Array {
  const out = new Uint8Array(data);
  const { paper, ink, surface } = light;
  const dx = ink[0] - paper[0];
  const dy = ink[1] - paper[1];
  const dz = ink[2] - paper[2];
  const length2 = dx * dx + dy * dy + dz * dz;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      if (data[o + 3]! < OPAQUE_ALPHA_MIN) continue;
      const along = ((data[o]! - paper[0]) * dx + (data[o + 1]! - paper[1]) * dy + (data[o + 2]! - paper[2]) * dz) / length2;
      const shade = quadraticAt(surface, x / width, y / height);
      const shift = (along - shade) / (1 - shade) - along;
      out[o] = clampChannel(data[o]! + shift * dx);
      out[o + 1] = clampChannel(data[o + 1]! + shift * dy);
      out[o + 2] = clampChannel(data[o + 2]! + shift * dz);
    }
  }
  return out;
}

function clampChannel(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

/** The in-between-tone evidence of InkOnPaper from t (paper → ink, NaN off the line), paper steps from `paperT`. */
function midToneEvidence(t: Float32Array, paperT: Float32Array, width: number, height: number, opaque: number, contrast: number, axisShare: number): InkOnPaper {
  const loose = looseMidTones(t, width, height, Math.floor(opaque * INK_LOOSE_SHARE_MAX));
  if (loose === undefined) return { ...NO_INK, contrast, axisShare };
  return { contrast, axisShare, looseShare: loose / opaque, paperSteps: paperStepShare(paperT, width, height), midShare: midToneCount(t) / opaque };
}

/** Quantile of t taken as a tile's paper (paper is the light end: low t). */
const TILE_PAPER_QUANTILE = 0.25;
/** Tiles whose paper lies farther than this (in t) from the fitted light are ink, not paper, and are refitted without. */
const LIGHT_FIT_OUTLIER = 0.1;
const LIGHT_FIT_ROUNDS = 3;
/** Evening the light is for a paper that darkens part-way to the ink, not for a second, darker paper or a grey picture. */
const LIGHT_MAX_DARKENING = 0.6;
/**
 * ... and for light that falls off across the page by this much of the contrast or more: pages
 * photographed under a lamp drift by 0.4–0.8 (tune fixtures), a wood-grain photo's slow shading by
 * 0.19, which must not be evened into ink on paper.
 */
const LIGHT_MIN_DRIFT = 0.3;

/**
 * t measured from the paper's own tone at each pixel: the paper's tone per TILE_PX tile (its
 * TILE_PAPER_QUANTILE), fitted by a quadratic surface (light falls off smoothly: a lamp, a
 * vignette, a page's curl), tiles far off the surface dropped and the surface fitted again;
 * t' = (t − light) / (1 − light). Undefined when the surface darkens the paper by more than
 * LIGHT_MAX_DARKENING of the contrast or no tile has paper.
 */
function evenedTones(t: Float32Array, width: number, height: number): { t: Float32Array; surface: Float64Array } | undefined {
  const tiles = tilePapers(t, width, height);
  if (tiles.length < 6 * 3) return undefined;
  let used = tiles;
  let coeffs: Float64Array | undefined;
  for (let round = 0; round < LIGHT_FIT_ROUNDS; round++) {
    coeffs = fitQuadratic(used);
    if (!coeffs) return undefined;
    const c = coeffs;
    const kept: number[] = [];
    for (let k = 0; k < used.length; k += 3) if (Math.abs(quadraticAt(c, used[k]!, used[k + 1]!) - used[k + 2]!) <= LIGHT_FIT_OUTLIER) kept.push(used[k]!, used[k + 1]!, used[k + 2]!);
    if (kept.length < 6 * 3) return undefined;
    used = kept;
  }
  const c = fitQuadratic(used);
  if (!c) return undefined;
  const evened = new Float32Array(t.length);
  let lightest = Infinity;
  let darkest = -Infinity;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const light = quadraticAt(c, x / width, y / height);
      if (light > LIGHT_MAX_DARKENING) return undefined;
      lightest = Math.min(lightest, light);
      darkest = Math.max(darkest, light);
      const i = y * width + x;
      evened[i] = (t[i]! - light) / (1 - light);
    }
  }
  return darkest - lightest >= LIGHT_MIN_DRIFT ? { t: evened, surface: c } : undefined;
}

/** Per TILE_PX tile with at least half its pixels on the line: its centre (0–1 of the picture) and its paper t, as flat triples. */
function tilePapers(t: Float32Array, width: number, height: number): number[] {
  const out: number[] = [];
  const values = new Float32Array(TILE_PX * TILE_PX);
  for (let y0 = 0; y0 < height; y0 += TILE_PX) {
    for (let x0 = 0; x0 < width; x0 += TILE_PX) {
      let n = 0;
      for (let y = y0; y < Math.min(height, y0 + TILE_PX); y++) {
        for (let x = x0; x < Math.min(width, x0 + TILE_PX); x++) if (!Number.isNaN(t[y * width + x]!)) values[n++] = t[y * width + x]!;
      }
      if (n * 2 < (Math.min(height, y0 + TILE_PX) - y0) * (Math.min(width, x0 + TILE_PX) - x0)) continue;
      const paper = values.subarray(0, n).sort()[Math.floor((n - 1) * TILE_PAPER_QUANTILE)]!;
      // A tile of ink (a wide black stripe) tells nothing of the paper's light.
      if (paper < MID_TONE_MAX) out.push((x0 + TILE_PX / 2) / width, (y0 + TILE_PX / 2) / height, paper);
    }
  }
  return out;
}

/** The terms 1, x, y, x², xy, y² of the light's surface. */
function quadraticTerms(x: number, y: number, into: Float64Array): void {
  into[0] = 1;
  into[1] = x;
  into[2] = y;
  into[3] = x * x;
  into[4] = x * y;
  into[5] = y * y;
}

function quadraticAt(c: Float64Array, x: number, y: number): number {
  return c[0]! + c[1]! * x + c[2]! * y + c[3]! * x * x + c[4]! * x * y + c[5]! * y * y;
}

/** Least-squares quadratic surface through (x, y, value) triples (normal equations, Gaussian elimination); undefined when singular. */
function fitQuadratic(triples: readonly number[]): Float64Array | undefined {
  const n = 6;
  const m = new Float64Array(n * (n + 1));
  const terms = new Float64Array(n);
  for (let k = 0; k < triples.length; k += 3) {
    quadraticTerms(triples[k]!, triples[k + 1]!, terms);
    for (let r = 0; r < n; r++) {
      for (let q = 0; q < n; q++) m[r * (n + 1) + q]! += terms[r]! * terms[q]!;
      m[r * (n + 1) + n]! += terms[r]! * triples[k + 2]!;
    }
  }
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r * (n + 1) + col]!) > Math.abs(m[pivot * (n + 1) + col]!)) pivot = r;
    if (Math.abs(m[pivot * (n + 1) + col]!) < 1e-9) return undefined;
    for (let q = 0; q <= n; q++) [m[col * (n + 1) + q], m[pivot * (n + 1) + q]] = [m[pivot * (n + 1) + q]!, m[col * (n + 1) + q]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r * (n + 1) + col]! / m[col * (n + 1) + col]!;
      for (let q = col; q <= n; q++) m[r * (n + 1) + q]! -= f * m[col * (n + 1) + q]!;
    }
  }
  return Float64Array.from({ length: n }, (_, r) => m[r * (n + 1) + n]! / m[r * (n + 1) + r]!);
}

/** The most populous bin at least `contrast` from the paper (largest channel difference), or −1. */
function commonFarBin(histogram: ToneHistogram, paper: readonly [number, number, number], contrast: number): number {
  const { count } = histogram;
  let common = -1;
  for (let b = 0; b < count.length; b++) {
    if (count[b] !== 0 && (common < 0 || count[b]! > count[common]!) && binDistance(histogram, b, paper) >= contrast) common = b;
  }
  return common;
}

/** Pixels whose t lies in the middle band. */
function midToneCount(t: Float32Array): number {
  let mid = 0;
  for (let i = 0; i < t.length; i++) if (t[i]! >= MID_TONE_MIN && t[i]! <= MID_TONE_MAX) mid++;
  return mid;
}

/**
 * Per pixel, its position t along paper → ink, or NaN when it is transparent or off that line;
 * undefined as soon as more than `maxOff` opaque pixels are off it.
 */
function toneAlongAxis(data: Uint8Array | Uint8ClampedArray, pixelCount: number, paper: readonly [number, number, number], ink: readonly [number, number, number], maxOff: number): Float32Array | undefined {
  // Counted first: a colour picture fails within its first rows, before a t per pixel is written.
  if (offAxisCount(data, pixelCount, paper, ink, maxOff) > maxOff) return undefined;
  const t = new Float32Array(pixelCount).fill(NaN);
  const words = pixelWords(data);
  // Art and paper repeat the colour of the pixel before: its t is reused.
  let lastColour = -1;
  let lastT = NaN;
  for (let i = 0; i < pixelCount; i++) {
    const o = i * 4;
    if (data[o + 3]! < OPAQUE_ALPHA_MIN) continue;
    const colour = words[i]! & RGB_MASK;
    if (colour !== lastColour) {
      lastColour = colour;
      lastT = axisT(data, o, paper, ink);
    }
    t[i] = lastT;
  }
  return t;
}

/** Opaque pixels off the line paper → ink (axisT NaN), counted up to maxOff + 1. */
function offAxisCount(data: Uint8Array | Uint8ClampedArray, pixelCount: number, paper: readonly [number, number, number], ink: readonly [number, number, number], maxOff: number): number {
  const words = pixelWords(data);
  let lastColour = -1;
  let lastOff = false;
  let off = 0;
  for (let i = 0; i < pixelCount; i++) {
    const o = i * 4;
    if (data[o + 3]! < OPAQUE_ALPHA_MIN) continue;
    const colour = words[i]! & RGB_MASK;
    if (colour !== lastColour) {
      lastColour = colour;
      lastOff = Number.isNaN(axisT(data, o, paper, ink));
    }
    if (lastOff && ++off > maxOff) return off;
  }
  return off;
}

/** t of the pixel at byte o along paper → ink (0 paper, 1 ink), or NaN when it lies off that line (TONE_NEAR, AXIS_T_MIN … AXIS_T_MAX). */
function axisT(data: Uint8Array | Uint8ClampedArray, o: number, paper: readonly [number, number, number], ink: readonly [number, number, number]): number {
  const dx = ink[0] - paper[0];
  const dy = ink[1] - paper[1];
  const dz = ink[2] - paper[2];
  const length2 = dx * dx + dy * dy + dz * dz;
  const px = data[o]! - paper[0];
  const py = data[o + 1]! - paper[1];
  const pz = data[o + 2]! - paper[2];
  const along = (px * dx + py * dy + pz * dz) / length2;
  const off2 = (px - along * dx) ** 2 + (py - along * dy) ** 2 + (pz - along * dz) ** 2;
  return off2 <= TONE_NEAR * TONE_NEAR && along >= AXIS_T_MIN && along <= AXIS_T_MAX ? along : NaN;
}

/**
 * Middle-band pixels whose 3 × 3 neighbourhood (all on the line) spans less than LOOSE_RANGE_MAX;
 * undefined as soon as there are more than `maxLoose`.
 */
function looseMidTones(t: Float32Array, width: number, height: number, maxLoose: number): number | undefined {
  let loose = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const own = t[y * width + x]!;
      if (!(own >= MID_TONE_MIN && own <= MID_TONE_MAX)) continue;
      let low = own;
      let high = own;
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) {
        for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
          const v = t[ny * width + nx]!;
          // A neighbour off the line (a colour) is a step too.
          if (Number.isNaN(v)) low = -Infinity;
          else if (v < low) low = v;
          else if (v > high) high = v;
        }
      }
      if (high - low < LOOSE_RANGE_MAX && ++loose > maxLoose) return undefined;
    }
  }
  return loose;
}

/** Share of neighbouring tile pairs (both with TILE_PAPER_MIN paper) whose mean paper t differs by more than PAPER_STEP_MAX. */
function paperStepShare(t: Float32Array, width: number, height: number): number {
  const tilesX = Math.ceil(width / TILE_PX);
  const tilesY = Math.ceil(height / TILE_PX);
  const paperSum = new Float64Array(tilesX * tilesY);
  const paperCount = new Int32Array(tilesX * tilesY);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = t[y * width + x]!;
      if (!(v < MID_TONE_MIN)) continue;
      const tile = (y >> TILE_SHIFT) * tilesX + (x >> TILE_SHIFT);
      paperSum[tile]! += v;
      paperCount[tile]!++;
    }
  }
  const paperOf = (tile: number): number => (paperCount[tile]! > 0 && paperCount[tile]! >= tileArea(tile, tilesX, width, height) * TILE_PAPER_MIN ? paperSum[tile]! / paperCount[tile]! : NaN);
  let pairs = 0;
  let steps = 0;
  for (let ty = 0; ty < tilesY; ty++) {
    for (let tx = 0; tx < tilesX; tx++) {
      const own = paperOf(ty * tilesX + tx);
      if (Number.isNaN(own)) continue;
      for (const next of [tx + 1 < tilesX ? ty * tilesX + tx + 1 : -1, ty + 1 < tilesY ? (ty + 1) * tilesX + tx : -1]) {
        if (next < 0) continue;
        const other = paperOf(next);
        if (Number.isNaN(other)) continue;
        pairs++;
        if (Math.abs(own - other) > PAPER_STEP_MAX) steps++;
      }
    }
  }
  return pairs === 0 ? 0 : steps / pairs;
}

/** Thresholds of isInkOnPaper, measured on scans drawn with grain, blur, drift and JPEG (tests/helpers/scans.ts). */
const INK_AXIS_SHARE_MIN = 0.99;
const INK_LOOSE_SHARE_MAX = 0.015;
const INK_PAPER_STEPS_MAX = 0.05;
/**
 * At most this share of in-between tones: the validation set's scans have 2–14 % (every drawn
 * scan of tests/helpers/scans.ts stays under it), the grey gravel photos of the bench's derived
 * photo_small kind 27–28 %.
 */
const INK_MID_SHARE_MAX = 0.2;

/**
 * Whether the picture is ink on one paper: two tones at least TONE_MIN_CONTRAST apart, nearly
 * every pixel on the line between them (no third colour), in-between tones only on the slopes
 * between ink and paper (none in flat areas: grey-shaded art and photos have those), one paper
 * whose tone may drift but does not step.
 */
export function isInkOnPaper(ink: InkOnPaper): boolean {
  return ink.contrast >= TONE_MIN_CONTRAST && ink.axisShare >= INK_AXIS_SHARE_MIN && ink.looseShare <= INK_LOOSE_SHARE_MAX && ink.paperSteps <= INK_PAPER_STEPS_MAX && ink.midShare <= INK_MID_SHARE_MAX;
}

/**
 * Share of pixels in exact runs below which line art has grain: clean drawings and text keep 0.90
 * or more (small anti-aliased glyphs 0.90), scans of them 0.59 or less (a JPEG q85 scan of a
 * sparse drawing, whose paper JPEG smooths into runs); the middle of that gap.
 */
const SCAN_RUNS_MAX = 0.75;

/**
 * Whether line art comes back as ink and paper only (the palette's two tones): when its paper has
 * grain (few exact runs: a scan, a photo of a page), its in-between tones are the scanner's blur
 * and grain, not the artist's colours, and a second paper tone would trace the grain. Clean line
 * art keeps its palette (every colour of it is the artist's), and grey-shaded art is never ink on
 * paper (its greys lie in flat areas). With tracelab.profile=lineart (`forced`) the picture needs
 * only grain and two tones with nothing off the line between them.
 */
export function inInkAndPaper(facts: Pick<ProfileFacts, 'profile' | 'runShare' | 'ink'>, forced: boolean): boolean {
  if (facts.profile !== 'lineart' || facts.runShare >= SCAN_RUNS_MAX) return false;
  return forced ? facts.ink.contrast >= FAINT_INK_CONTRAST && facts.ink.axisShare >= INK_AXIS_SHARE_MIN : isInkOnPaper(facts.ink);
}

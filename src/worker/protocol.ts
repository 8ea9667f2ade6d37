/**
 * What crosses the worker boundary (structured-clone-safe plain data only).
 * In: nothing. Out: the worker API type, its result and its error payload.
 * No comlink here; src/worker/tracer.worker.ts (expose) and src/worker/client.ts (wrap) hold that.
 */

import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import type { GradientCounts } from '../api/pipeline.js';
import type { ImageProfile, StrokeStats } from '../engine/types.js';
import type { RenderWindow } from '../formats/raster-plan.js';

/** How far a preview trace is: the step just finished and the share of the work done (0–1). */
export interface TraceProgress {
  readonly step: string;
  readonly fraction: number;
  /** Step 'draft' of a large image: a quick trace of it shrunk, shown until the full one is done. */
  readonly draft?: TraceDraft;
}

/**
 * A draft of a large image's result (issue 14: a 2-MP drop shows something in about a second):
 * the image traced at DRAFT_PIXELS with the same options, rendered to PNG at that size (the
 * viewer scales it to the input's size). A PNG, not its SVG: an SVG <img> is parsed on the page's
 * main thread, a PNG is decoded off it.
 */
export interface TraceDraft {
  readonly png: Uint8Array;
  /** Size of the PNG (the traced size), smaller than the input's. */
  readonly width: number;
  readonly height: number;
}

/** Images above this many pixels get a draft before their full trace. */
export const DRAFT_ABOVE_PIXELS = 1_000_000;
/** The draft's traced size in pixels (input.max_pixels of its trace). */
export const DRAFT_PIXELS = 80_000;

/**
 * SVG size above which the viewer shows the worker's PNG rendering of the result: the browser
 * parses an SVG <img> on the main thread (0.2–0.3 ms per kB in Chromium, measured: a 173 kB
 * result gave a 51 ms task), so larger ones would block the page for about 50 ms or more; a PNG is
 * decoded off the main thread.
 */
export const LARGE_SVG_BYTES = 150_000;

/** One colour of the result, for the palette panel. */
export interface PaletteEntry {
  /** `#RRGGBB` or `#RRGGBBAA`, upper case (the form `processing.palette` takes). */
  readonly hex: string;
  /** Total pixel area of the shapes in this colour. */
  readonly areaPx: number;
  readonly shapes: number;
}

/**
 * One gradient fill of the result (tracelab.gradients), for the palette panel: the shapes filled
 * with the same ramp are one entry, whatever their direction or centre.
 */
export interface GradientEntry {
  readonly kind: 'linear' | 'radial';
  /** The ramp in order: offset 0–1 and `#RRGGBB` (gradient stops are opaque). */
  readonly stops: readonly { readonly offset: number; readonly hex: string }[];
  /** Total pixel area of the shapes with this fill. */
  readonly areaPx: number;
  readonly shapes: number;
}

/**
 * Summary of one trace, for the stats line and the palette panel; `gradients` / `smoothAreas`
 * (the engine's counts, tracelab.gradients) only when above 0.
 */
export interface VectorizeStats extends GradientCounts {
  readonly profile: ImageProfile;
  /** Why the engine chose it (TraceStats.profileReason); absent in stats of older workers. */
  readonly profileReason?: string;
  /** Colours in the final palette (engine stats). */
  readonly colors: number;
  /** Connected regions the engine traced. */
  readonly regions: number;
  /** Filled `<path>` elements in the SVG (gap-filler strokes not counted). */
  readonly shapes: number;
  /** UTF-8 size of the SVG document. */
  readonly bytes: number;
  /** Curve nodes (segment end points) over all chains. */
  readonly nodes: number;
  /** Pen strokes (tracelab.strokes): count, widths, pen-down and pen-up lengths; absent = none. */
  readonly strokes?: StrokeStats;
  /** Flat colours of the result (shapes without a gradient), largest area first. */
  readonly palette: readonly PaletteEntry[];
  /** Gradient fills of the result, largest area first; absent when there are none. */
  readonly gradientFills?: readonly GradientEntry[];
  /**
   * The first step this result ran again when the steps before it came from the worker's last
   * traces of the same image (an engine stage, or 'write' when only output options changed);
   * absent after a full trace.
   */
  readonly rerunFrom?: string;
}

export interface VectorizeResult {
  readonly svg: string;
  /**
   * The same SVG as UTF-8 bytes (the file), transferred: the page saves and shows these, since
   * making a Blob of the string encodes it on the main thread (about 0.1 ms per kB).
   */
  readonly svgBytes: Uint8Array;
  /**
   * For large results only (SVG above LARGE_SVG_BYTES): the result rendered to PNG at the input
   * size by the worker. Browsers rasterise an SVG <img> on the main thread — hundreds of ms for
   * ten thousand shapes — while PNG decoding runs off it, so the viewer shows this instead.
   */
  readonly previewPng: Uint8Array | null;
  readonly stats: VectorizeStats;
  /** Input image size in pixels (the SVG viewBox). */
  readonly width: number;
  readonly height: number;
  /** Wall time in the worker: decode + options + trace + SVG. */
  readonly ms: number;
  /** Only output options changed since the worker's last trace: the file was written from it. */
  readonly reusedTrace?: boolean;
  /** Same image as the worker's last one: traced from its decoded pixels (no decode). */
  readonly reusedDecode?: boolean;
  /** Engine stages taken from the worker's earlier traces of this image (every stage when reusedTrace). */
  readonly reusedStages?: readonly string[];
}

/**
 * The error a failed call throws across the boundary: a plain object, because an Error subclass
 * (TracelabError) loses its class and fields in structured clone. `code` is the API error code
 * (1006, 1013, 1019, …); 0 for an internal failure that has no API code.
 */
export interface WorkerErrorPayload {
  readonly code: number;
  readonly status: number;
  readonly message: string;
}

/** A file in any output format (downloads). */
export interface ExportResult {
  readonly body: Uint8Array;
  readonly contentType: string;
  /** Without the dot. */
  readonly extension: string;
  readonly ms: number;
}

/** A form field of a service request: text, or a file. */
export type ServiceField = readonly [string, string] | readonly [string, { readonly bytes: Uint8Array; readonly filename: string; readonly type: string }];

/** One call to the in-browser local service (src/worker/service-host.ts). */
export interface ServiceRequest {
  readonly endpoint: 'vectorize' | 'download' | 'delete' | 'account';
  readonly fields: readonly ServiceField[];
}

export interface ServiceResponse {
  readonly status: number;
  /** Lower-case names, as the Fetch API gives them. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: Uint8Array;
}

/** A retained image of the local service, for the token list. */
export interface RetainedImage {
  readonly token: string;
  readonly mode: string;
  readonly createdAt: number;
  readonly expiresAt: number;
  readonly receipt: string | null;
  /** Size of the stored input image. */
  readonly bytes: number;
}

/** The local account (`GET /account` body). */
export interface AccountInfo {
  readonly subscriptionPlan: string;
  readonly subscriptionState: 'active' | 'pastDue' | 'ended';
  readonly credits: number;
}

/**
 * A rectangle of the result in input pixels (the preview PNG's pixels), rendered `zoom` output
 * pixels per input pixel.
 */
export type ViewWindow = RenderWindow;

/** The viewer's sharp view of a zoomed large result: RGBA rows (straight alpha) and the window they show. */
export interface ViewRender {
  readonly rgba: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly view: ViewWindow;
}

/**
 * The viewer's outline view of the last result: an SVG, or above LARGE_SVG_BYTES the same
 * outlines painted by the worker as a PNG at the input's size (an SVG <img> is parsed and drawn on
 * the main thread: 0.6 s for a 2-MP photo's outlines, measured). Bytes, transferred: no text is
 * encoded on the page.
 */
export interface OutlineView {
  readonly body: Uint8Array;
  readonly contentType: 'image/svg+xml' | 'image/png';
}

/**
 * A picture over the pixel limit, shrunk by the browser's codec at the user's request (the
 * playground's offer after a 1013): a PNG of at most the requested pixels, and the size it had.
 */
export interface ShrunkImage {
  readonly png: Uint8Array;
  readonly width: number;
  readonly height: number;
  readonly inputWidth: number;
  readonly inputHeight: number;
}

/**
 * The object the workers expose. `bytes` is transferred (detached on the caller's side). The
 * preview worker only traces (`vectorize`); the export worker writes files and hosts the local
 * service.
 */
export interface TracerApi {
  /** `onProgress` is a comlink proxy on the caller's side (see client.ts). */
  vectorize(bytes: Uint8Array, fields: [string, string][], onProgress?: (progress: TraceProgress) => void): Promise<VectorizeResult>;
  /** Stops the running vectorize call at its next checkpoint (a newer vectorize call does so too). */
  cancel(): Promise<void>;
  exportFile(bytes: Uint8Array, fields: [string, string][]): Promise<ExportResult>;
  /** Part of the last preview's result at a zoom (the viewer zoomed into a large result). */
  renderView(bytes: Uint8Array, fields: [string, string][], view: ViewWindow): Promise<ViewRender>;
  /**
   * The last preview's result drawn as outlines (stroke_shapes, hairlines), for the viewer's
   * outline mode: written when that mode asks, not with every result (see OutlineView).
   */
  renderOutline(bytes: Uint8Array, fields: [string, string][]): Promise<OutlineView>;
  /** `bytes` shrunk by the browser's codec to at most `maxPixels` pixels, as a PNG (see ShrunkImage). */
  shrinkImage(bytes: Uint8Array, maxPixels: number): Promise<ShrunkImage>;
  callService(request: ServiceRequest): Promise<ServiceResponse>;
  account(): Promise<AccountInfo>;
  setAccount(status: AccountInfo): Promise<AccountInfo>;
  resetAccount(): Promise<AccountInfo>;
  listRetained(): Promise<RetainedImage[]>;
}

export function isWorkerErrorPayload(value: unknown): value is WorkerErrorPayload {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.code === 'number' && typeof v.message === 'string';
}

/** 500 without an API code: tracing failed in the page's worker for a reason of its own (`detail`). */
export function internalTraceError(detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.none, 500, `Internal error while tracing (${detail})`);
}

/** 500 without an API code: a trace worker stopped, or its script did not load (`detail`). */
export function workerStoppedError(detail: string): TracelabError {
  return new TracelabError(ERROR_CODES.none, 500, `The trace worker stopped (${detail})`);
}

/** Any thrown value as the plain `{ code, status, message }` that crosses the worker boundary. */
export function toErrorPayload(err: unknown): WorkerErrorPayload {
  const typed = err instanceof TracelabError ? err : internalTraceError(err instanceof Error ? `${err.name}: ${err.message}` : String(err));
  return { code: typed.code, status: typed.status, message: typed.message };
}

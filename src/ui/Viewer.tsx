/**
 * The result viewer. In: the store's source (the input file), job (svg, size, status)
 * and viewer slice (mode, zoom, centre, divider). Out: edits of the viewer slice only.
 *
 * Three modes: side by side (input and result, panes share zoom and centre), overlay (input and
 * result stacked exactly, a divider — draggable or a keyboard slider — shows the input left of it
 * and the result right of it) and outline (the result's outlines over a faded input). Every pane
 * zooms (buttons, wheel around the cursor, + − 0 1 keys) down to single pixels and pans (drag,
 * arrow keys); the arithmetic is in viewer-geometry.ts.
 *
 * Large results (SVG above LARGE_SVG_BYTES) are shown through the worker's 1× PNG; zoomed past one
 * device pixel per image pixel, the visible part is rendered again by the preview worker at the
 * screen's resolution and drawn over it on a canvas (sharp view), so a 16× look at a photo trace
 * shows its curves, not a blown-up bitmap.
 *
 * Security: the input and every result are only ever shown through <img src="blob:…"> (or pixels
 * on a canvas) — an SVG is never inserted into the DOM — so a hostile file cannot script the page.
 */

import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { useStore } from 'zustand';

import type { OutlineView, ViewRender, ViewWindow } from '../worker/protocol.js';
import { useObjectUrl } from './hooks.js';
import { fieldsFor, showsDraft, type Job, type Source, type TracelabStore, type ViewMode, type ViewerState } from './store.js';
import { actualSize, panBy, PAN_STEP_PX, placement, sharpWindow, stepZoom, wheelFactor, zoomAt, type Size } from './viewer-geometry.js';
import { formatNumber } from './format.js';

/** Renders part of the current result at a zoom, or as outlines: the preview worker (its last trace). */
export interface ViewRenderer {
  renderView(bytes: Uint8Array, fields: [string, string][], view: ViewWindow): Promise<ViewRender>;
  renderOutline(bytes: Uint8Array, fields: [string, string][]): Promise<OutlineView>;
}

/** Wait this long after the last zoom or pan before asking for a sharp view. */
const SHARP_VIEW_DELAY_MS = 120;

const MODES: readonly { readonly mode: ViewMode; readonly label: string }[] = [
  { mode: 'side', label: 'Side by side' },
  { mode: 'overlay', label: 'Overlay' },
  { mode: 'outline', label: 'Outline' },
];

/** From this many screen px per image px the raster input is drawn as hard-edged squares. */
const PIXELATED_FROM = 2;
/** Divider keyboard steps, in percent. */
const DIVIDER_STEP = 2;
const DIVIDER_PAGE = 10;

const ZERO: Size = { width: 0, height: 0 };

// ---------------------------------------------------------------------------------------------
// The viewer

export function Viewer({ store, renderer }: { store: TracelabStore; renderer?: ViewRenderer }) {
  const source = useStore(store, (s) => s.source);
  const job = useStore(store, (s) => s.job);
  const mode = useStore(store, (s) => s.viewer.mode);
  const viewer = useStore(store, (s) => s.viewer);
  const options = useStore(store, (s) => s.options);
  const hintId = useId();

  const inputUrl =
    useObjectUrl(source ? (source.blob ?? (source.bytes as Uint8Array<ArrayBuffer>)) : null, source?.type || 'application/octet-stream', source)
      ?.url ?? null;
  // Large results show the worker's PNG rendering: an SVG <img> is rasterised on the main thread.
  // While a large image's first trace runs, its draft (a PNG of a shrunk trace) stands in (a
  // re-trace keeps the current result instead: showsDraft); its key is negative so it is never
  // taken for a finished trace (data-trace-id).
  const showDraft = showsDraft(job);
  const svgView = useObjectUrl(
    showDraft
      ? (job.draft!.png as Uint8Array<ArrayBuffer>)
      : job.previewPng
        ? (job.previewPng as Uint8Array<ArrayBuffer>)
        : ((job.svgBytes as Uint8Array<ArrayBuffer> | null) ?? job.svg),
    showDraft || job.previewPng ? 'image/png' : 'image/svg+xml',
    showDraft ? -job.id : job.resultId,
  );
  // Asked of the worker only while outline mode shows it: written with every result, it was a
  // second SVG of the result's size each time (worker time, and megabytes copied to the page), and
  // encoding a large SVG string into a Blob costs the main thread about 0.1 ms per kB.
  const outlineFile = useOutline(renderer, source, job, mode === 'outline', () => fieldsFor(options));
  const outlineView = useObjectUrl((outlineFile?.body as Uint8Array<ArrayBuffer> | undefined) ?? null, outlineFile?.contentType ?? 'image/svg+xml', job.resultId);

  // The input's own pixel grid is the viewer's unit; the result's size stands in while the
  // browser cannot show the input (e.g. TIFF) or has not loaded it yet.
  const [natural, setNatural] = useState<Size | null>(null);
  const [inputBroken, setInputBroken] = useState(false);
  useEffect(() => {
    setNatural(null);
    setInputBroken(false);
  }, [inputUrl]);
  const image: Size | null = natural ?? (job.width !== null && job.height !== null ? { width: job.width, height: job.height } : null);

  // A new image starts fitted; a re-trace of the same image keeps the zoom.
  useEffect(() => {
    store.getState().setViewer({ zoom: 0, centerX: 0, centerY: 0 });
  }, [source, store]);

  // The toolbar steps zoom relative to the pane size; every pane of a mode has the same size.
  const [pane, setPane] = useState<Size>(ZERO);

  const busy = job.status === 'running';
  const input: InputView = {
    url: inputUrl && !inputBroken ? inputUrl : null,
    broken: inputUrl !== null && inputBroken,
    name: source?.name ?? '',
    onLoad: (img) => setNatural({ width: img.naturalWidth, height: img.naturalHeight }),
    onError: () => setInputBroken(true),
  };
  const wanted =
    renderer && job.previewPng && job.status === 'done' && image && pane.width > 0
      ? sharpWindow(placement(viewer, image, pane), image, pane, window.devicePixelRatio || 1)
      : null;
  const sharp = useSharpView(renderer, source, job, wanted, () => fieldsFor(options));
  const result: ResultView = { url: svgView?.url ?? null, traceId: svgView?.key ?? null, busy, sharp: sharp.render, draft: showDraft, progress: job.progress?.fraction ?? 0 };
  const outline: ResultView = { url: outlineView?.url ?? null, traceId: outlineView?.key ?? null, busy };
  const common = { store, image, hintId, onResize: setPane };

  return (
    <section className="viewer" aria-label="Viewer">
      <ViewerToolbar store={store} image={image} pane={pane} />
      <p id={hintId} className="viewer-hint">
        Drag to pan, wheel to zoom. Keys in a view: + and − zoom, 0 fits, 1 is actual size, arrows pan.
      </p>
      {mode === 'side' ? (
        <div className="compare">
          <figure className="pane">
            <figcaption>{inputCaption(source)}</figcaption>
            <Viewport {...common} label="Input image view" busy={false}>
              {(stage, scale) =>
                stage && input.url ? <div className="stage" style={stage}>{inputImg(input, scale)}</div> : inputPlaceholder(input, source)
              }
            </Viewport>
          </figure>
          <figure className="pane" data-result-pane>
            <figcaption>{resultCaption(job, sharp.state)}</figcaption>
            <Viewport {...common} label="Result view" busy={busy}>
              {(stage, scale) =>
                stage && result.url ? (
                  <>
                    <div className="stage" style={stage}>{resultImg(result, scale)}</div>
                    {updatingBadge(result)}
                  </>
                ) : (
                  resultPlaceholder(busy)
                )
              }
            </Viewport>
          </figure>
        </div>
      ) : (
        <figure className="pane viewer-single" data-result-pane>
          <figcaption>
            <span>{inputCaption(source)}</span>
            <span aria-hidden="true"> · </span>
            <span>{resultCaption(job, sharp.state)}</span>
          </figcaption>
          {mode === 'overlay' ? (
            <Overlay {...common} input={input} result={result} source={source} />
          ) : (
            <Viewport {...common} label="Outline view" busy={busy}>
              {(stage, scale) =>
                stage ? (
                  <>
                    <div className="stage" style={stage}>
                      <div className="faded">{inputImg(input, scale)}</div>
                      {outline.url && resultImg(outline, scale, 'Traced outlines')}
                    </div>
                    {!outline.url && <p className="placeholder badge">{busy ? 'Tracing…' : 'The traced SVG appears here'}</p>}
                  </>
                ) : (
                  inputPlaceholder(input, source)
                )
              }
            </Viewport>
          )}
        </figure>
      )}
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// Images, captions and placeholders

interface InputView {
  readonly url: string | null;
  /** The browser could not decode the file (the tracer may still read it). */
  readonly broken: boolean;
  readonly name: string;
  onLoad(img: HTMLImageElement): void;
  onError(): void;
}

interface ResultView {
  readonly url: string | null;
  readonly traceId: number | null;
  readonly busy: boolean;
  /** The image is a running trace's draft (shown lightly faded, not as a stale result). */
  readonly draft?: boolean;
  /** The running trace's share done (0–1), shown over a result kept while it runs. */
  readonly progress?: number;
  /** The zoomed view re-rendered sharply (large results only), drawn over the image. */
  readonly sharp?: ViewRender | null;
}

/** The sharp view the viewer has, and whether it is of the view on screen now. */
interface SharpState {
  /** The last sharp render of this result (drawn over the image; null: none yet). */
  readonly render: ViewRender | null;
  /**
   * 'sharp': `render` is of the current zoom and pan; 'pending': zoomed past 1:1, the render of
   * this view is not in yet (what is drawn is the 1× preview, or an older render, blown up);
   * 'failed': the render of this view failed; 'none': a 1× bitmap is sharp enough here.
   */
  readonly state: 'none' | 'pending' | 'sharp' | 'failed';
}

/**
 * The sharp view of `wanted` (see the module header): asked for once zoom and pan rest, dropped
 * when the result changes or a 1× bitmap is enough again. A failed render (the worker was busy
 * with a new trace) leaves the 1× preview. The last render stays drawn while the next is made (it
 * is still sharper than the preview where it lies), but only the render of the current view
 * counts as sharp for the caption: zoomed again, the caption said "rendered sharp" over a
 * blown-up older render until the new one came (issue 29).
 */
function useSharpView(
  renderer: ViewRenderer | undefined,
  source: Source | null,
  job: Job,
  wanted: ViewWindow | null,
  fields: () => [string, string][],
): SharpState {
  const [done, setDone] = useState<SharpDone | null>(null);
  const key = wanted && source ? `${job.resultId}:${wanted.left},${wanted.top},${wanted.width},${wanted.height},${wanted.zoom}` : null;
  const latest = useRef({ source, wanted, fields, resultId: job.resultId });
  latest.current = { source, wanted, fields, resultId: job.resultId };
  useEffect(() => {
    const { source: src, wanted: view, fields: currentFields, resultId } = latest.current;
    if (key === null || !renderer || !src || !view) return undefined;
    let cancelled = false;
    const timer = setTimeout(() => {
      renderer.renderView(src.bytes.slice(), currentFields(), view).then(
        (render) => {
          if (!cancelled) setDone({ resultId, key, render });
        },
        () => {
          // Keep the older render drawn, but do not call this view sharp.
          if (!cancelled) setDone((d) => ({ resultId, key, render: d && d.resultId === resultId ? d.render : null, failed: true }));
        },
      );
    }, SHARP_VIEW_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [key, renderer]);
  return sharpState(key, done, job.resultId);
}

/**
 * The finished result's outlines while `wanted` (outline mode), from the renderer (the worker's
 * last trace), or null until they come (or without a renderer, or when they failed: the faded
 * input stays alone). Asked once per finished result; kept on screen while a re-trace runs, as
 * the result is.
 */
function useOutline(renderer: ViewRenderer | undefined, source: Source | null, job: Job, wanted: boolean, fields: () => [string, string][]): OutlineView | null {
  const [outline, setOutline] = useState<{ resultId: number; file: OutlineView } | null>(null);
  const resultId = wanted && source && job.status === 'done' ? job.resultId : null;
  const shown = wanted ? job.resultId : null;
  const latest = useRef({ source, fields });
  latest.current = { source, fields };
  useEffect(() => {
    const { source: src, fields: currentFields } = latest.current;
    if (resultId === null || !renderer || !src) return undefined;
    let cancelled = false;
    renderer.renderOutline(src.bytes.slice(), currentFields()).then(
      (file) => {
        if (!cancelled) setOutline({ resultId, file });
      },
      () => undefined,
    );
    return () => {
      cancelled = true;
    };
  }, [resultId, renderer]);
  return outline !== null && shown !== null && outline.resultId === shown ? outline.file : null;
}

/** The last sharp render asked for: of which result and view (`key`), and what came back. */
interface SharpDone {
  readonly resultId: number | null;
  readonly key: string;
  /** The newest render of this result (of `key` unless `failed`). */
  readonly render: ViewRender | null;
  readonly failed?: boolean;
}

/** What useSharpView reports for the current view `key` (null: not zoomed past 1:1) and the last render made. */
function sharpState(key: string | null, done: SharpDone | null, resultId: number | null): SharpState {
  if (key === null) return { render: null, state: 'none' };
  const render = done && done.resultId === resultId ? done.render : null;
  if (!done || done.key !== key) return { render, state: 'pending' };
  return { render, state: done.failed || !done.render ? 'failed' : 'sharp' };
}

/** The sharp view on a canvas, placed over the image pixels it shows at the current scale. */
function SharpView({ render, scale }: { render: ViewRender; scale: number }) {
  const ref = useRef<HTMLCanvasElement>(null);
  useLayoutEffect(() => {
    const canvas = ref.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    canvas.width = render.width;
    canvas.height = render.height;
    const pixels = new Uint8ClampedArray(render.rgba.buffer as ArrayBuffer, render.rgba.byteOffset, render.width * render.height * 4);
    ctx.putImageData(new ImageData(pixels, render.width, render.height), 0, 0);
  }, [render]);
  const v = render.view;
  const style: CSSProperties = { left: v.left * scale, top: v.top * scale, width: v.width * scale, height: v.height * scale };
  return <canvas ref={ref} className="sharp-view" aria-hidden="true" data-zoom={v.zoom} style={style} />;
}

const PREVIEW_CAPTION: Readonly<Record<SharpState['state'], string>> = {
  none: 'shown as a 1× PNG preview, sharpened when zoomed',
  pending: 'zoomed 1× PNG preview, sharpening…',
  sharp: 'zoomed view rendered sharp',
  failed: 'zoomed 1× PNG preview (the sharp view could not be rendered)',
};

function inputCaption(source: Source | null): string {
  return `Input${source ? ` — ${source.name} (${formatNumber(source.size)} bytes)` : ''}`;
}

/**
 * Says plainly when a large result is shown through its 1× PNG and whether the zoomed view is
 * sharp — only once the render of the view on screen is drawn, not while it is being made.
 */
function resultCaption(job: Job, sharp: SharpState['state']): string {
  if (showsDraft(job)) return `Result (draft traced at ${job.draft.width} × ${job.draft.height} px; the full trace is running)`;
  const size = job.width !== null && job.height !== null ? ` — ${job.width} × ${job.height} px` : '';
  const preview = job.previewPng ? `; large: ${PREVIEW_CAPTION[sharp]}` : '';
  return `Result (SVG${preview})${size}`;
}

function inputImg(input: InputView, scale: number): ReactNode {
  if (!input.url) return null;
  return (
    <img
      src={input.url}
      alt={`Input image ${input.name}`}
      draggable={false}
      className={scale >= PIXELATED_FROM ? 'pixelated' : undefined}
      onLoad={(event) => input.onLoad(event.currentTarget)}
      onError={input.onError}
    />
  );
}

function resultImg(result: ResultView, scale: number, alt = 'Traced vector result'): ReactNode {
  if (!result.url) return null;
  return (
    <>
      <img
        src={result.url}
        alt={alt}
        draggable={false}
        className={result.draft ? 'result draft' : result.busy ? 'result stale' : 'result'}
        data-trace-id={result.traceId ?? undefined}
      />
      {result.sharp && <SharpView render={result.sharp} scale={scale} />}
    </>
  );
}

function inputPlaceholder(input: InputView, source: Source | null): ReactNode {
  if (input.broken) return <p className="placeholder">No preview: this file is not an image that can be read (see the status line).</p>;
  if (!source) return <p className="placeholder">No image yet</p>;
  // Loading: the (hidden) image must still be mounted so its onLoad reports the size.
  return input.url ? <div className="stage loading">{inputImg(input, 1)}</div> : null;
}

/**
 * Over a result kept on screen (dimmed) while its re-trace runs: how far the new one is. Hidden
 * from assistive technology: the status line says "Tracing…" and the result bar has the progress bar.
 */
function updatingBadge(result: ResultView): ReactNode {
  if (!result.busy || result.draft || !result.url) return null;
  return (
    <p className="placeholder badge updating" aria-hidden="true">
      Updating… {Math.round((result.progress ?? 0) * 100)} %
    </p>
  );
}

function resultPlaceholder(busy: boolean): ReactNode {
  return <p className="placeholder">{busy ? 'Tracing…' : 'The traced SVG appears here'}</p>;
}

// ---------------------------------------------------------------------------------------------
// Toolbar: modes and zoom

function ViewerToolbar({ store, image, pane }: { store: TracelabStore; image: Size | null; pane: Size }) {
  const viewer = useStore(store, (s) => s.viewer);
  const name = useId();
  const size = image ?? ZERO;
  const scale = placement(viewer, size, pane).scale;
  const set = (patch: Partial<ViewerState>) => store.getState().setViewer(patch);
  const disabled = image === null;

  return (
    <div className="viewer-toolbar">
      <fieldset className="view-modes">
        <legend>View</legend>
        {MODES.map(({ mode, label }) => (
          <label key={mode} className={viewer.mode === mode ? 'mode checked' : 'mode'}>
            <input type="radio" name={name} value={mode} checked={viewer.mode === mode} onChange={() => set({ mode })} />
            {label}
          </label>
        ))}
      </fieldset>
      <div className="zoom-controls" role="group" aria-label="Zoom">
        <button type="button" className="secondary" aria-label="Zoom out" disabled={disabled} onClick={() => set(stepZoom(viewer, size, pane, -1))}>
          −
        </button>
        {/* Plain text, not <output>: that is a second status region beside the page's own. */}
        <span className="zoom-level">
          <span className="visually-hidden">Zoom level </span>
          {image ? `${formatScale(scale)}${viewer.zoom === 0 ? ' (fit)' : ''}` : '—'}
        </span>
        <button type="button" className="secondary" aria-label="Zoom in" disabled={disabled} onClick={() => set(stepZoom(viewer, size, pane, 1))}>
          +
        </button>
        <button type="button" className="secondary" aria-label="Fit to view" disabled={disabled} onClick={() => set({ zoom: 0 })}>
          Fit
        </button>
        <button type="button" className="secondary" aria-label="Actual size (1:1)" disabled={disabled} onClick={() => set(actualSize(viewer, size))}>
          1:1
        </button>
      </div>
    </div>
  );
}

/** "400%" for small scales, "32 px/px" once single pixels are visible squares. */
function formatScale(scale: number): string {
  return scale >= 4 ? `${Math.round(scale * 10) / 10} px/px` : `${Math.round(scale * 100)}%`;
}

// ---------------------------------------------------------------------------------------------
// A zoomable, pannable pane

interface ViewportProps {
  readonly store: TracelabStore;
  readonly image: Size | null;
  readonly label: string;
  readonly busy: boolean;
  readonly hintId: string;
  onResize(size: Size): void;
  /** The pane's layers, given the stage style (null while the image size is unknown) and scale. */
  children(stage: CSSProperties | null, scale: number): ReactNode;
  /** Drawn above the layers in pane coordinates (the overlay divider). */
  readonly extra?: ReactNode;
}

/** The size of an element, kept current by a ResizeObserver. */
function usePaneSize(onResize: (size: Size) => void): [(el: HTMLDivElement | null) => void, Size, HTMLDivElement | null] {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [size, setSize] = useState<Size>(ZERO);
  useLayoutEffect(() => {
    if (!el) return undefined;
    const measure = () => {
      const next = { width: el.clientWidth, height: el.clientHeight };
      setSize((prev) => (prev.width === next.width && prev.height === next.height ? prev : next));
    };
    // No measure() here: reading the size now would force a layout of the whole page inside the
    // commit (60 ms at page load, measured); the observer's first report comes after the
    // browser's own layout, before the frame is painted.
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  useEffect(() => onResize(size), [size, onResize]);
  return [setEl, size, el];
}

function Viewport({ store, image, label, busy, hintId, onResize, children, extra }: ViewportProps) {
  const viewer = useStore(store, (s) => s.viewer);
  const [ref, pane, el] = usePaneSize(onResize);
  const drag = useRef<{ id: number; x: number; y: number } | null>(null);
  const [dragging, setDragging] = useState(false);

  // Handlers read the latest sizes through a ref (the wheel listener is attached once).
  const sizes = useRef({ image, pane });
  sizes.current = { image, pane };
  const apply = useCallback(
    (change: (view: ViewerState, image: Size, pane: Size) => Partial<ViewerState>) => {
      const { image: img, pane: p } = sizes.current;
      if (!img) return;
      store.getState().setViewer(change(store.getState().viewer, img, p));
    },
    [store],
  );

  // Wheel zoom around the cursor. React's wheel listener is passive, so page scrolling could not
  // be stopped; a native non-passive listener can.
  useEffect(() => {
    if (!el) return undefined;
    const onWheel = (event: WheelEvent) => {
      if (!sizes.current.image || event.deltaY === 0) return;
      event.preventDefault();
      const rect = el.getBoundingClientRect();
      const factor = wheelFactor(event.deltaY, event.deltaMode);
      apply((v, img, p) => zoomAt(v, img, p, factor, event.clientX - rect.left, event.clientY - rect.top));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [el, apply]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const action = keyAction(event.key);
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    apply(action);
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || !image) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
    setDragging(true);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d || d.id !== event.pointerId) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    drag.current = { id: d.id, x: event.clientX, y: event.clientY };
    if (dx !== 0 || dy !== 0) apply((v, img, p) => panBy(v, img, p, dx, dy));
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    if (drag.current?.id !== event.pointerId) return;
    drag.current = null;
    setDragging(false);
  };

  const place = image && pane.width > 0 ? placement(viewer, image, pane) : null;
  const stage: CSSProperties | null =
    image && place
      ? { width: image.width * place.scale, height: image.height * place.scale, transform: `translate(${place.x}px, ${place.y}px)` }
      : null;

  return (
    <div
      ref={ref}
      className={dragging ? 'viewport zoomable dragging' : 'viewport zoomable'}
      role="group"
      tabIndex={0}
      aria-label={label}
      aria-describedby={hintId}
      aria-busy={busy}
      data-scale={place ? place.scale : undefined}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
    >
      {children(stage, place?.scale ?? 1)}
      {extra}
    </div>
  );
}

/** The viewer change a key asks for in a focused pane, or undefined for other keys. */
function keyAction(key: string): ((view: ViewerState, image: Size, pane: Size) => Partial<ViewerState>) | undefined {
  switch (key) {
    case '+':
    case '=':
      return (v, img, p) => stepZoom(v, img, p, 1);
    case '-':
    case '_':
      return (v, img, p) => stepZoom(v, img, p, -1);
    case '0':
      return () => ({ zoom: 0 });
    case '1':
      return (v, img) => actualSize(v, img);
    // An arrow moves the view over the image in its direction (the image moves the other way).
    case 'ArrowLeft':
      return (v, img, p) => panBy(v, img, p, PAN_STEP_PX, 0);
    case 'ArrowRight':
      return (v, img, p) => panBy(v, img, p, -PAN_STEP_PX, 0);
    case 'ArrowUp':
      return (v, img, p) => panBy(v, img, p, 0, PAN_STEP_PX);
    case 'ArrowDown':
      return (v, img, p) => panBy(v, img, p, 0, -PAN_STEP_PX);
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Overlay: input left of the divider, result right of it

interface OverlayProps {
  readonly store: TracelabStore;
  readonly image: Size | null;
  readonly hintId: string;
  onResize(size: Size): void;
  readonly input: InputView;
  readonly result: ResultView;
  readonly source: Source | null;
}

function Overlay({ store, image, hintId, onResize, input, result, source }: OverlayProps) {
  const divider = useStore(store, (s) => s.viewer.divider);
  // The input layer is clipped at the divider, in pane coordinates, so it lines up at any zoom.
  const clip: CSSProperties = { clipPath: `inset(0 ${(1 - divider) * 100}% 0 0)` };
  return (
    <Viewport
      store={store}
      image={image}
      label="Overlay of input and result"
      busy={result.busy}
      hintId={hintId}
      onResize={onResize}
      extra={image ? <Divider store={store} value={divider} /> : null}
    >
      {(stage, scale) =>
        stage ? (
          <>
            <div className="layer">
              {result.url ? <div className="stage" style={stage}>{resultImg(result, scale)}</div> : null}
            </div>
            <div className="layer" style={clip}>
              <div className="stage" style={stage}>{inputImg(input, scale)}</div>
            </div>
            <span className="layer-label left" aria-hidden="true">Input</span>
            <span className="layer-label right" aria-hidden="true">Result</span>
            {!result.url && <p className="placeholder badge">{result.busy ? 'Tracing…' : 'The traced SVG appears here'}</p>}
            {updatingBadge(result)}
          </>
        ) : (
          inputPlaceholder(input, source)
        )
      }
    </Viewport>
  );
}

/** The overlay divider: dragged with any pointer, or a slider from the keyboard. */
function Divider({ store, value }: { store: TracelabStore; value: number }) {
  const dragId = useRef<number | null>(null);
  const set = (divider: number) => store.getState().setViewer({ divider: Math.min(1, Math.max(0, divider)) });
  const percent = Math.round(value * 100);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next = dividerKey(event.key, event.shiftKey, percent);
    if (next === undefined) return;
    // The pane's own arrow keys pan; here they move the divider only.
    event.preventDefault();
    event.stopPropagation();
    set(next / 100);
  };
  const moveTo = (event: PointerEvent<HTMLDivElement>) => {
    const pane = event.currentTarget.parentElement?.getBoundingClientRect();
    if (pane && pane.width > 0) set((event.clientX - pane.left) / pane.width);
  };

  return (
    <div
      className="divider"
      style={{ left: `${value * 100}%` }}
      role="slider"
      tabIndex={0}
      aria-label="Overlay divider"
      aria-orientation="horizontal"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      aria-valuetext={`${percent}% input, ${100 - percent}% result`}
      onKeyDown={onKeyDown}
      onPointerDown={(event) => {
        if (event.button !== 0) return;
        // Not a pan of the pane underneath.
        event.stopPropagation();
        event.currentTarget.setPointerCapture(event.pointerId);
        dragId.current = event.pointerId;
      }}
      onPointerMove={(event) => {
        if (dragId.current === event.pointerId) moveTo(event);
      }}
      onPointerUp={(event) => {
        if (dragId.current === event.pointerId) dragId.current = null;
      }}
      onPointerCancel={() => {
        dragId.current = null;
      }}
    >
      <span className="divider-grip" aria-hidden="true" />
    </div>
  );
}

/** The divider position (percent) a key asks for, or undefined for other keys. */
function dividerKey(key: string, shift: boolean, percent: number): number | undefined {
  const step = shift ? DIVIDER_PAGE : DIVIDER_STEP;
  const clamp = (v: number) => Math.min(100, Math.max(0, v));
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(percent - step);
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(percent + step);
    case 'PageDown':
      return clamp(percent - DIVIDER_PAGE);
    case 'PageUp':
      return clamp(percent + DIVIDER_PAGE);
    case 'Home':
      return 0;
    case 'End':
      return 100;
    default:
      return undefined;
  }
}

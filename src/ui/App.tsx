/**
 * The playground page: the layout and page-wide input (paste anywhere, drops outside the zone).
 * Each panel is its own component over the one store. Results are only ever shown through
 * <img src="blob:…"> — never inserted into the DOM — so a hostile file cannot script the page.
 */

import { lazy, Suspense, useCallback, useEffect } from 'react';
import { useStore } from 'zustand';

import { ERROR_CODES, unreadableImageError } from '../engine/errors.js';
import { CopySvgButton, DownloadButton, DownloadPanel } from './DownloadPanel.js';
import { DropZone, ImageSources, SampleGallery } from './InputPanel.js';
import { OptionsPanel } from './OptionsPanel.js';
import { PresetPicker } from './PresetPanel.js';
import { PalettePanel } from './PalettePanel.js';
import { StatsLine } from './Stats.js';
import { useMountSteps } from './hooks.js';
import type { TracerClient } from '../worker/client.js';
import { offersShrink, shrinkOffer, traceShrunk } from './oversize.js';
import { keepResultInView } from './result-in-view.js';
import { resultHint, statusText, type TracelabStore } from './store.js';
import { Viewer, type ViewRenderer } from './Viewer.js';

export const SAMPLE_PATH = 'samples/shapes.png';

// The panels under the viewer load after the page's first paint: their code is a third of the
// page's and none of it is needed to drop an image and see its trace.
const ServicePanel = lazy(() => import('./ServicePanel.js').then((m) => ({ default: m.ServicePanel })));
const RemotePanel = lazy(() => import('./RemotePanel.js').then((m) => ({ default: m.RemotePanel })));
const SnippetPanel = lazy(() => import('./SnippetPanel.js').then((m) => ({ default: m.SnippetPanel })));
const BatchPanel = lazy(() => import('./BatchPanel.js').then((m) => ({ default: m.BatchPanel })));

export interface AppProps {
  store: TracelabStore;
  /** The export worker: files in every format and the in-browser local service. */
  exporter: TracerClient;
  /** The preview worker, for sharp zoomed views of large results (absent: the 1× preview only). */
  previewer?: ViewRenderer;
  /** Called once every part of the page is mounted (background work waits for it). */
  onMounted?: () => void;
}

/** The page mounts in three steps (see useMountSteps). */
const MOUNT_STEPS = 3;

/**
 * The page reads nothing from the store itself: each panel subscribes to what it shows, so a
 * progress step or a result re-renders the result bar and the viewer, not every panel (a
 * re-render of the whole page held the main thread for 50–100 ms at each of them, measured).
 */
export function App({ store, exporter, previewer, onMounted }: AppProps) {
  // Step 1: what a first visit needs to drop an image and see it; 2: the presets and options;
  // 3: the palette and the panels under the viewer.
  const mountStep = useMountSteps(MOUNT_STEPS);
  useEffect(() => {
    if (mountStep === MOUNT_STEPS) onMounted?.();
  }, [mountStep, onMounted]);

  // Every input begins with startInput: the old picture and result leave the screen while the new
  // one is read or fetched, and a later choice wins over a slower earlier one (its ticket).
  const loadFile = useCallback(
    async (file: File) => {
      const ticket = store.getState().startInput();
      try {
        const bytes = new Uint8Array(await file.arrayBuffer());
        store.getState().setSource({ name: file.name || 'pasted image', bytes, size: bytes.length, type: file.type, blob: file }, ticket);
      } catch (err) {
        const detail = err instanceof Error ? err.message : String(err);
        const e = unreadableImageError(`the file could not be read (${detail})`);
        store.getState().reportError({ code: e.code, message: e.message }, ticket);
      }
    },
    [store],
  );

  const loadSample = useCallback(async () => {
    const url = new URL(SAMPLE_PATH, new URL(import.meta.env.BASE_URL, document.baseURI)).href;
    const ticket = store.getState().startInput();
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      store.getState().setSource({ name: 'shapes.png', bytes, size: bytes.length, type: 'image/png' }, ticket);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      store.getState().reportError({ code: ERROR_CODES.none, message: `The sample image could not be loaded (${detail})` }, ticket);
    }
  }, [store]);

  // On a phone, a new input's status line and result pane are scrolled into view (issue 41).
  useEffect(() => keepResultInView(store), [store]);

  // Paste an image from the clipboard anywhere on the page.
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = Array.from(event.clipboardData?.files ?? [])[0];
      if (!file) return;
      event.preventDefault();
      void loadFile(file);
    };
    // A file dropped anywhere on the page is the input (not a navigation away from the page),
    // unless a drop target of its own took it first (the drop zone, the batch panel).
    const onWindowDragOver = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    const onWindowDrop = (event: globalThis.DragEvent) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      const taken = event.defaultPrevented;
      event.preventDefault();
      const file = event.dataTransfer.files[0];
      if (!taken && file) void loadFile(file);
    };
    window.addEventListener('paste', onPaste);
    window.addEventListener('dragover', onWindowDragOver);
    window.addEventListener('drop', onWindowDrop);
    return () => {
      window.removeEventListener('paste', onPaste);
      window.removeEventListener('dragover', onWindowDragOver);
      window.removeEventListener('drop', onWindowDrop);
    };
  }, [loadFile]);

  return (
    <div className="app">
      {/* Skip links (issue 17): without them Download was 40 Tab stops away, behind every option. */}
      <nav className="skip-links" aria-label="Skip links">
        {/* Focus moves by script: the URL fragment holds share links (share.ts), so no #target. */}
        <a href="#result" onClick={(e) => skipTo(e, 'result')}>
          Skip to the result
        </a>
        <a href="#primary-download" onClick={(e) => skipTo(e, 'primary-download')}>
          Skip to Download
        </a>
      </nav>
      <header className="app-header">
        <h1>Tracelab</h1>
        <p className="tagline">Bitmap to vector, traced in your browser. Nothing is uploaded.</p>
      </header>

      <main className="layout">
        <aside className="sidebar">
          <section className="input-bar" aria-label="Image">
            <DropZone onFile={loadFile} />
            <button type="button" className="secondary" onClick={() => void loadSample()}>
              Try a sample
            </button>
            <ImageSources store={store} />
            <SampleGallery store={store} />
          </section>
          {mountStep >= 2 && (
            <>
              <PresetPicker store={store} />
              <OptionsPanel store={store} />
            </>
          )}
        </aside>

        <div className="workspace">
          <ResultBar store={store} exporter={exporter} />
          <ResultDetails store={store} exporter={exporter} />

          <Viewer store={store} renderer={previewer} />
          {mountStep >= 3 && (
            <>
              <PalettePanel store={store} />
              <Suspense fallback={<p className="placeholder">Loading the service, snippet and batch panels…</p>}>
                <ServicePanel store={store} exporter={exporter} />
                <RemotePanel store={store} />
                <SnippetPanel store={store} />
                <BatchPanel store={store} />
              </Suspense>
            </>
          )}
        </div>
      </main>
    </div>
  );
}

/** Status, hint, progress and the download of the current trace. */
function ResultBar({ store, exporter }: { store: TracelabStore; exporter: TracerClient }) {
  const source = useStore(store, (s) => s.source);
  const job = useStore(store, (s) => s.job);
  // The first invalid option field: while there is one, the result on screen is for the previous
  // values, so the status says so where the user looks and no download is offered (issue 17).
  const optionErrors = useStore(store, (s) => s.optionErrors);
  const invalidOption = Object.entries(optionErrors)[0];
  const options = useStore(store, (s) => s.options);
  const hint = invalidOption ? null : resultHint(job, options);
  const offer = !invalidOption && offersShrink(job, source) ? shrinkOffer(job, options['input.max_pixels']) : null;
  return (
    <section className="result-bar" aria-label="Result" id="result" tabIndex={-1}>
      <p className={`status status-${invalidOption ? 'error' : job.status}`} role="status" aria-live="polite" aria-atomic="true">
        {invalidOption
          ? `Invalid option ${invalidOption[0]}: ${invalidOption[1].message} Not traced; downloads are off until it is fixed.`
          : (offer?.status ?? statusText(job, source !== null))}
      </p>
      {hint && (
        <p className="result-hint" role="note">
          {hint}
        </p>
      )}
      {invalidOption && (
        <button type="button" className="link" onClick={() => focusOption(invalidOption[0])}>
          Go to {invalidOption[0]}
        </button>
      )}
      {offer && (
        <button type="button" className="secondary" onClick={() => void traceShrunk(store, exporter)}>
          {offer.button}
        </button>
      )}
      {job.status === 'running' && job.progress && (
        <span className="trace-progress">
          <progress max={1} value={job.progress.fraction} aria-label="Trace progress" />
          <span className="hint">{job.progress.step}</span>
        </span>
      )}
      <DownloadButton store={store} exporter={exporter} svg={job.svg} svgBytes={job.svgBytes} sourceName={source?.name ?? null} invalid={invalidOption !== undefined} />
      <CopySvgButton svg={job.svg} invalid={invalidOption !== undefined} />
    </section>
  );
}

/**
 * The stats of the current trace and its downloads in every format. Apart from the result bar so
 * that on a phone they can follow the viewer (styles.css): above it they pushed the result pane
 * off the first screen (issue 29).
 */
function ResultDetails({ store, exporter }: { store: TracelabStore; exporter: TracerClient }) {
  const job = useStore(store, (s) => s.job);
  const invalid = useStore(store, (s) => Object.keys(s.optionErrors).length > 0);
  return (
    <section className="result-details" aria-label="Result details">
      <StatsLine stats={job.stats} ms={job.ms} />
      <DownloadPanel store={store} exporter={exporter} hasResult={job.svg !== null} invalid={invalid} />
    </section>
  );
}

/** Opens the option's group and moves focus to its field. */
function focusOption(name: string): void {
  const field = document.querySelector<HTMLElement>(`[data-option="${CSS.escape(name)}"]`);
  const details = field?.closest('details');
  if (details) details.open = true;
  field?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  field?.scrollIntoView({ block: 'center' });
}

/** A skip link: focus (and show) the element `id` without touching the URL. */
function skipTo(event: { preventDefault(): void }, id: string): void {
  event.preventDefault();
  const target = document.getElementById(id);
  target?.scrollIntoView({ block: 'center' });
  target?.focus();
}

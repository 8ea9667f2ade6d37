/**
 * The playground page: the layout and page-wide input (paste anywhere, drops outside the zone).
 * Each panel is its own component over the one store. Results are only ever shown through
 * <img src="blob:…"> — never inserted into the DOM — so a hostile file cannot script the page.
 */

import { useCallback, useEffect } from 'react';
import { useStore } from 'zustand';

import { unreadableImageError } from '../engine/errors.js';
import { BatchPanel } from './BatchPanel.js';
import { DownloadButton, DownloadPanel } from './DownloadPanel.js';
import { DropZone, ImageSources, SampleGallery } from './InputPanel.js';
import { OptionsPanel } from './OptionsPanel.js';
import { PresetPicker } from './PresetPanel.js';
import { SnippetPanel } from './SnippetPanel.js';
import { PalettePanel } from './PalettePanel.js';
import { RemotePanel } from './RemotePanel.js';
import { ServicePanel } from './ServicePanel.js';
import { StatsLine } from './Stats.js';
import type { TracerClient } from '../worker/client.js';
import { statusText, type TracelabStore } from './store.js';
import { Viewer } from './Viewer.js';

export const SAMPLE_PATH = 'samples/shapes.png';

export interface AppProps {
  store: TracelabStore;
  /** The export worker: files in every format and the in-browser local service. */
  exporter: TracerClient;
}

export function App({ store, exporter }: AppProps) {
  const source = useStore(store, (s) => s.source);
  const job = useStore(store, (s) => s.job);

  const loadFile = useCallback(
    async (file: File) => {
      try {
        const bytes = new Uint8Array(await file.arrayBuffer());
        store.getState().setSource({ name: file.name || 'pasted image', bytes, size: bytes.length, type: file.type });
      } catch (err) {
        const detail = err instanceof Error ? err.message : String(err);
        const e = unreadableImageError(`the file could not be read (${detail})`);
        store.getState().reportError({ code: e.code, message: e.message });
      }
    },
    [store],
  );

  const loadSample = useCallback(async () => {
    const url = new URL(SAMPLE_PATH, new URL(import.meta.env.BASE_URL, document.baseURI)).href;
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const bytes = new Uint8Array(await response.arrayBuffer());
      store.getState().setSource({ name: 'shapes.png', bytes, size: bytes.length, type: 'image/png' });
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      store.getState().reportError({ code: 0, message: `The sample image could not be loaded (${detail})` });
    }
  }, [store]);

  // Paste an image from the clipboard anywhere on the page.
  useEffect(() => {
    const onPaste = (event: ClipboardEvent) => {
      const file = Array.from(event.clipboardData?.files ?? [])[0];
      if (!file) return;
      event.preventDefault();
      void loadFile(file);
    };
    // A file dropped outside the drop zone must not navigate away from the page.
    const onWindowDrop = (event: globalThis.DragEvent) => {
      if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
    };
    window.addEventListener('paste', onPaste);
    window.addEventListener('dragover', onWindowDrop);
    window.addEventListener('drop', onWindowDrop);
    return () => {
      window.removeEventListener('paste', onPaste);
      window.removeEventListener('dragover', onWindowDrop);
      window.removeEventListener('drop', onWindowDrop);
    };
  }, [loadFile]);

  return (
    <div className="app">
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
          <PresetPicker store={store} />
          <OptionsPanel store={store} />
        </aside>

        <div className="workspace">
          <section className="result-bar" aria-label="Result">
            <p className={`status status-${job.status}`} role="status" aria-live="polite" aria-atomic="true">
              {statusText(job, source !== null)}
            </p>
            {job.status === 'running' && job.progress && (
              <span className="trace-progress">
                <progress max={1} value={job.progress.fraction} aria-label="Trace progress" />
                <span className="hint">{job.progress.step}</span>
              </span>
            )}
            <StatsLine stats={job.stats} ms={job.ms} />
            <DownloadButton svg={job.svg} sourceName={source?.name ?? null} />
            <DownloadPanel store={store} exporter={exporter} />
          </section>

          <Viewer store={store} />
          <PalettePanel store={store} />
          <ServicePanel store={store} exporter={exporter} />
          <RemotePanel store={store} />
          <SnippetPanel store={store} />
          <BatchPanel store={store} exporter={exporter} />
        </div>
      </main>
    </div>
  );
}


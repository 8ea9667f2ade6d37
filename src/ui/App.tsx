/**
 * The playground page: pick / drop / paste an image (or the sample), four options, the input and
 * the traced SVG side by side, stats, download. The SVG is only ever shown through
 * <img src="blob:…"> — never inserted into the DOM — so a hostile file cannot script the page.
 */

import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useStore } from 'zustand';

import { unreadableImageError } from '../engine/errors.js';
import type { VectorizeStats } from '../worker/protocol.js';
import {
  statusText,
  uiOptionSpec,
  validateUiOption,
  type Source,
  type TracelabStore,
  type UiOptionName,
  type UiOptions,
} from './store.js';

export const SAMPLE_PATH = 'samples/shapes.png';

export interface AppProps {
  store: TracelabStore;
}

export function App({ store }: AppProps) {
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

      <main>
        <section className="input-bar" aria-label="Image">
          <DropZone onFile={loadFile} />
          <button type="button" className="secondary" onClick={() => void loadSample()}>
            Try a sample
          </button>
        </section>

        <Controls store={store} />

        <section className="result-bar" aria-label="Result">
          <p className={`status status-${job.status}`} role="status" aria-live="polite" aria-atomic="true">
            {statusText(job, source !== null)}
          </p>
          <StatsLine stats={job.stats} ms={job.ms} />
          <DownloadButton svg={job.svg} sourceName={source?.name ?? null} />
        </section>

        <Compare
          source={source}
          svg={job.svg}
          resultId={job.resultId}
          width={job.width}
          height={job.height}
          busy={job.status === 'running'}
        />
      </main>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function DropZone({ onFile }: { onFile: (file: File) => void }) {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const depth = useRef(0);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    if (file) onFile(file);
    event.target.value = ''; // choosing the same file again re-loads it
  };
  const hasFiles = (event: DragEvent) => event.dataTransfer.types.includes('Files');

  return (
    <div
      className={over ? 'dropzone over' : 'dropzone'}
      onDragEnter={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        depth.current++;
        setOver(true);
      }}
      onDragOver={(event) => {
        if (!hasFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={() => {
        depth.current = Math.max(0, depth.current - 1);
        if (depth.current === 0) setOver(false);
      }}
      onDrop={(event) => {
        event.preventDefault();
        depth.current = 0;
        setOver(false);
        const file = event.dataTransfer.files[0];
        if (file) onFile(file);
      }}
    >
      <input
        id={inputId}
        className="visually-hidden"
        type="file"
        accept="image/png,image/jpeg,image/webp,image/gif,image/bmp,image/tiff,.png,.jpg,.jpeg,.webp,.gif,.bmp,.tif,.tiff"
        onChange={onChange}
      />
      <label htmlFor={inputId} className="dropzone-label">
        <span className="dropzone-title">Choose an image</span>
        <span className="dropzone-hint">
          or drop it here, or paste it (PNG, JPEG, WebP, GIF, BMP, TIFF)
        </span>
      </label>
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

function Controls({ store }: { store: TracelabStore }) {
  const options = useStore(store, (s) => s.options);
  const set = <N extends UiOptionName>(name: N, value: UiOptions[N]) => store.getState().setOption(name, value);
  const stacking = uiOptionSpec('output.shape_stacking');
  const gap = uiOptionSpec('output.gap_filler.enabled');
  const stackingId = useId();
  const gapId = useId();

  return (
    <form className="controls" aria-label="Options" onSubmit={(event) => event.preventDefault()}>
      <NumberField
        name="processing.max_colors"
        label="Max colours"
        unit="0 = unlimited"
        value={options['processing.max_colors']}
        onCommit={(v) => set('processing.max_colors', v)}
      />
      <div className="field">
        <label htmlFor={stackingId}>Shape stacking</label>
        <select
          id={stackingId}
          value={options['output.shape_stacking']}
          title={stacking.hint}
          onChange={(event) => set('output.shape_stacking', event.target.value as UiOptions['output.shape_stacking'])}
        >
          {stacking.values.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </div>
      <div className="field field-check">
        <input
          id={gapId}
          type="checkbox"
          checked={options['output.gap_filler.enabled']}
          title={gap.hint}
          onChange={(event) => set('output.gap_filler.enabled', event.target.checked)}
        />
        <label htmlFor={gapId}>Gap filler</label>
      </div>
      <NumberField
        name="processing.shapes.min_area_px"
        label="Min shape area"
        unit="px²"
        value={options['processing.shapes.min_area_px']}
        onCommit={(v) => set('processing.shapes.min_area_px', v)}
      />
      <button type="button" className="link" onClick={() => store.getState().resetOptions()}>
        Reset options
      </button>
    </form>
  );
}

type NumericOption = 'processing.max_colors' | 'processing.shapes.min_area_px';

/**
 * A number input bound to a schema option. The text is kept locally while typing; only values the
 * schema accepts reach the store, anything else shows the API's message next to the field.
 */
function NumberField({
  name,
  label,
  unit,
  value,
  onCommit,
}: {
  name: NumericOption;
  label: string;
  unit: string;
  value: number;
  onCommit: (value: number) => void;
}) {
  const spec = uiOptionSpec(name);
  const id = useId();
  const hintId = useId();
  const errorId = useId();
  const [draft, setDraft] = useState(String(value));
  const [problem, setProblem] = useState<string | undefined>();

  // Follow the store (reset, or another control) unless the draft already means the same value.
  useEffect(() => {
    setDraft((d) => (d.trim() !== '' && Number(d) === value ? d : String(value)));
    setProblem(undefined);
  }, [value]);

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const text = event.target.value;
    setDraft(text);
    const parsed = Number(text);
    const error = text.trim() === '' ? `${label} is required` : validateUiOption(name, parsed);
    setProblem(error);
    if (error === undefined) onCommit(parsed);
  };

  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="number"
        inputMode={spec.kind === 'int' ? 'numeric' : 'decimal'}
        min={spec.min}
        max={spec.max}
        step={spec.kind === 'int' ? 1 : 'any'}
        value={draft}
        title={spec.hint}
        aria-invalid={problem !== undefined}
        aria-describedby={problem !== undefined ? `${hintId} ${errorId}` : hintId}
        onChange={onChange}
        onBlur={() => {
          setDraft(String(value));
          setProblem(undefined);
        }}
      />
      <span id={hintId} className="hint">
        {unit}
      </span>
      {problem !== undefined && (
        <span id={errorId} className="field-error">
          {problem}
        </span>
      )}
    </div>
  );
}

// ---------------------------------------------------------------------------------------------

const PROFILE_NAMES: Record<VectorizeStats['profile'], string> = { pixel: 'pixel art', flat: 'flat art', photo: 'photo' };

function StatsLine({ stats, ms }: { stats: VectorizeStats | null; ms: number | null }) {
  if (!stats) return <p className="stats" />;
  const items: [string, string][] = [
    ['Profile', PROFILE_NAMES[stats.profile]],
    ['Colours', String(stats.colors)],
    ['Shapes', String(stats.shapes)],
    ['Size', `${stats.bytes.toLocaleString('en-US')} bytes`],
    ['Time', `${ms === null ? '?' : Math.round(ms).toLocaleString('en-US')} ms`],
  ];
  return (
    <p className="stats" data-testid="stats">
      {items.map(([k, v]) => (
        <span key={k} className="stat">
          {k}: <strong>{v}</strong>
        </span>
      ))}
    </p>
  );
}

function DownloadButton({ svg, sourceName }: { svg: string | null; sourceName: string | null }) {
  const download = () => {
    if (svg === null) return;
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = svgFileName(sourceName);
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <button type="button" onClick={download} disabled={svg === null}>
      Download SVG
    </button>
  );
}

export function svgFileName(sourceName: string | null): string {
  const base = (sourceName ?? 'traced').replace(/\.[^./\\]*$/, '') || 'traced';
  return `${base}.svg`;
}

// ---------------------------------------------------------------------------------------------

/**
 * An object URL for `data`, made again whenever `key` changes (a re-trace with an identical SVG is
 * still a new result) and revoked when replaced or on unmount. Returns the URL with the key it was
 * made for, so the two never disagree during the render before the effect runs.
 */
function useObjectUrl<K>(data: BlobPart | null, type: string, key: K): { url: string; key: K } | null {
  const [view, setView] = useState<{ url: string; key: K } | null>(null);
  useEffect(() => {
    if (data === null) {
      setView(null);
      return undefined;
    }
    const url = URL.createObjectURL(new Blob([data], { type }));
    setView({ url, key });
    return () => URL.revokeObjectURL(url);
  }, [data, type, key]);
  return view;
}

function Compare({
  source,
  svg,
  resultId,
  width,
  height,
  busy,
}: {
  source: Source | null;
  svg: string | null;
  resultId: number | null;
  width: number | null;
  height: number | null;
  busy: boolean;
}) {
  const inputUrl =
    useObjectUrl(source ? (source.bytes as Uint8Array<ArrayBuffer>) : null, source?.type || 'application/octet-stream', source)
      ?.url ?? null;
  const svgView = useObjectUrl(svg, 'image/svg+xml', resultId);
  const svgUrl = svgView?.url ?? null;
  const [inputBroken, setInputBroken] = useState(false);
  const [pixelated, setPixelated] = useState(false);
  useEffect(() => {
    setInputBroken(false);
    setPixelated(false);
  }, [inputUrl]);

  const size = width !== null && height !== null ? `${width} × ${height} px` : '';
  return (
    <section className="compare" aria-label="Input and result side by side">
      <figure className="pane">
        <figcaption>
          Input{source ? ` — ${source.name} (${source.size.toLocaleString('en-US')} bytes)` : ''}
        </figcaption>
        <div className="viewport">
          {inputUrl && !inputBroken && (
            <img
              src={inputUrl}
              alt={`Input image ${source?.name ?? ''}`}
              className={pixelated ? 'pixelated' : undefined}
              onLoad={(event) => {
                const img = event.currentTarget;
                setPixelated(img.naturalWidth * 2 <= img.clientWidth);
              }}
              onError={() => setInputBroken(true)}
            />
          )}
          {inputUrl && inputBroken && <p className="placeholder">This browser cannot preview this file.</p>}
          {!inputUrl && <p className="placeholder">No image yet</p>}
        </div>
      </figure>
      <figure className="pane">
        <figcaption>Result (SVG){size ? ` — ${size}` : ''}</figcaption>
        <div className="viewport" aria-busy={busy}>
          {svgUrl ? (
            <img
              src={svgUrl}
              alt="Traced vector result"
              className={busy ? 'result stale' : 'result'}
              data-trace-id={svgView?.key ?? undefined}
            />
          ) : (
            <p className="placeholder">{busy ? 'Tracing…' : 'The traced SVG appears here'}</p>
          )}
        </div>
      </figure>
    </section>
  );
}

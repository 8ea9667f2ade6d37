/**
 * Where images come in: a file picker and drop zone (paste works anywhere on the page, see
 * App.tsx), the sample, an image URL and base64 text (ImageSources), and the sample gallery
 * (SampleGallery). Every source ends in store.setSource; failures go to the status line with the
 * API's error code (see image-sources.ts) and stay next to the field that caused them.
 */

import { useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import { useStore } from 'zustand';

import { decodeBase64Image, fetchImageUrl } from './image-sources.js';
import { isNarrowScreen } from './narrow.js';
import { samplesByKind, sampleUrl, siteBase, type Sample } from './samples.js';
import type { Source, TracelabStore } from './store.js';
import { toJobError } from './tracing.js';

export function DropZone({ onFile }: { onFile: (file: File) => void }) {
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
// Image URL, base64 text, sample gallery

/** The status-line text of an error, as statusText() shows it. */
function errorText(err: unknown): string {
  const { code, message } = toJobError(err);
  return code > 0 ? `Error ${code}: ${message}` : `Error: ${message}`;
}

/**
 * The inputs a field begins: `begin()` starts a new input (store.startInput) and remembers its
 * ticket; `onOther` runs whenever the page's newest input is one the field did not begin (a file,
 * a drop, a paste, a sample, another field), so that the field stops showing text or an error
 * about a picture that is no longer the input (issue 29: the URL and base64 boxes kept old text).
 */
function useOwnInputs(store: TracelabStore, onOther: () => void): () => number {
  const own = useRef(0);
  const inputId = useStore(store, (s) => s.inputId);
  const latestOnOther = useRef(onOther);
  latestOnOther.current = onOther;
  useEffect(() => {
    if (inputId !== own.current) latestOnOther.current();
  }, [inputId]);
  return () => (own.current = store.getState().startInput());
}

/**
 * Runs one asynchronous load at a time: a new load (or unmounting) aborts the previous one, and a
 * result or error only reaches the page if no newer input began meanwhile (its `ticket`, from
 * startInput: a file dropped while a URL was still downloading wins).
 */
function useLoader(store: TracelabStore) {
  const pending = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => () => pending.current?.abort(), []);

  return {
    busy,
    async run(what: string, ticket: number, load: (signal: AbortSignal) => Promise<Source>): Promise<string | null> {
      pending.current?.abort();
      const controller = new AbortController();
      pending.current = controller;
      setBusy(what);
      try {
        const source = await load(controller.signal);
        if (!controller.signal.aborted) store.getState().setSource(source, ticket);
        return null;
      } catch (err) {
        if (controller.signal.aborted || store.getState().inputId !== ticket) return null;
        store.getState().reportError(toJobError(err), ticket);
        return errorText(err);
      } finally {
        if (pending.current === controller) {
          pending.current = null;
          setBusy(null);
        }
      }
    },
  };
}

/** The image URL and base64 text fields. */
export function ImageSources({ store }: { store: TracelabStore }) {
  const urlId = useId();
  const urlError = useId();
  const b64Id = useId();
  const b64Error = useId();
  const [url, setUrl] = useState('');
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<{ url?: string; base64?: string }>({});
  const loader = useLoader(store);
  const [openAtFirst] = useState(() => !isNarrowScreen());
  // Each box holds the text of the current input or nothing.
  const beginUrl = useOwnInputs(store, () => {
    setUrl('');
    setErrors((e) => ({ ...e, url: undefined }));
  });
  const beginBase64 = useOwnInputs(store, () => {
    setText('');
    setErrors((e) => ({ ...e, base64: undefined }));
  });

  const loadUrl = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const error = await loader.run('url', beginUrl(), (signal) => fetchImageUrl(url, document.baseURI, { signal }));
    if (error !== null) setErrors({ url: error });
  };
  const loadBase64 = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const ticket = beginBase64();
    try {
      store.getState().setSource(decodeBase64Image(text), ticket);
    } catch (err) {
      store.getState().reportError(toJobError(err), ticket);
      setErrors({ base64: errorText(err) });
    }
  };

  return (
    // Folded on a narrow screen, where it stood between the drop zone and the result (issue 29).
    <details className="image-sources" open={openAtFirst}>
      <summary>Image URL or base64 text</summary>
      <form className="source-form" onSubmit={(e) => void loadUrl(e)} noValidate>
        <label htmlFor={urlId}>Image URL</label>
        <div className="source-row">
          <input
            id={urlId}
            type="text"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="https://example.com/logo.png"
            value={url}
            aria-invalid={errors.url !== undefined}
            aria-describedby={errors.url ? urlError : undefined}
            onChange={(e) => setUrl(e.target.value)}
          />
          <button type="submit" className="secondary" disabled={loader.busy === 'url'}>
            {loader.busy === 'url' ? 'Loading…' : 'Load URL'}
          </button>
        </div>
        {errors.url && (
          <p id={urlError} className="field-error">
            {errors.url}
          </p>
        )}
      </form>
      <form className="source-form" onSubmit={loadBase64}>
        <label htmlFor={b64Id}>Base64 text or data: URL</label>
        <div className="source-row">
          <textarea
            id={b64Id}
            rows={2}
            spellCheck={false}
            autoComplete="off"
            placeholder="iVBORw0KGgo… or data:image/png;base64,…"
            value={text}
            aria-invalid={errors.base64 !== undefined}
            aria-describedby={errors.base64 ? b64Error : undefined}
            onChange={(e) => setText(e.target.value)}
          />
          <button type="submit" className="secondary">
            Load base64
          </button>
        </div>
        {errors.base64 && (
          <p id={b64Error} className="field-error">
            {errors.base64}
          </p>
        )}
      </form>
    </details>
  );
}

/** Thumbnails of the bundled samples, one list per kind of picture (samples.ts); a click loads one. */
export function SampleGallery({ store }: { store: TracelabStore }) {
  const headingId = useId();
  const loader = useLoader(store);
  const [error, setError] = useState<string | null>(null);
  const begin = useOwnInputs(store, () => setError(null));
  const load = async (sample: Sample) => {
    setError(null);
    const failed = await loader.run(sample.file, begin(), (signal) => fetchImageUrl(sampleUrl(sample), siteBase(), { signal }));
    if (failed !== null) setError(failed);
  };
  return (
    <section className="gallery" aria-labelledby={headingId}>
      <h2 id={headingId} className="gallery-title">
        Sample gallery
      </h2>
      <div className="gallery-kinds">
        {samplesByKind().map(({ kind, samples }) => (
          <SampleKindList key={kind.id} title={kind.title} samples={samples} busy={loader.busy} onLoad={(sample) => void load(sample)} />
        ))}
      </div>
      {error && <p className="field-error">{error}</p>}
    </section>
  );
}

/** One kind's thumbnails under its heading, the list named by it ("Pixel art": 2 items). */
function SampleKindList({ title, samples, busy, onLoad }: { title: string; samples: readonly Sample[]; busy: string | null; onLoad: (sample: Sample) => void }) {
  const id = useId();
  return (
    <div className="gallery-kind">
      <h3 id={id} className="gallery-kind-title">
        {title}
      </h3>
      <ul className="gallery-list" aria-labelledby={id}>
        {samples.map((sample) => (
          <li key={sample.file}>
            <button
              type="button"
              className="gallery-item"
              aria-label={`Sample: ${sample.title}`}
              title={sample.alt}
              aria-busy={busy === sample.file}
              onClick={() => onLoad(sample)}
            >
              <img src={sampleUrl(sample)} alt="" width={56} height={56} className={sample.pixelated ? 'pixelated' : undefined} />
              <span aria-hidden="true">{sample.title}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

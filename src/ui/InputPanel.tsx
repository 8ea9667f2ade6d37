/**
 * Where images come in: a file picker and drop zone (paste works anywhere on the page, see
 * App.tsx), the sample, an image URL and base64 text (ImageSources), and the sample gallery
 * (SampleGallery). Every source ends in store.setSource; failures go to the status line with the
 * API's error code (see image-sources.ts) and stay next to the field that caused them.
 */

import { useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';

import { decodeBase64Image, fetchImageUrl } from './image-sources.js';
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
 * Runs one asynchronous load at a time: a new load (or unmounting) aborts the previous one, and a
 * result only becomes the source if nothing else was loaded meanwhile (a file dropped while a URL
 * was still downloading wins).
 */
function useLoader(store: TracelabStore) {
  const pending = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  useEffect(() => () => pending.current?.abort(), []);

  return {
    busy,
    async run(what: string, load: (signal: AbortSignal) => Promise<Source>): Promise<string | null> {
      pending.current?.abort();
      const controller = new AbortController();
      pending.current = controller;
      const before = store.getState().source;
      setBusy(what);
      try {
        const source = await load(controller.signal);
        if (controller.signal.aborted || store.getState().source !== before) return null;
        store.getState().setSource(source);
        return null;
      } catch (err) {
        if (controller.signal.aborted) return null;
        store.getState().reportError(toJobError(err));
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

  const loadUrl = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const error = await loader.run('url', (signal) => fetchImageUrl(url, document.baseURI, { signal }));
    if (error !== null) setErrors({ url: error });
  };
  const loadBase64 = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    try {
      store.getState().setSource(decodeBase64Image(text));
    } catch (err) {
      store.getState().reportError(toJobError(err));
      setErrors({ base64: errorText(err) });
    }
  };

  return (
    <div className="image-sources">
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
    </div>
  );
}

/** Thumbnails of the bundled samples, one list per kind of picture (samples.ts); a click loads one. */
export function SampleGallery({ store }: { store: TracelabStore }) {
  const headingId = useId();
  const loader = useLoader(store);
  const [error, setError] = useState<string | null>(null);
  const load = async (sample: Sample) => {
    setError(null);
    const failed = await loader.run(sample.file, (signal) => fetchImageUrl(sampleUrl(sample), siteBase(), { signal }));
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

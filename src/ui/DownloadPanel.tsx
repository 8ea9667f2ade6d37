/**
 * Downloads of the result. `DownloadButton` saves the preview SVG the page already has;
 * `CopySvgButton` puts that same SVG text on the clipboard (src/ui/clipboard.ts).
 * `DownloadPanel` offers every format (SVG, PDF, EPS, DXF, PNG): each button has the export worker
 * trace the current source with the current options and write that format
 * (src/ui/service-flow.ts exportFormat), then saves `<source-name>.<ext>`. Errors (1023 for a PNG
 * too large, 1019, …) are shown next to the buttons in an aria-live region. No credits: these are
 * plain exports, not service calls.
 */

import { useEffect, useId, useRef, useState } from 'react';
import { useStore } from 'zustand';

import { ERROR_CODES } from '../engine/errors.js';
import type { FileFormat } from '../formats/types.js';
import { exportFormat, FILE_FORMATS, fileNameFor, type ServiceExporter } from './service-flow.js';
import type { JobError, TracelabStore } from './store.js';
import { copyText } from './clipboard.js';
import { formatNumber } from './format.js';

/** Saves `data` as `name` through a temporary object URL (revoked once the download started). */
export function saveBytes(data: BlobPart, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The primary download: the format output.file_format names (issue 17: with `pdf` chosen it
 * saved an SVG). SVG saves the preview the page already has; other formats are exported from the
 * current source and options. Disabled while an option is invalid, so what is saved always
 * matches the fields on screen.
 */
export function DownloadButton({
  store,
  exporter,
  svg,
  svgBytes = null,
  sourceName,
  invalid,
}: {
  store: TracelabStore;
  exporter: ServiceExporter;
  svg: string | null;
  /** `svg` as the file's bytes, when the worker sent them: saved as they are (no text encoded here). */
  svgBytes?: Uint8Array | null;
  sourceName: string | null;
  invalid: boolean;
}) {
  const format = useStore(store, (s) => (s.options['output.file_format'] ?? 'svg') as FileFormat);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const download = async () => {
    if (svg === null || invalid) return;
    if (format === 'svg') {
      saveBytes((svgBytes as Uint8Array<ArrayBuffer> | null) ?? svg, 'image/svg+xml', svgFileName(sourceName));
      return;
    }
    setBusy(true);
    setMessage(`Exporting ${format.toUpperCase()}…`);
    const out = await exportFormat(store, exporter, format);
    setBusy(false);
    if (!out.ok) {
      setMessage(`${format.toUpperCase()} failed — ${out.error.code !== ERROR_CODES.none ? `error ${out.error.code}: ` : ''}${out.error.message}`);
      return;
    }
    saveBytes(out.file.body as Uint8Array<ArrayBuffer>, out.file.contentType, out.name);
    setMessage('');
  };
  return (
    <>
      <button type="button" id="primary-download" onClick={() => void download()} disabled={!canDownload({ hasResult: svg !== null, invalid, busy })}>
        Download {format.toUpperCase()}
      </button>
      {message !== '' && (
        <span className="download-message" aria-live="polite">
          {message}
        </span>
      )}
    </>
  );
}

/**
 * Copies the result's SVG — the text "Download SVG" saves — to the clipboard, to paste into an
 * editor or a page without a file. Offered under the same rule as the downloads (canDownload).
 */
export function CopySvgButton({ svg, invalid }: { svg: string | null; invalid: boolean }) {
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A confirmation belongs to the result it copied: a new result clears it.
  useEffect(() => setMessage(''), [svg]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    if (svg === null || invalid) return;
    setBusy(true);
    const ok = await copyText(svg);
    setBusy(false);
    setMessage(ok ? `SVG copied (${formatNumber(svg.length)} characters).` : 'Could not copy to the clipboard; use Download SVG instead.');
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setMessage(''), 6000);
  };
  return (
    <>
      <button type="button" className="secondary" onClick={() => void copy()} disabled={!canDownload({ hasResult: svg !== null, invalid, busy })}>
        Copy SVG
      </button>
      <span className="copy-message" aria-live="polite">
        {message}
      </span>
    </>
  );
}

export function svgFileName(sourceName: string | null): string {
  return fileNameFor(sourceName, 'svg');
}

type PanelState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly format: FileFormat }
  | { readonly kind: 'saved'; readonly name: string; readonly bytes: number; readonly ms: number }
  | { readonly kind: 'error'; readonly format: FileFormat; readonly error: JobError };

function stateText(state: PanelState): string {
  switch (state.kind) {
    case 'idle':
      return '';
    case 'running':
      return `Exporting ${state.format.toUpperCase()}…`;
    case 'saved':
      return `Saved ${state.name} (${formatNumber(state.bytes)} bytes, ${formatNumber(state.ms)} ms)`;
    case 'error': {
      const { code, message } = state.error;
      return `${state.format.toUpperCase()} failed — ${code !== ERROR_CODES.none ? `error ${code}: ` : ''}${message}`;
    }
  }
}

/**
 * One rule for every download button (the primary one and the six of "Download as"): there is a
 * result to download, no option field is invalid, and no export is running. An input that failed
 * (a text file named .png, an empty or truncated file, a picture over the limits) leaves no
 * result, so no button offers to download it again only to repeat the error.
 */
export function canDownload({ hasResult, invalid, busy }: { hasResult: boolean; invalid: boolean; busy: boolean }): boolean {
  return hasResult && !invalid && !busy;
}

export function DownloadPanel({ store, exporter, hasResult, invalid = false }: { store: TracelabStore; exporter: ServiceExporter; hasResult: boolean; invalid?: boolean }) {
  const [state, setState] = useState<PanelState>({ kind: 'idle' });
  // "Saved logo.svg" or an old error belongs to the input and options it was made from: a new
  // image or any option change clears it (issue 17: it stayed beside a new error).
  const source = useStore(store, (s) => s.source);
  // Compared by value: the store may hand out a new options object with the same values.
  const optionsKey = JSON.stringify(useStore(store, (s) => s.options));
  useEffect(() => setState((st) => (st.kind === 'running' ? st : { kind: 'idle' })), [source, optionsKey]);
  const labelId = useId();
  const messageId = useId();

  const download = async (format: FileFormat) => {
    setState({ kind: 'running', format });
    const out = await exportFormat(store, exporter, format);
    if (!out.ok) {
      setState({ kind: 'error', format, error: out.error });
      return;
    }
    saveBytes(out.file.body as Uint8Array<ArrayBuffer>, out.file.contentType, out.name);
    setState({ kind: 'saved', name: out.name, bytes: out.file.body.length, ms: out.ms });
  };

  return (
    <div className="download-panel" role="group" aria-labelledby={labelId}>
      <span id={labelId} className="download-label">
        Download as
      </span>
      {FILE_FORMATS.map((format) => (
        <button
          key={format}
          type="button"
          className="secondary"
          disabled={!canDownload({ hasResult, invalid, busy: state.kind === 'running' })}
          aria-describedby={messageId}
          onClick={() => void download(format)}
        >
          {format.toUpperCase()}
        </button>
      ))}
      <p id={messageId} className={`download-message download-${state.kind}`} aria-live="polite" aria-atomic="true">
        {stateText(state)}
      </p>
    </div>
  );
}

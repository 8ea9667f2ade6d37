/**
 * "Many images": choose or drop several files (or a folder), trace each with the current options
 * — output.file_format among them, so the zip holds the format the page's Download button names —
 * and save them as one zip (src/ui/batch-flow.ts). The image and result on the page are left as
 * they are. Progress and failures are announced in an aria-live line; failures are also listed in
 * the zip's errors.txt.
 *
 * A batch runs in an export worker of its own (created per batch, stopped at its end), so Cancel
 * can stop the image in flight at once by stopping that worker, without touching the page's own
 * export worker (its Download buttons). After a Cancel nothing is downloaded by itself: the
 * images already traced are offered as a zip behind a button, and the rest is not traced.
 */

import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useStore } from 'zustand';

import type { FileFormat } from '../formats/types.js';
import { createTracerClient } from '../worker/client.js';
import { BATCH_IMAGE_NAME, traceBatch, type BatchFailure, type BatchFile } from './batch-flow.js';
import { saveBytes } from './DownloadPanel.js';
import { FILE_FORMATS, type ServiceExporter } from './service-flow.js';
import { fieldsFor, type TracelabStore } from './store.js';
import { FoldingSection } from './FoldingSection.js';

/** The zip's file name. */
const ZIP_NAME = 'tracelab-batch.zip';

/** What the panel needs of a worker: exports, and a stop that also ends the export in flight. */
export type BatchExporter = Pick<ServiceExporter, 'exportFile'> & { dispose(): void };

type BatchState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly done: number; readonly total: number; readonly format: FileFormat }
  | { readonly kind: 'done'; readonly traced: number; readonly failed: readonly BatchFailure[]; readonly name: string }
  | { readonly kind: 'cancelled'; readonly traced: number; readonly failed: readonly BatchFailure[]; readonly untraced: number; readonly zip: Uint8Array };

function failuresText(failed: readonly BatchFailure[]): string {
  const list = failed.map((f) => `${f.name}: error ${f.code}: ${f.message}`).join('; ');
  return failed.length ? `, ${failed.length} failed (${list})` : '';
}

function stateText(state: BatchState): string {
  switch (state.kind) {
    case 'idle':
      return '';
    case 'running':
      return `Tracing ${state.done + 1} of ${state.total} as ${state.format.toUpperCase()}…`;
    case 'done':
      return `Saved ${state.name}: ${state.traced} traced${failuresText(state.failed)}.`;
    case 'cancelled':
      return `Cancelled: ${state.traced} traced${failuresText(state.failed)}, ${state.untraced} not traced. Nothing was downloaded${state.traced > 0 ? '; the traced images can still be saved' : ''}.`;
  }
}

export function BatchPanel({ store, newExporter = createTracerClient }: { store: TracelabStore; newExporter?: () => BatchExporter }) {
  const [state, setState] = useState<BatchState>({ kind: 'idle' });
  // The one format setting of the page (the Download button's too): a second one here let the
  // batch write SVGs while the page said "Download PDF" (issue 29).
  const format = useStore(store, (s) => s.options['output.file_format'] as FileFormat);
  const inputId = useId();
  const folderId = useId();
  const formatId = useId();
  const cancelHintId = useId();
  const running = useRef<{ controller: AbortController; exporter: BatchExporter } | null>(null);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const run = async (list: readonly File[]) => {
    const images = list.filter((f) => BATCH_IMAGE_NAME.test(f.name) || f.type.startsWith('image/'));
    if (running.current || images.length === 0) return;
    const controller = new AbortController();
    const exporter = newExporter();
    running.current = { controller, exporter };
    try {
      const fields = fieldsFor(store.getState().options);
      const chosen = store.getState().options['output.file_format'] as FileFormat;
      setState({ kind: 'running', done: 0, total: images.length, format: chosen });
      const files: BatchFile[] = [];
      for (const f of images) files.push({ name: f.webkitRelativePath || f.name, bytes: new Uint8Array(await f.arrayBuffer()) });
      const progress = (done: number, total: number) => {
        if (!controller.signal.aborted) setState({ kind: 'running', done: Math.min(done, total - 1), total, format: chosen });
      };
      const outcome = await traceBatch(files, fields, exporter, progress, controller.signal);
      if (outcome.cancelled) {
        setState({ kind: 'cancelled', traced: outcome.entries.length, failed: outcome.failed, untraced: outcome.untraced, zip: outcome.zip });
        return;
      }
      saveBytes(outcome.zip as Uint8Array<ArrayBuffer>, 'application/zip', ZIP_NAME);
      setState({ kind: 'done', traced: outcome.entries.length, failed: outcome.failed, name: ZIP_NAME });
    } finally {
      exporter.dispose();
      running.current = null;
    }
  };

  const cancel = () => {
    const current = running.current;
    if (!current) return;
    current.controller.abort();
    // Stops the image in flight now (the worker is terminated), not after it is traced.
    current.exporter.dispose();
  };

  const saveCancelled = () => {
    if (state.kind !== 'cancelled') return;
    saveBytes(state.zip as Uint8Array<ArrayBuffer>, 'application/zip', ZIP_NAME);
    setState({ kind: 'done', traced: state.traced, failed: state.failed, name: ZIP_NAME });
  };

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    void run(files);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    void run([...event.dataTransfer.files]);
  };

  const busy = state.kind === 'running';
  return (
    <FoldingSection className="batch-panel" title="Many images" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <p className="hint">
        Trace several files with the current options and save them as one zip. The image above stays as it is. The format is the page&apos;s
        output.file_format.
      </p>
      <div className="batch-controls">
        <label htmlFor={formatId}>Format</label>
        <select id={formatId} value={format} onChange={(e) => store.getState().setOption('output.file_format', e.target.value as FileFormat)} disabled={busy}>
          {FILE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f.toUpperCase()}
            </option>
          ))}
        </select>
        <button type="button" className="secondary" disabled={busy} onClick={() => filesInput.current?.click()}>
          Choose files…
        </button>
        <button type="button" className="secondary" disabled={busy} onClick={() => folderInput.current?.click()}>
          Choose a folder…
        </button>
        {busy && (
          <button type="button" className="secondary" aria-describedby={cancelHintId} onClick={cancel}>
            Cancel
          </button>
        )}
        {state.kind === 'cancelled' && state.traced > 0 && (
          <button type="button" onClick={saveCancelled}>
            Save the {state.traced} traced as a zip
          </button>
        )}
        <input
          ref={filesInput}
          id={inputId}
          className="visually-hidden"
          type="file"
          multiple
          tabIndex={-1}
          aria-label="Images to trace"
          accept="image/*,.png,.jpg,.jpeg,.webp,.gif,.bmp,.tif,.tiff"
          onChange={onChange}
        />
        <input
          ref={folderInput}
          id={folderId}
          className="visually-hidden"
          type="file"
          multiple
          tabIndex={-1}
          aria-label="Folder of images to trace"
          {...({ webkitdirectory: '' } as Record<string, string>)}
          onChange={onChange}
        />
      </div>
      {busy && (
        <>
          <progress max={state.total} value={state.done} aria-label="Batch progress" />
          <p id={cancelHintId} className="hint">
            Cancel stops at once: no further image is traced, nothing is downloaded, and the images already traced can still be saved.
          </p>
        </>
      )}
      <p className={`batch-message batch-${state.kind}`} aria-live="polite" aria-atomic="true">
        {stateText(state)}
      </p>
    </FoldingSection>
  );
}

/**
 * "Many images": choose or drop several files (or a folder), trace each in the export worker with
 * the current options and the chosen format, and save them as one zip (src/ui/batch-flow.ts). The
 * image and result on the page are left as they are. Progress and failures are announced in an
 * aria-live line; failures are also listed in the zip's errors.txt.
 */

import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';

import type { FileFormat } from '../formats/types.js';
import { BATCH_IMAGE_NAME, traceBatch, type BatchFailure, type BatchFile } from './batch-flow.js';
import { saveBytes } from './DownloadPanel.js';
import { FILE_FORMATS, type ServiceExporter } from './service-flow.js';
import { fieldsFor, type TracelabStore } from './store.js';
import { FoldingSection } from './FoldingSection.js';

type BatchState =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly done: number; readonly total: number }
  | { readonly kind: 'done'; readonly traced: number; readonly failed: readonly BatchFailure[]; readonly name: string };

function stateText(state: BatchState): string {
  switch (state.kind) {
    case 'idle':
      return '';
    case 'running':
      return `Tracing ${state.done + 1} of ${state.total}…`;
    case 'done': {
      const failures = state.failed.map((f) => `${f.name}: error ${f.code}: ${f.message}`).join('; ');
      return `Saved ${state.name}: ${state.traced} traced${state.failed.length ? `, ${state.failed.length} failed (${failures})` : ''}.`;
    }
  }
}

export function BatchPanel({ store, exporter }: { store: TracelabStore; exporter: ServiceExporter }) {
  const [state, setState] = useState<BatchState>({ kind: 'idle' });
  const [format, setFormat] = useState<FileFormat>('svg');
  const inputId = useId();
  const folderId = useId();
  const formatId = useId();
  const busy = useRef(false);
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const run = async (list: readonly File[]) => {
    const images = list.filter((f) => BATCH_IMAGE_NAME.test(f.name) || f.type.startsWith('image/'));
    if (busy.current || images.length === 0) return;
    busy.current = true;
    try {
      setState({ kind: 'running', done: 0, total: images.length });
      const files: BatchFile[] = [];
      for (const f of images) files.push({ name: f.webkitRelativePath || f.name, bytes: new Uint8Array(await f.arrayBuffer()) });
      const fields: [string, string][] = [...fieldsFor(store.getState().options).filter(([n]) => n !== 'output.file_format'), ['output.file_format', format]];
      const outcome = await traceBatch(files, fields, exporter, (done, total) => setState({ kind: 'running', done: Math.min(done, total - 1), total }));
      const name = 'tracelab-batch.zip';
      saveBytes(outcome.zip as Uint8Array<ArrayBuffer>, 'application/zip', name);
      setState({ kind: 'done', traced: outcome.entries.length, failed: outcome.failed, name });
    } finally {
      busy.current = false;
    }
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

  return (
    <FoldingSection className="batch-panel" title="Many images" onDragOver={(e) => e.preventDefault()} onDrop={onDrop}>
      <p className="hint">Trace several files with the current options and save them as one zip. The image above stays as it is.</p>
      <div className="batch-controls">
        <label htmlFor={formatId}>Format</label>
        <select id={formatId} value={format} onChange={(e) => setFormat(e.target.value as FileFormat)} disabled={state.kind === 'running'}>
          {FILE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f.toUpperCase()}
            </option>
          ))}
        </select>
        <button type="button" className="secondary" disabled={state.kind === 'running'} onClick={() => filesInput.current?.click()}>
          Choose files…
        </button>
        <button type="button" className="secondary" disabled={state.kind === 'running'} onClick={() => folderInput.current?.click()}>
          Choose a folder…
        </button>
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
      {state.kind === 'running' && <progress max={state.total} value={state.done} aria-label="Batch progress" />}
      <p className={`batch-message batch-${state.kind}`} aria-live="polite" aria-atomic="true">
        {stateText(state)}
      </p>
    </FoldingSection>
  );
}

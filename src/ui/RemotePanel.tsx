/**
 * Remote mode panel: the user's API Id / Secret (memory only unless they tick "remember for this
 * tab"), an optional proxy URL, the call to the real service (src/ui/remote-flow.ts), its cost
 * line, and the remote result next to the local preview.
 *
 * In: the store (remote slice, source, job, service.mode, options). Out: store changes through the
 * flow. While a Tracelab extension option is set, a note next to the button says it is not sent.
 * Both results are shown through <img src="blob:…"> only — the remote bytes come from another
 * server and are never inserted into the DOM — and a file that is not an SVG or PNG is offered as
 * an octet-stream download, never opened as a page.
 */

import { useEffect, useId, useMemo, useState } from 'react';
import { useStore } from 'zustand';

import { ERROR_CODES } from '../engine/errors.js';
import { useObjectUrl } from './hooks.js';
import {
  browserSessionStorage,
  callRemote,
  connectRemote,
  expectedCostText,
  forget,
  isViewableImage,
  proxyUrlProblem,
  remoteCostText,
  remoteNotSentNote,
} from './remote-flow.js';
import type { TracelabStore } from './store.js';
import { FoldingSection } from './FoldingSection.js';
import { formatNumber } from './format.js';

/**
 * The "Remote mode and CORS" section of docs/service.md, shipped with the site as a page of its
 * own (scripts/vite-readme-docs.ts): the markdown files are not part of the built site.
 */
export const REMOTE_DOCS_HREF = 'docs/remote-mode-and-cors.html';

export function RemotePanel({ store }: { store: TracelabStore }) {
  const remote = useStore(store, (s) => s.remote);
  const source = useStore(store, (s) => s.source);
  const job = useStore(store, (s) => s.job);
  const mode = useStore(store, (s) => s.service.mode);
  const notSent = useStore(store, (s) => remoteNotSentNote(s.options));
  const storage = useMemo(() => browserSessionStorage(), []);
  const ids = { id: useId(), secret: useId(), proxy: useId(), proxyNote: useId(), warning: useId(), notSent: useId() };

  // Restore what this tab remembered, and keep sessionStorage in step with every later change.
  useEffect(() => connectRemote(store, storage), [store, storage]);

  const { last, file, busy } = remote;
  const viewable = file !== null && isViewableImage(file.contentType);
  // The <img> gets the bytes under a safe image type only; anything else is never rendered.
  const remoteView = useObjectUrl(
    viewable ? (file.body as Uint8Array<ArrayBuffer>) : null,
    viewable ? file.contentType.split(';')[0]!.trim() : 'application/octet-stream',
    last?.id ?? 0,
  );
  // The local comparison appears once there is a remote result to compare with (an SVG <img> is
  // rasterised on the main thread; no need to pay for a second copy before it is useful), and
  // large results use the worker's PNG rendering like the viewer does.
  const compare = file !== null || last !== null;
  const localView = useObjectUrl(
    !compare ? null : job.previewPng ? (job.previewPng as Uint8Array<ArrayBuffer>) : job.svg,
    job.previewPng ? 'image/png' : 'image/svg+xml',
    job.resultId,
  );
  const proxyProblem = proxyUrlProblem(remote.proxyUrl);
  const [origin] = useState(() => (typeof location !== 'undefined' ? location.origin : 'http://localhost:5173'));

  const saveFile = () => {
    if (file === null) return;
    // octet-stream: the browser saves it and never renders a file from another server as a page.
    const url = URL.createObjectURL(new Blob([file.body as Uint8Array<ArrayBuffer>], { type: 'application/octet-stream' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = `${(source?.name ?? 'result').replace(/\.[^./\\]*$/, '') || 'result'}.remote.${file.extension}`;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };

  return (
    <FoldingSection className="remote" title="Real service (Vectorizer.AI)">
      <p className="hint">
        Sends the image and the options above to the real service with your own API credentials, in the mode chosen in
        the Local service panel. The Id and Secret stay in this tab's memory and travel only in the Authorization header.
      </p>

      <div className="remote-fields">
        <div className="field">
          <label htmlFor={ids.id}>API Id</label>
          <input
            id={ids.id}
            type="text"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            value={remote.apiId}
            onChange={(e) => store.getState().setRemote({ apiId: e.currentTarget.value })}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.secret}>API Secret</label>
          <input
            id={ids.secret}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={remote.apiSecret}
            onChange={(e) => store.getState().setRemote({ apiSecret: e.currentTarget.value })}
          />
        </div>
        <div className="field remote-proxy">
          <label htmlFor={ids.proxy}>Proxy URL (optional)</label>
          <input
            id={ids.proxy}
            type="url"
            autoComplete="off"
            spellCheck={false}
            placeholder="http://127.0.0.1:8790"
            value={remote.proxyUrl}
            aria-invalid={proxyProblem !== undefined}
            aria-describedby={ids.proxyNote}
            onChange={(e) => store.getState().setRemote({ proxyUrl: e.currentTarget.value })}
          />
          {proxyProblem !== undefined && <span className="remote-field-error">{proxyProblem}</span>}
        </div>
      </div>
      <p className="hint remote-cors" id={ids.proxyNote}>
        The real service sends no CORS headers, so browsers block direct calls: run{' '}
        <code>node scripts/cors-proxy.mjs --origin {origin}</code> and enter its URL (
        <a href={REMOTE_DOCS_HREF} target="_blank" rel="noreferrer">
          Docs: Remote mode and CORS
        </a>
        ), or use the CLI.
      </p>

      <div className="remote-remember">
        <label className="field-check-inline">
          <input
            type="checkbox"
            checked={remote.remember}
            aria-describedby={ids.warning}
            onChange={(e) => store.getState().setRemote({ remember: e.currentTarget.checked })}
          />
          Remember for this tab (sessionStorage)
        </label>
        <p className={remote.remember ? 'remote-warning active' : 'remote-warning'} id={ids.warning}>
          Risk: sessionStorage is not encrypted — any script running in this page (an XSS bug, a malicious extension)
          can read the secret until you close the tab or press Forget. Leave this off on shared computers.
        </p>
      </div>

      <div className="remote-actions">
        <button
          type="button"
          onClick={() => void callRemote(store)}
          disabled={busy}
          aria-busy={busy}
          aria-describedby={notSent !== '' ? ids.notSent : undefined}
        >
          {busy ? 'Waiting for the real service…' : 'Vectorize with the real service'}
        </button>
        <button type="button" className="secondary" onClick={() => forget(store, storage)}>
          Forget credentials
        </button>
      </div>

      {/* Why the two results may differ: the local preview uses options the real service lacks. */}
      <p className="remote-not-sent" id={ids.notSent} data-testid="remote-not-sent" hidden={notSent === ''}>
        {notSent}
      </p>

      <div className="remote-cost-line" aria-live="polite" data-testid="remote-cost">
        {last === null ? (
          <p className="remote-cost">{expectedCostText(mode)}</p>
        ) : last.error !== null ? (
          <p className="remote-cost remote-error" role="alert">
            {last.error.code !== ERROR_CODES.none ? `Error ${last.error.code}` : 'Error'}
            {last.status > 0 ? ` (HTTP ${last.status})` : ''}: {last.error.message}
          </p>
        ) : (
          <p className="remote-cost">{remoteCostText(last)}</p>
        )}
      </div>

      <div className="remote-compare" aria-label="Local and remote results side by side" role="group">
        <figure className="pane">
          <figcaption>Local preview (Tracelab, in this browser)</figcaption>
          <div className="viewport">
            {localView ? (
              <img src={localView.url} alt="Local preview for comparison" data-trace-id={localView.key ?? undefined} />
            ) : (
              <p className="placeholder">The local preview appears here next to the real service's result</p>
            )}
          </div>
        </figure>
        <figure className="pane">
          <figcaption>
            Real service{last?.mode ? ` — mode ${last.mode}` : ''}
            {file !== null ? ` — ${file.contentType || 'no content type'}, ${formatNumber(file.body.length)} bytes` : ''}
          </figcaption>
          <div className="viewport" aria-busy={busy}>
            {remoteView && viewable ? (
              <img src={remoteView.url} alt="Real service result" data-call-id={remoteView.key} />
            ) : file !== null && !viewable ? (
              <div className="placeholder">
                <p>This file type cannot be shown here.</p>
                <button type="button" className="secondary" onClick={saveFile}>
                  Save the remote file (.{file.extension})
                </button>
              </div>
            ) : (
              <p className="placeholder">{busy ? 'Waiting for the real service…' : 'The real service’s result appears here'}</p>
            )}
          </div>
        </figure>
      </div>
    </FoldingSection>
  );
}

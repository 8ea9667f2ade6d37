/**
 * "Reproduce this result": the current request as a CLI command, a curl call or JS client code
 * (snippets.ts), with a Copy button, and the share link of the options (share.ts). Credentials
 * never appear — the snippets read environment variables — and the share link holds only
 * option values, so both are safe to paste into a ticket or a chat.
 */

import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useStore } from 'zustand';

import { copyText } from './clipboard.js';
import { encodeShareUrl } from './share.js';
import { cliSnippet, curlSnippet, jsSnippet, LOCAL_BASE_URL, REMOTE_BASE_URL } from './snippets.js';
import { fieldsFor, type TracelabStore } from './store.js';
import { FoldingSection } from './FoldingSection.js';

type Kind = 'cli' | 'curl' | 'js';
const TABS: readonly { readonly kind: Kind; readonly label: string }[] = [
  { kind: 'cli', label: 'CLI' },
  { kind: 'curl', label: 'curl' },
  { kind: 'js', label: 'JS client' },
];

/** A short confirmation next to a copy button, announced politely, cleared after a while. */
function useCopied() {
  const [message, setMessage] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  return {
    message,
    async copy(text: string, what: string) {
      const ok = await copyText(text);
      setMessage(ok ? `${what} copied.` : `Could not copy; select the text and copy it yourself.`);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setMessage(''), 4000);
    },
  };
}

export function SnippetPanel({ store }: { store: TracelabStore }) {
  const tabsId = useId();
  const targetId = useId();
  const options = useStore(store, (s) => s.options);
  const sourceName = useStore(store, (s) => s.source?.name ?? null);
  const [kind, setKind] = useState<Kind>('cli');
  const [target, setTarget] = useState<'local' | 'remote'>('local');
  const tabRefs = useRef<Partial<Record<Kind, HTMLButtonElement | null>>>({});
  const copied = useCopied();

  const fields = useMemo(() => fieldsFor(options), [options]);
  const fileName = sourceName ?? 'image.png';
  const baseUrl = target === 'local' ? LOCAL_BASE_URL : REMOTE_BASE_URL;
  const text =
    kind === 'cli' ? cliSnippet(fields, { fileName }) : kind === 'curl' ? curlSnippet(fields, { fileName, baseUrl }) : jsSnippet(fields, { fileName, baseUrl });

  // Tabs pattern: arrow keys move between tabs, only the selected tab is in the Tab order.
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const i = TABS.findIndex((t) => t.kind === kind);
    const next = event.key === 'ArrowRight' ? i + 1 : event.key === 'ArrowLeft' ? i - 1 : event.key === 'Home' ? 0 : event.key === 'End' ? TABS.length - 1 : null;
    if (next === null) return;
    event.preventDefault();
    const tab = TABS[(next + TABS.length) % TABS.length]!;
    setKind(tab.kind);
    tabRefs.current[tab.kind]?.focus();
  };

  return (
    <FoldingSection className="snippets" title="Reproduce this result">
      <p className="hint">
        The same request outside the page: the CLI traces on your machine; curl and the JS client call an <code>/api/v1</code> server
        (<code>npx tracelab serve</code> or Vectorizer.AI) in production mode. Credentials come from environment variables.
      </p>
      <div className="snippet-bar">
        <div role="tablist" aria-label="Snippet language" className="snippet-tabs">
          {TABS.map((tab) => (
            <button
              key={tab.kind}
              ref={(el) => {
                tabRefs.current[tab.kind] = el;
              }}
              type="button"
              role="tab"
              id={`${tabsId}-${tab.kind}`}
              aria-selected={kind === tab.kind}
              aria-controls={`${tabsId}-panel`}
              tabIndex={kind === tab.kind ? 0 : -1}
              className={kind === tab.kind ? 'tab selected' : 'tab'}
              onClick={() => setKind(tab.kind)}
              onKeyDown={onTabKey}
            >
              {tab.label}
            </button>
          ))}
        </div>
        {kind !== 'cli' && (
          <div className="field snippet-target">
            <label htmlFor={targetId}>API server</label>
            <select id={targetId} value={target} onChange={(e) => setTarget(e.target.value as 'local' | 'remote')}>
              <option value="local">Local (tracelab serve)</option>
              <option value="remote">Vectorizer.AI</option>
            </select>
          </div>
        )}
      </div>
      <div role="tabpanel" id={`${tabsId}-panel`} aria-labelledby={`${tabsId}-${kind}`}>
        <pre className="snippet" tabIndex={0} data-testid="snippet" aria-label={`${TABS.find((t) => t.kind === kind)!.label} snippet`}>
          <code>{text}</code>
        </pre>
      </div>
      <div className="snippet-actions">
        <button type="button" className="secondary" onClick={() => void copied.copy(text, 'Snippet')}>
          Copy snippet
        </button>
        <ShareLink store={store} onCopy={(url) => void copied.copy(url, 'Share link')} />
        <span className="copy-note" aria-live="polite">
          {copied.message}
        </span>
      </div>
    </FoldingSection>
  );
}

/** The share link of the current options, read-only, with its Copy button. */
function ShareLink({ store, onCopy }: { store: TracelabStore; onCopy: (url: string) => void }) {
  const id = useId();
  const options = useStore(store, (s) => s.options);
  // The page's own address without its hash: the link opens this same playground.
  const url = encodeShareUrl(window.location.href, options);
  return (
    <>
      <button type="button" className="secondary" onClick={() => onCopy(url)}>
        Copy share link
      </button>
      <div className="field share-link">
        <label htmlFor={id}>Share link</label>
        <input id={id} type="text" readOnly value={url} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
      </div>
    </>
  );
}

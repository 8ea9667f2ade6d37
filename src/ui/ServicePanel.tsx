/**
 * The local service panel: the in-browser Vectorizer.AI-compatible service (export worker, same
 * rules as `tracelab serve`). In: the store and the export worker. Out: calls through
 * src/ui/service-flow.ts — this component only renders the `service` slice and forwards clicks.
 *
 * Parts: mode + retention + Vectorize; the cost line (what the last call was charged and what it
 * calculated, and what the next call would cost, from src/api/pricing.ts); the last result file
 * (PNG/SVG shown through <img src="blob:…"> only — never inserted into the DOM — with a save
 * link); the local account (show, set, reset); and the retained images with their expiry and
 * receipt and per-token download / upgrade / delete. The status line is an aria-live region (not
 * role="status": the page has exactly one of those, for the preview trace).
 */

import { useEffect, useId, useState, type FormEvent } from 'react';
import { useStore } from 'zustand';

import { ERROR_CODES } from '../engine/errors.js';
import { SUBSCRIPTION_STATES, type SubscriptionState } from '../api/account.js';
import {
  billedModeOf,
  creditsToMicro,
  downloadCost,
  formatCredits,
  isMode,
  isTestMode,
  MAX_RETENTION_DAYS,
  vectorizeCost,
  type Mode,
} from '../api/pricing.js';
import type { FileFormat } from '../formats/types.js';
import type { RetainedImage } from '../worker/protocol.js';
import { useObjectUrl } from './hooks.js';
import { relativeTime } from './relative-time.js';
import {
  callVectorize,
  deleteToken,
  downloadToken,
  FILE_FORMATS,
  fileNameFor,
  receiptFor,
  refreshAccount,
  refreshRetained,
  resetAccount,
  setAccount,
  type ServiceExporter,
} from './service-flow.js';
import type { ServiceCall, ServiceState, TracelabStore } from './store.js';
import { FoldingSection } from './FoldingSection.js';
import { formatNumber, formatDateTime } from './format.js';

/** Modes in the order of the select: the free ones first. */
const MODE_ORDER: readonly Mode[] = ['test', 'test_preview', 'preview', 'production'];

/** One line per mode (reference §6.2). */
export const MODE_HELP: Readonly<Record<Mode, string>> = {
  test: 'Free: the full result in any format, heavily watermarked; no subscription needed.',
  test_preview: 'Free: a 4× PNG preview, heavily watermarked.',
  preview: '4× PNG with a discreet watermark, for approval; keep it (retention) to upgrade it later.',
  production: 'The real result, in the chosen output format and options.',
};

/** Micro-credits as the six-decimal text the X-Credits-* headers use. */
const credits = (micro: number): string => formatCredits(micro);
/** A header value (credits as a number) in the same six-decimal form. */
const creditsOf = (value: number): string => formatCredits(creditsToMicro(value));
/** Short price for the mode select: "0.2 credits". */
const shortPrice = (micro: number): string => `${micro / 1_000_000} credit${micro === 1_000_000 ? '' : 's'}`;

function modeLabel(mode: Mode): string {
  const { charged, calculated } = vectorizeCost(mode);
  const price = charged === 0 ? `free (calculated ${shortPrice(calculated)})` : shortPrice(charged);
  return `${mode} — ${price}`;
}

const isCostCall = (call: ServiceCall | null): call is ServiceCall =>
  call !== null && (call.endpoint === 'vectorize' || call.endpoint === 'download');

/** The text of the panel's aria-live status line. */
export function serviceStatusText(service: ServiceState): string {
  if (service.busy) return 'Working…';
  const last = service.last;
  if (last === null) return 'Ready.';
  if (last.error !== null) {
    const { code, message } = last.error;
    return code !== ERROR_CODES.none ? `Error ${code} (HTTP ${last.status}): ${message}` : `Error: ${message}`;
  }
  const took = `${formatNumber(last.ms)} ms`;
  switch (last.endpoint) {
    case 'vectorize':
      return `Vectorized (${last.mode ?? 'production'}) in ${took}${last.token ? '; the image is retained' : ''}.`;
    case 'download':
      return `Downloaded from the token in ${took}${last.receipt ? '; a receipt was issued' : ''}.`;
    case 'delete':
      return 'Deleted the retained image.';
    case 'account':
      return 'Account updated.';
  }
}

/** "This call: charged X credits · calculated Y" for the last billed call. */
export function costLineText(call: ServiceCall): string {
  const charged = call.charged === null ? 'not reported' : `${creditsOf(call.charged)} credits`;
  // X-Credits-Calculated is only sent for test modes; elsewhere it equals the charge (§2.1.2).
  const calculated = call.calculated ?? call.charged;
  return `This call: charged ${charged} · calculated ${calculated === null ? 'not reported' : creditsOf(calculated)}`;
}

/** What a /vectorize in `mode` with `retentionDays` would cost, and the same call in production and preview. */
export function wouldCostText(mode: Mode, retentionDays: number): string {
  const next = vectorizeCost(mode, retentionDays);
  const production = vectorizeCost('production', retentionDays).charged;
  const preview = vectorizeCost('preview', retentionDays).charged;
  const days = retentionDays === 0 ? 'not retained' : `retained ${retentionDays} day${retentionDays === 1 ? '' : 's'}`;
  const head = isTestMode(mode)
    ? `Next call (${mode}, ${days}): charged ${credits(next.charged)} · calculated ${credits(next.calculated)}`
    : `Next call (${mode}, ${days}): ${credits(next.charged)} credits`;
  return `${head}. Would cost in production: ${credits(production)} · in preview: ${credits(preview)}.`;
}

export function ServicePanel({ store, exporter }: { store: TracelabStore; exporter: ServiceExporter }) {
  const service = useStore(store, (s) => s.service);
  const source = useStore(store, (s) => s.source);
  const ids = { mode: useId(), modeHelp: useId(), days: useId(), daysHelp: useId(), daysError: useId() };
  const [daysText, setDaysText] = useState(String(service.retentionDays));
  const daysError = retentionError(daysText);

  // The account and the token list live in IndexedDB (they survive a reload): load them once.
  useEffect(() => {
    void refreshAccount(store, exporter);
    void refreshRetained(store, exporter);
  }, [store, exporter]);

  const onDays = (text: string) => {
    setDaysText(text);
    if (retentionError(text) === undefined) store.getState().setService({ retentionDays: Number(text) });
  };

  const vectorize = (event: FormEvent) => {
    event.preventDefault();
    if (daysError === undefined) void callVectorize(store, exporter);
  };

  const last = service.last;
  return (
    <FoldingSection className="service" title="Local service">
      <p className="hint">
        The Vectorizer.AI-compatible API running in this browser, with the same modes, prices, tokens and errors as{' '}
        <code>tracelab serve</code>. Credits are local and free to reset; retained images stay in this browser.
      </p>

      <form className="service-call" onSubmit={vectorize} aria-label="Vectorize with the local service">
        <div className="field">
          <label htmlFor={ids.mode}>Mode</label>
          <select
            id={ids.mode}
            value={service.mode}
            aria-describedby={ids.modeHelp}
            onChange={(e) => {
              const mode = e.currentTarget.value;
              if (isMode(mode)) store.getState().setService({ mode });
            }}
          >
            {MODE_ORDER.map((mode) => (
              <option key={mode} value={mode} title={MODE_HELP[mode]}>
                {modeLabel(mode)}
              </option>
            ))}
          </select>
          <span id={ids.modeHelp} className="hint">
            {MODE_HELP[service.mode]}
          </span>
        </div>
        <div className="field">
          <label htmlFor={ids.days}>Retention days</label>
          <input
            id={ids.days}
            type="number"
            min={0}
            max={MAX_RETENTION_DAYS}
            step={1}
            inputMode="numeric"
            value={daysText}
            aria-invalid={daysError !== undefined}
            aria-describedby={daysError !== undefined ? `${ids.daysHelp} ${ids.daysError}` : ids.daysHelp}
            onChange={(e) => onDays(e.currentTarget.value)}
          />
          <span id={ids.daysHelp} className="hint">
            0 = not kept. More than 0 returns a token; the first day is free, then 0.01 credits a day.
          </span>
          {daysError !== undefined && (
            <span id={ids.daysError} className="service-error-text">
              {daysError}
            </span>
          )}
        </div>
        <button type="submit" disabled={source === null || service.busy || daysError !== undefined} aria-busy={service.busy}>
          Vectorize
        </button>
      </form>

      <div className="service-cost" data-testid="service-cost">
        <p className="service-status" aria-live="polite" aria-atomic="true" data-state={service.busy ? 'busy' : last?.error ? 'error' : 'ok'}>
          {serviceStatusText(service)}
        </p>
        {isCostCall(last) && last.error === null && (
          <p className="cost-line" data-testid="cost-line">
            {costLineText(last)}
          </p>
        )}
        <p className="cost-next hint" data-testid="cost-next">
          {daysError === undefined ? wouldCostText(service.mode, service.retentionDays) : 'Enter a valid retention to see the price.'}
        </p>
      </div>

      <ResultFile service={service} sourceName={source?.name ?? null} />
      <AccountPanel store={store} exporter={exporter} service={service} />
      <RetainedList store={store} exporter={exporter} service={service} />
    </FoldingSection>
  );
}

/** The retention field's message, or undefined when the text is a whole number 0…30. */
function retentionError(text: string): string | undefined {
  if (!/^\d+$/.test(text.trim()) || Number(text) > MAX_RETENTION_DAYS) {
    return `policy.retention_days must be a whole number from 0 to ${MAX_RETENTION_DAYS}.`;
  }
  return undefined;
}

/** The file of the last call that returned one: shown when it is PNG or SVG, always saveable. */
function ResultFile({ service, sourceName }: { service: ServiceState; sourceName: string | null }) {
  const file = service.file;
  const type = file?.contentType ?? '';
  const viewable = type === 'image/png' || type === 'image/svg+xml';
  // Keyed on the file object: a later delete/account call does not make a new URL for the same file.
  const made = useObjectUrl(file ? (file.body as Uint8Array<ArrayBuffer>) : null, viewable ? type : 'application/octet-stream', file);
  // Until the effect has made this file's URL, the one in hand belongs to the previous file (and
  // is about to be revoked): showing it would load a dead blob, so wait for the matching one.
  const view = made !== null && made.key === file ? made : null;
  if (file === null) return null;
  const name = fileNameFor(sourceName, file.extension).replace(/(\.[^.]+)$/, `.service$1`);
  return (
    <figure className="service-file">
      <div className="viewport service-viewport">
        {view && viewable ? (
          <img src={view.url} alt="Local service result" data-testid="service-result" />
        ) : (
          <p className="placeholder">This file type is not shown here; save it to open it.</p>
        )}
      </div>
      <figcaption>
        <span data-testid="service-file-info">
          {type}, {formatNumber(file.body.length)} bytes
        </span>{' '}
        {view && (
          <a href={view.url} download={name}>
            Save {name}
          </a>
        )}
      </figcaption>
    </figure>
  );
}

function AccountPanel({ store, exporter, service }: { store: TracelabStore; exporter: ServiceExporter; service: ServiceState }) {
  const ids = { title: useId(), plan: useId(), state: useId(), credits: useId() };
  const account = service.account;
  const [plan, setPlan] = useState('');
  const [state, setState] = useState<SubscriptionState>('active');
  const [creditsText, setCreditsText] = useState('');
  // The form follows the account whenever the service changes it (a call, a reset).
  useEffect(() => {
    if (account === null) return;
    setPlan(account.subscriptionPlan);
    setState(account.subscriptionState);
    setCreditsText(String(account.credits));
  }, [account]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = creditsText.trim() === '' ? Number.NaN : Number(creditsText);
    void setAccount(store, exporter, { subscriptionPlan: plan.trim(), subscriptionState: state, credits: value });
  };

  return (
    <section className="service-account" aria-labelledby={ids.title}>
      <h3 id={ids.title}>Local account</h3>
      {account === null ? (
        <p className="hint">Loading…</p>
      ) : (
        <dl className="account-summary" data-testid="account-summary">
          <div>
            <dt>Plan</dt>
            <dd>{account.subscriptionPlan}</dd>
          </div>
          <div>
            <dt>State</dt>
            <dd>{account.subscriptionState}</dd>
          </div>
          <div>
            <dt>Credits</dt>
            <dd data-testid="account-credits">{formatNumber(account.credits, 6)}</dd>
          </div>
        </dl>
      )}
      <form className="account-form" onSubmit={submit} aria-label="Set the local account">
        <div className="field">
          <label htmlFor={ids.plan}>Plan</label>
          <input id={ids.plan} type="text" spellCheck={false} value={plan} onChange={(e) => setPlan(e.currentTarget.value)} />
        </div>
        <div className="field">
          <label htmlFor={ids.state}>State</label>
          <select id={ids.state} value={state} onChange={(e) => setState(e.currentTarget.value as SubscriptionState)}>
            {SUBSCRIPTION_STATES.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={ids.credits}>Credits</label>
          <input
            id={ids.credits}
            type="number"
            min={0}
            step="any"
            inputMode="decimal"
            value={creditsText}
            onChange={(e) => setCreditsText(e.currentTarget.value)}
          />
        </div>
        <div className="account-actions">
          <button type="submit" disabled={service.busy}>
            Set account
          </button>
          <button type="button" className="secondary" disabled={service.busy} onClick={() => void resetAccount(store, exporter)}>
            Reset account
          </button>
        </div>
      </form>
      <p className="hint">Plan “none” or state “ended” answers 1008, “pastDue” 1010, too few credits 1011; test modes always work.</p>
    </section>
  );
}

/** "in 23 hours" / "in 5 minutes" for a time from now. */
function RetainedList({ store, exporter, service }: { store: TracelabStore; exporter: ServiceExporter; service: ServiceState }) {
  const titleId = useId();
  // Expiry is shown relative to now: tick once a minute so "in 5 minutes" does not go stale.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => setNow(Date.now()), [service.retained]);

  return (
    <section className="service-retained" aria-labelledby={titleId}>
      <div className="retained-head">
        <h3 id={titleId}>Retained images</h3>
        <button type="button" className="link" disabled={service.busy} onClick={() => void refreshRetained(store, exporter)}>
          Refresh list
        </button>
      </div>
      {service.retained.length === 0 ? (
        <p className="hint">None. Vectorize with retention days above 0 to keep an image and get a token.</p>
      ) : (
        <ul className="retained-list">
          {service.retained.map((image) => (
            <RetainedItem key={image.token} store={store} exporter={exporter} service={service} image={image} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

function RetainedItem({
  store,
  exporter,
  service,
  image,
  now,
}: {
  store: TracelabStore;
  exporter: ServiceExporter;
  service: ServiceState;
  image: RetainedImage;
  now: number;
}) {
  const ids = { token: useId(), format: useId(), cost: useId() };
  const [format, setFormat] = useState<FileFormat>('svg');
  const receipt = receiptFor(service, image.token);
  const mode = isMode(image.mode) ? image.mode : null;
  const canUpgrade = mode !== null && billedModeOf(mode) === 'preview' && receipt === null;
  const next = mode !== null ? downloadCost({ tokenMode: mode, validReceipt: receipt !== null }) : null;
  const nextText =
    next === null
      ? ''
      : `Next download: ${isTestMode(mode!) ? `charged ${credits(0)} · calculated ${credits(next.calculated)}` : `${credits(next.charged)} credits`}${
          next.issuesReceipt ? ' (upgrade to production; issues a receipt)' : receipt !== null ? ' (receipt rate)' : ''
        }`;
  const expires = new Date(image.expiresAt);

  return (
    <li className="retained-item" data-token={image.token}>
      <p className="retained-meta">
        <code id={ids.token} className="token">
          {image.token}
        </code>{' '}
        <span className="retained-mode">{image.mode}</span> · {formatNumber(image.bytes)} bytes · expires{' '}
        {relativeTime(image.expiresAt, now)} (
        <time dateTime={expires.toISOString()}>{formatDateTime(expires)}</time>)
      </p>
      <p className="retained-receipt">
        {receipt !== null ? (
          <>
            Receipt: <code data-testid="receipt">{receipt}</code>
          </>
        ) : (
          'No receipt'
        )}
      </p>
      <p className="hint" id={ids.cost}>
        {nextText}
      </p>
      <div className="retained-actions">
        <label htmlFor={ids.format}>Format</label>
        <select id={ids.format} value={format} aria-describedby={ids.token} onChange={(e) => setFormat(e.currentTarget.value as FileFormat)}>
          {FILE_FORMATS.map((f) => (
            <option key={f} value={f}>
              {f.toUpperCase()}
            </option>
          ))}
        </select>
        {/* Any download of a preview token without its receipt is the upgrade (0.9, issues a
            receipt), so the one button says so; afterwards it downloads at the receipt rate. */}
        <button
          type="button"
          disabled={service.busy}
          aria-describedby={`${ids.token} ${ids.cost}`}
          onClick={() => void downloadToken(store, exporter, image.token, format)}
        >
          {canUpgrade ? 'Upgrade to production' : 'Download'}
        </button>
        <button type="button" className="secondary danger" disabled={service.busy} aria-describedby={ids.token} onClick={() => void deleteToken(store, exporter, image.token)}>
          Delete
        </button>
      </div>
    </li>
  );
}

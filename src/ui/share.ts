/**
 * Share links: the playground's option values in the URL hash, so a link (or a reload) brings the
 * same parameters back.
 *
 *   encodeShareUrl(baseUrl, options) → baseUrl with `#o=<URL-encoded form of the non-default fields>`
 *   decodeShareHash(hash)            → { fields, problems }: valid fields only, every rejected entry
 *                                      described in `problems` (never thrown)
 *
 * Only panel options travel (fieldsFor): never the service fields (mode, retention, receipt), never
 * credentials, never image data — a link is safe to paste anywhere. The hash is not sent to the
 * server that hosts the page, and the form is encoded once more as the value of `o`, so other
 * hash parameters (if any are added later) cannot collide with option names.
 */

import type { VectorizeOptions } from '../api/index.js';
import { OPTION_BY_NAME } from '../api/index.js';
import { fieldsFor, SERVICE_FIELDS, validateOption, type TracelabStore } from './store.js';

/** The hash parameter that carries the options. */
export const SHARE_PARAM = 'o';

/** Hashes longer than this are not parsed (a palette of 1,024 entries fits easily). */
export const MAX_SHARE_HASH_CHARS = 100_000;

/** `#o=…` for `fields`, or '' when there is nothing to share (all defaults). */
export function shareHash(fields: readonly (readonly [string, string])[]): string {
  if (fields.length === 0) return '';
  const form = new URLSearchParams(fields.map(([name, value]) => [name, value])).toString();
  return `#${SHARE_PARAM}=${encodeURIComponent(form)}`;
}

/** `baseUrl` (its own hash dropped) with the hash of the non-default options. */
export function encodeShareUrl(baseUrl: string, options: VectorizeOptions): string {
  const url = new URL(baseUrl);
  url.hash = '';
  // URL.hash re-escapes some characters; build the string directly so decode sees exactly ours.
  return `${url.href.replace(/#$/, '')}${shareHash(fieldsFor(options))}`;
}

export interface DecodedShare {
  /** Valid option fields (text form, as the API takes them); last entry wins for repeats. */
  readonly fields: Readonly<Record<string, string>>;
  /** One sentence per ignored entry (unknown name, service field, invalid value, bad encoding). */
  readonly problems: readonly string[];
}

/**
 * The option fields of a location hash (`#o=…`, with or without the '#'). Anything that is not a
 * valid playground option is left out and reported, so a tampered or outdated link still opens.
 */
export function decodeShareHash(hash: string): DecodedShare {
  const text = hash.startsWith('#') ? hash.slice(1) : hash;
  if (text === '') return { fields: {}, problems: [] };
  if (text.length > MAX_SHARE_HASH_CHARS) {
    return { fields: {}, problems: [`The share link is too long (${text.length} characters); its options were ignored.`] };
  }
  let form: string | null;
  try {
    form = new URLSearchParams(text).get(SHARE_PARAM);
  } catch {
    form = null;
  }
  if (form === null) return { fields: {}, problems: [] }; // some other hash (an anchor): not ours
  const fields: Record<string, string> = {};
  const problems: string[] = [];
  let entries: [string, string][];
  try {
    entries = [...new URLSearchParams(form)];
  } catch {
    return { fields: {}, problems: ['The share link could not be decoded; its options were ignored.'] };
  }
  for (const [name, value] of entries) {
    if (!OPTION_BY_NAME.has(name)) {
      problems.push(`Unknown option ${JSON.stringify(name.slice(0, 80))} in the share link was ignored.`);
      continue;
    }
    if (SERVICE_FIELDS.has(name)) {
      problems.push(`${name} is not shared by links and was ignored.`);
      continue;
    }
    const message = validateOption(name, value);
    if (message !== undefined) {
      problems.push(`${message} (from the share link; ignored)`);
      continue;
    }
    if (name in fields && fields[name] !== value) problems.push(`${name} appears more than once in the share link; the last value was used.`);
    fields[name] = value;
  }
  return { fields, problems };
}

// ---------------------------------------------------------------------------------------------
// Keeping the address bar in sync

/** The parts of `window` the sync uses (a fake in tests). */
export interface ShareWindow {
  readonly location: { readonly href: string; readonly hash: string };
  readonly history: { readonly state: unknown; replaceState(state: unknown, unused: string, url: string): void };
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

/**
 * Keeps the address bar's hash equal to the options (replaceState: no history entry per
 * keystroke, and a reload keeps them), and applies a share link pasted into the address bar of
 * an open page (hashchange). `onProblems` hears about entries of such a link that were dropped.
 * Returns a function that stops both.
 */
export function connectShareHash(
  store: TracelabStore,
  win: ShareWindow,
  onProblems: (problems: readonly string[]) => void = () => {},
): () => void {
  const write = (options: VectorizeOptions) => {
    const next = encodeShareUrl(win.location.href, options);
    if (next !== win.location.href) win.history.replaceState(win.history.state, '', next);
  };
  const unsubscribe = store.subscribe((state, previous) => {
    if (state.options !== previous.options) write(state.options);
  });
  const onHashChange = () => {
    const { fields, problems } = decodeShareHash(win.location.hash);
    if (problems.length > 0) onProblems(problems);
    const key = (entries: [string, string][]) => JSON.stringify(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    const wanted = key(Object.entries(fields));
    const have = key(fieldsFor(store.getState().options));
    if (wanted !== have) store.getState().applyOptions(fields, 'defaults');
  };
  win.addEventListener('hashchange', onHashChange);
  // Normalise the address once: drops invalid entries a link came with.
  write(store.getState().options);
  return () => {
    unsubscribe();
    win.removeEventListener('hashchange', onHashChange);
  };
}

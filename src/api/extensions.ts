/**
 * The one rule for Tracelab extensions: options named `tracelab.*` (group `tracelab` of the options
 * schema) are things Tracelab does beyond the Vectorizer.AI API. They are validated by the same
 * schema, default off (so the defaults match the API), accepted by every Tracelab engine and server
 * (library, CLI, `tracelab serve`, the in-browser service) and never sent to the real service.
 *
 * In:  option names, request fields (`[name, value]` pairs), base URLs.
 * Out: whether a name is an extension (`isExtensionOption`), whether a URL is the real service
 *      (`isRealServiceUrl`), the fields the real service gets plus the names left out
 *      (`forRealService`), and the note every caller shows for those names (`notSentNote`).
 *
 * Every path that talks to the real service goes through `forRealService`: the HTTP client when
 * it is told (or guesses from the host) that it talks to the real service, the playground's remote
 * panel, the CLI's `--remote`, and the code snippets written for the real service.
 */

/** Every extension option's name starts with this; the real API has no parameter that does. */
export const EXTENSION_PREFIX = 'tracelab.';

/** Is `name` a Tracelab extension option (known to this version or not)? */
export function isExtensionOption(name: string): boolean {
  return name.startsWith(EXTENSION_PREFIX);
}

/**
 * Does `baseUrl` point at the real Vectorizer.AI service? Its hosts are `vectorizer.ai` and its
 * subdomains (`api.vectorizer.ai`, the documented one, and language hosts such as
 * `pt.vectorizer.ai`; reference §1). Anything else — `tracelab serve`, a fleet behind a load
 * balancer, an in-process handler, a proxy — is not recognised as the real service by its URL.
 */
export function isRealServiceUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return host === 'vectorizer.ai' || host.endsWith('.vectorizer.ai');
}

/** The fields to send to the real service, and the extension names left out (in field order, once each). */
export interface RealServiceFields<F> {
  readonly fields: F[];
  readonly dropped: string[];
}

/** Splits request fields into what the real service gets and the extension options it must not. */
export function forRealService<F extends readonly [string, unknown]>(fields: Iterable<F>): RealServiceFields<F> {
  const kept: F[] = [];
  const dropped: string[] = [];
  for (const field of fields) {
    if (!isExtensionOption(field[0])) kept.push(field);
    else if (!dropped.includes(field[0])) dropped.push(field[0]);
  }
  return { fields: kept, dropped };
}

/**
 * The one-line note shown wherever extension options were left out of a call to the real service
 * (the playground's remote panel, the CLI's stderr, snippet comments); '' when none were.
 * e.g. "Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension)".
 */
export function notSentNote(dropped: readonly string[]): string {
  if (dropped.length === 0) return '';
  const what = dropped.length === 1 ? 'a Tracelab extension' : 'Tracelab extensions';
  return `Not sent to Vectorizer.AI: ${dropped.join(', ')} (${what})`;
}

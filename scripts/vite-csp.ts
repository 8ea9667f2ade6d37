/**
 * Vite plugin (build only): puts the playground's Content-Security-Policy into the built
 * index.html as `<meta http-equiv="Content-Security-Policy">`, right after <meta charset>,
 * so it covers every script and stylesheet after it.
 * In: index.html as Vite renders it. Out: the same with the meta tag.
 *
 * Why only in the build: the dev server serves CSS as JS modules that insert inline <style>
 * elements (so they can hot-reload), and `style-src 'self'` blocks them: with the tag in
 * index.html itself, `npm run dev` shows an unstyled page (checked in Chromium). It also prepends
 * an inline React-refresh script, which only escapes the policy because it comes first.
 *
 * docs/playground.md "Static hosting" documents the same policy as an HTTP header (plus frame-ancestors,
 * which a meta tag cannot set); keep the two in sync.
 */

import type { Plugin } from 'vite';

/** Directive → sources. Each entry says why it is not stricter. */
export const CSP_DIRECTIVES: readonly (readonly [string, string])[] = [
  ['default-src', "'self'"],
  // 'wasm-unsafe-eval': WebAssembly compilation (the WebP decoder), nothing else; no eval.
  ['script-src', "'self' 'wasm-unsafe-eval'"],
  // The trace workers and the offline service worker are same-origin scripts.
  ['worker-src', "'self'"],
  // blob:: the input preview and the traced SVG are shown as <img src="blob:…">. No data:: the
  // page shows no data: images (base64 input is decoded in script, not loaded as an image).
  ['img-src', "'self' blob:"],
  // No 'unsafe-inline': the page has no inline <style> and no style="" markup; React's style
  // props are applied through the CSSOM (element.style), which CSP does not restrict.
  ['style-src', "'self'"],
  // https:: the remote mode calls the real service or a user-run proxy; localhost over plain
  // http: a proxy on the user's own machine. blob:: the page (and its tests) read back their own
  // result object URLs with fetch().
  ['connect-src', "'self' https: http://localhost:* http://127.0.0.1:* blob:"],
  ['object-src', "'none'"],
  ['base-uri', "'self'"],
  ['form-action', "'none'"],
];

export const CONTENT_SECURITY_POLICY = CSP_DIRECTIVES.map(([name, value]) => `${name} ${value}`).join('; ');

export function contentSecurityPolicy(): Plugin {
  const tag = `<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}" />`;
  return {
    name: 'tracelab:content-security-policy',
    apply: 'build',
    transformIndexHtml(html) {
      // Right after <meta charset> (which should stay first), before any script or stylesheet.
      const charset = /<meta charset[^>]*>/i.exec(html);
      if (!charset) throw new Error('index.html has no <meta charset>: cannot place the CSP meta tag');
      const at = charset.index + charset[0].length;
      return `${html.slice(0, at)}\n    ${tag}${html.slice(at)}`;
    },
  };
}

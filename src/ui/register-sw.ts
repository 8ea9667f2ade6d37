/**
 * Registers the offline service worker (`sw.js`, written into the build by
 * scripts/vite-offline.ts). In: nothing. Out: nothing — only in production builds and browsers
 * with service workers (secure contexts: https or localhost); the dev server has no sw.js.
 * A failed registration only means no offline use, so it is logged as info, never as an error.
 */

export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // Next to index.html, whatever sub-path the site is served from (base './').
  const url = new URL('sw.js', new URL(import.meta.env.BASE_URL, document.baseURI));
  const register = (): void => {
    navigator.serviceWorker.register(url).catch((err: unknown) => {
      console.info(`Tracelab works online only: the offline service worker was not registered (${String(err)})`);
    });
  };
  // After the load event, so precaching does not compete with the page's own first requests
  // (main.tsx calls this only once the page is mounted, usually after the load event already).
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * Browser entry: one store, the trace workers, the page, and (production builds) the offline
 * service worker. The page is loaded so that no main-thread task runs long on a slow machine:
 * React DOM and the page's components are separate chunks evaluated in tasks of their own, the
 * page mounts in steps (App); the preview worker starts loading at once, the service worker once
 * the page is on screen.
 */

import { StrictMode, startTransition } from 'react';

import { ERROR_CODES } from '../engine/errors.js';
import { createTracerClient } from '../worker/client.js';
import { registerServiceWorker } from './register-sw.js';
import { connectShareHash, decodeShareHash } from './share.js';
import { createTracelabStore } from './store.js';
import { connectTracer } from './tracing.js';
import './styles.css';

// A share link (#o=…) sets the first options; entries that are not valid options are dropped
// and reported in the status line instead of breaking the page.
const shared = decodeShareHash(window.location.hash);
const store = createTracelabStore(shared.fields);
const reportShareProblems = (problems: readonly string[]) =>
  store.getState().reportError({ code: ERROR_CODES.parameterError, message: `Share link: ${problems.join(' ')}` });
if (shared.problems.length > 0) reportShareProblems(shared.problems);
// The address bar follows the options, so a reload (or a copied address) keeps them.
connectShareHash(store, window, reportShareProblems);
// Two workers: previews (every change aborts the running one) and exports/the local service.
const previewer = createTracerClient();
connectTracer(store, previewer);
// The preview worker loads its code now, beside the page's own loading: it fetches and compiles
// on its own thread, so a picture dropped while the page still mounts finds it ready (issue 28:
// started after the mount, a 2-MP photo dropped during the load waited for it, first result 1.7–2.4 s).
previewer.prepare();
const exporter = createTracerClient();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
mountPage(root).catch((err: unknown) => {
  // A chunk that failed to load (offline before the first full visit, a deploy mid-load) leaves
  // a message, not a blank page.
  console.error(err);
  root.textContent = `Tracelab could not load its page code (${String(err)}). Reload the page to try again.`;
});

/**
 * React DOM, then the page's components, each imported and evaluated in a task of its own:
 * evaluating them in the entry's one task held the main thread for 50–130 ms (measured in
 * Chromium on the 2-core bench machine; most of it compiling React DOM).
 */
async function mountPage(container: HTMLElement): Promise<void> {
  const { createRoot } = await import('react-dom/client');
  await nextTask();
  const { App } = await import('./App.js');
  await nextTask();
  // A transition: React renders the page in slices of a few milliseconds (the commit and the
  // layout of each mount step still come in one piece).
  startTransition(() => {
    createRoot(container).render(
      <StrictMode>
        <App store={store} exporter={exporter} previewer={previewer} onMounted={startBackgroundWork} />
      </StrictMode>,
    );
  });
}

/** Resolves in a later task, so the browser can run others (and paint) in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Once the page is on screen and no trace is running: the offline service worker precaches the
 * site. Its fetches and cache writes compete with the page's first layouts for the CPU, so it
 * waits for them (on the 2-core bench machine the longest page-load task was 118 ms with it and
 * the preview worker started at once, 59–71 ms after the mount). It runs in the page's renderer
 * process, so it also waits for a trace that is running (a picture dropped while the page
 * loads): its thread and its copies of every chunk, sample and page of the site (pdf-lib and
 * the WebP decoder too) were added to the trace's peak memory, and its work to the draft's wait.
 */
function startBackgroundWork(): void {
  whenNotTracing(registerServiceWorker);
}

/** Runs `work` now, or once the running trace (or the input being read for one) has finished. */
function whenNotTracing(work: () => void): void {
  const tracing = (status: string): boolean => status === 'loading' || status === 'running';
  if (!tracing(store.getState().job.status)) return work();
  const unsubscribe = store.subscribe((state) => {
    if (tracing(state.job.status)) return;
    unsubscribe();
    work();
  });
}

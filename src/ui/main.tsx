/** Browser entry: one store, the trace workers, the page, and (production builds) the offline service worker. */

import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';

import { createTracerClient } from '../worker/client.js';
import { App } from './App.js';
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
  store.getState().reportError({ code: 1019, message: `Share link: ${problems.join(' ')}` });
if (shared.problems.length > 0) reportShareProblems(shared.problems);
// The address bar follows the options, so a reload (or a copied address) keeps them.
connectShareHash(store, window, reportShareProblems);
// Two workers: previews (every change aborts the running one) and exports/the local service.
const previewer = createTracerClient();
// Loaded with the page: a dropped image is traced without waiting for the worker's code.
previewer.prepare();
connectTracer(store, previewer);
const exporter = createTracerClient();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
// A transition: React renders the page in slices of a few milliseconds, so the first render
// never holds the main thread for long (the commit and the layout still come in one piece).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <App store={store} exporter={exporter} previewer={previewer} />
    </StrictMode>,
  );
});
registerServiceWorker();

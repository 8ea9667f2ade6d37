/** Browser entry: one store, one trace worker, the page. */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { createTracerClient } from '../worker/client.js';
import { App } from './App.js';
import { createTracelabStore } from './store.js';
import { connectTracer } from './tracing.js';
import './styles.css';

const store = createTracelabStore();
// Two workers: previews (every change aborts the running one) and exports/the local service.
connectTracer(store, createTracerClient());
const exporter = createTracerClient();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App store={store} exporter={exporter} />
  </StrictMode>,
);

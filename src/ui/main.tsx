/** Browser entry: one store, one trace worker, the page. */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';

import { createTracerClient } from '../worker/client.js';
import { App } from './App.js';
import { createTracelabStore } from './store.js';
import { connectTracer } from './tracing.js';
import './styles.css';

const store = createTracelabStore();
connectTracer(store, createTracerClient());

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App store={store} />
  </StrictMode>,
);

// Trace the chosen file in a Web Worker (the page's thread stays free) and offer the result.
import { vectorize } from 'tracelab';

const file = document.querySelector('#file');
const format = document.querySelector('#format');
const progress = document.querySelector('#progress');
const status = document.querySelector('#status');
const download = document.querySelector('#download');
const cancel = document.querySelector('#cancel');
let controller;
cancel.addEventListener('click', () => controller?.abort(new Error('cancelled')));

file.addEventListener('change', async () => {
  const image = file.files?.[0];
  if (!image) return;
  status.textContent = 'tracing…';
  download.hidden = true;
  controller?.abort(new Error('replaced by a newer file'));
  const mine = (controller = new AbortController());
  cancel.disabled = false;
  try {
    const { data, mimeType, extension, stats } = await vectorize(image, {
      output: { file_format: format.value },
      onProgress: ({ fraction }) => (progress.value = fraction),
      signal: mine.signal, // aborting stops the worker's trace at once
    });
    URL.revokeObjectURL(download.href);
    download.href = URL.createObjectURL(new Blob([data], { type: mimeType }));
    download.download = `traced.${extension}`;
    download.hidden = false;
    status.textContent = `${stats.shapes} shapes, ${stats.colors} colours, ${stats.nodes} nodes (${stats.profile})`;
  } catch (error) {
    if (mine.signal.aborted) status.textContent = mine.signal.reason.message;
    else status.textContent = `failed: ${error.message}`; // a TracelabError has .code (1006, 1019, …)
  } finally {
    if (controller === mine) cancel.disabled = true;
  }
});

// A pool of two trace threads, progress, cancellation and typed options (checked with tsc --strict).
import { readFile } from 'node:fs/promises';
import { createTracer, TracelabError, type TraceOptions } from 'tracelab';

const image = await readFile(process.argv[2] ?? 'input.png');
const tracer = createTracer({ threads: 2 });

const options: TraceOptions = {
  output: { file_format: 'svg', curves: { line_fit_tolerance: 0.3 } },
  onProgress: ({ stage, fraction }) => console.log(`${stage} ${Math.round(fraction * 100)}%`),
};
const { data, stats } = await tracer.vectorize(image, options);
console.log(`${data.length} bytes of SVG, ${stats.nodes} nodes`);

// Cancelling: the call rejects with the signal's reason and its thread is replaced.
const controller = new AbortController();
const cancelled = tracer.vectorize(image, { signal: controller.signal });
controller.abort(new Error('not needed any more'));
await cancelled.catch((e: unknown) => console.log(`cancelled: ${(e as Error).message}`));

try {
  // @ts-expect-error -- a misspelt option name is a type error, and a 1019 error at run time
  await tracer.vectorize(image, { output: { fil_format: 'pdf' } });
} catch (e) {
  if (e instanceof TracelabError) console.log(`${e.code}: ${e.message}`);
}
await tracer.close();

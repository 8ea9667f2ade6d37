// Trace a PNG (or JPEG, WebP, GIF, BMP, TIFF) into all five formats with the same options.
// Usage: node vectorize.mjs INPUT [OUTPUT_DIR]
import { readFile, writeFile } from 'node:fs/promises';
import { vectorize } from 'tracelab';

const [input = 'input.png', outDir = '.'] = process.argv.slice(2);
const image = await readFile(input);

for (const format of ['svg', 'pdf', 'eps', 'dxf', 'png']) {
  const { data, mimeType, stats } = await vectorize(image, {
    'processing.max_colors': 8, // dotted API names…
    output: { file_format: format, size: { scale: 2 } }, // …or nested objects
  });
  await writeFile(`${outDir}/traced.${format}`, data);
  console.log(`traced.${format}: ${mimeType}, ${data.length} bytes, ${stats.shapes} shapes, ${stats.colors} colours (${stats.profile})`);
}
// No close() needed: the shared pool's idle threads do not keep the process alive.

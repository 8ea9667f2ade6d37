// Shared helpers for the peer runner scripts (each runs one image in its own process).
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const require = createRequire(import.meta.url);

/** Decode a PNG file to { width, height, data: RGBA Buffer }. */
export function readPng(file) {
  const { PNG } = require('pngjs');
  const png = PNG.sync.read(readFileSync(file));
  return { width: png.width, height: png.height, data: png.data };
}

/** Parse `node peers/x.mjs IN OUT`, run fn(inFile) → svg string, write OUT, report peak RSS. */
export async function runPeer(fn) {
  const [inFile, outFile] = process.argv.slice(2);
  if (!inFile || !outFile) {
    process.stderr.write(`usage: node ${process.argv[1]} IN.png OUT.svg\n`);
    process.exit(2);
  }
  const svg = await fn(inFile);
  writeFileSync(outFile, svg);
  // Fallback RSS figure for machines without /usr/bin/time (KiB, like time's %M).
  if (process.env.BENCH_RSS_OUT) writeFileSync(process.env.BENCH_RSS_OUT, String(process.resourceUsage().maxRSS));
}

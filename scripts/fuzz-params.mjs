#!/usr/bin/env node
/**
 * Parameter fuzzing of the /api/v1 handler (tests/fuzz/params.ts), in process: N seeded random form
 * submissions (random fields, values, encodings, duplicates, huge strings, bad auth, wrong methods,
 * malformed multipart) must each get 200 or a documented 4xx with a JSON error body — never a 500.
 * Prints the per status/code counts and every failing submission; exits 1 on any failure.
 *
 *   node scripts/fuzz-params.mjs                     10,000 submissions, seed 1
 *   node scripts/fuzz-params.mjs --count N --seed S --from I
 *
 * A failure line names its submission index: `--from I --count 1` with the same seed replays it.
 */

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadTs } from './ts-module.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const count = option('--count', 10_000);
const seed = option('--seed', 1);
const from = option('--from', 0);


const { runFuzz } = await loadTs(root, 'tracelab-fuzz', 'tests/fuzz/params.ts');
process.stdout.write(`param fuzz: seed ${seed}, submissions ${from}…${from + count - 1}\n`);
const summary = await runFuzz(seed, from, count, (done) => process.stderr.write(`  ${done}/${count}\r`));
process.stderr.write('\n');
const keys = Object.keys(summary.counts).sort((a, b) => summary.counts[b] - summary.counts[a]);
for (const key of keys) process.stdout.write(`  ${key.padEnd(10)} ${String(summary.counts[key]).padStart(6)}\n`);
for (const s of summary.slowest) process.stdout.write(`  slow: ${s.ms.toFixed(0)} ms ${s.key} ${s.summary.slice(0, 300)}\n`);
for (const f of summary.failures.slice(0, 50)) process.stdout.write(`FAIL ${f.summary}\n     → ${f.outcome.status}: ${f.outcome.problem}\n`);
if (summary.failures.length > 50) process.stdout.write(`… and ${summary.failures.length - 50} more failures\n`);
process.stdout.write(
  `${summary.total} submissions in ${(summary.ms / 1000).toFixed(1)} s: ${summary.counts['200'] ?? 0} × 200, ` +
    `${summary.total - (summary.counts['200'] ?? 0)} × documented 4xx or worse, ${summary.failures.length} failures\n`,
);
process.exitCode = summary.failures.length > 0 ? 1 : 0;

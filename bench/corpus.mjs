/**
 * The corpus a standalone bench script works on: TRACELAB_CORPUS (default ../shared/corpus next
 * to the repository) filtered by BENCH_ONLY (comma-separated categories, image ids, file names or
 * file-name prefixes), as run.mjs reads them. Out: { corpus: absolute folder, images: manifest
 * entries }.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The kinds of image, in the order the bench's tables list them (the corpus's six, then the validation set's gradient art, strokes, layered art and smooth photos). */
export const CATEGORIES = ['clipart', 'icon', 'lineart_bw', 'pixel', 'photo', 'jpeg', 'gradient', 'stroke', 'layered', 'smooth_photo'];

export function selectedCorpus(env = process.env) {
  const corpus = resolve(env.TRACELAB_CORPUS ?? join(ROOT, '..', 'shared', 'corpus'));
  const only = (env.BENCH_ONLY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const manifest = JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'));
  const images = manifest.images.filter((im) => only.length === 0 || only.some((o) => im.category === o || im.id === o || im.file === o || im.file.startsWith(o)));
  return { corpus, images };
}

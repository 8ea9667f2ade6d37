/**
 * The scripts' way to use the project's TypeScript modules from plain Node: bundle one entry with
 * esbuild into node_modules/.cache/<dir>-<root>/ (inside node_modules so the bundle's external
 * packages resolve), then import it. In: the repository root, a cache folder name, an entry path relative
 * to the root. Out: the bundle's path (`bundleTs`) or its module (`loadTs`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function bundleTs(root, cacheName, entry) {
  const { build } = await import('esbuild');
  // node_modules may be one folder shared by several checkouts (a worktree's symlink to the main
  // one's): the bundle's folder is named after the checkout too, so two checkouts bundling the same
  // entry at once never import each other's code.
  const folder = `${cacheName}-${root.replace(/[^A-Za-z0-9]+/g, '_')}`;
  const outfile = join(root, 'node_modules', '.cache', folder, entry.replace(/[\\/]/g, '_').replace(/\.ts$/, '.mjs'));
  await build({
    entryPoints: [join(root, entry)],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}

export async function loadTs(root, cacheName, entry) {
  const outfile = await bundleTs(root, cacheName, entry);
  // A query string defeats the module cache, so a re-bundled file is imported afresh.
  return import(`${pathToFileURL(outfile).href}?t=${Date.now()}`);
}

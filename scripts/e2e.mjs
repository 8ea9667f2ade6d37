#!/usr/bin/env node
/**
 * End-to-end test of the playground: builds the site (vite build), serves dist/ from a sub-path
 * with `vite preview` on a free localhost port, drives Debian's Chromium (/usr/bin/chromium) with
 * playwright-core and runs the checks in e2e/trace.spec.ts. Prints one line per check and a final
 * `N passed, M failed`; exits 1 on any failure. Never downloads browsers.
 *
 *   node scripts/e2e.mjs                 build, serve, check
 *   node scripts/e2e.mjs --no-build      reuse the existing dist/
 *   node scripts/e2e.mjs --dev           run the checks against the dev server (`vite`) instead
 *   node scripts/e2e.mjs --make-sample   (re)draw public/samples/shapes.png and exit
 *   --spec NAME                          run only e2e/NAME.spec.ts (default: every e2e/*.spec.ts)
 *   --dist DIR                           build into / serve from DIR instead of dist/ (parallel runs)
 *
 * Environment: CHROMIUM=/path/to/chromium overrides the browser; E2E_SCREENSHOT overrides
 * test-results/e2e/tracelab.png (one more file per spec and view next to it; gitignored).
 */

import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadTs } from './ts-module.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const argv = process.argv.slice(2);
const args = new Set(argv);
/** Value of `--name VALUE`, or undefined. */
const option = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const distDir = resolve(option('--dist') ?? join(root, 'dist'));
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';
const screenshotPath = process.env.E2E_SCREENSHOT || join(root, 'test-results', 'e2e', 'tracelab.png');
/** Served from a sub-path, as on a static host: the build uses base './'. */
const SUB_PATH = '/tracelab/demo/';
const OVERALL_TIMEOUT_MS = 5 * 60_000;


function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

function describeError(error) {
  if (error && typeof error === 'object' && 'message' in error) return String(error.message).split('\n').slice(0, 12).join('\n      ');
  return String(error);
}

async function makeSample() {
  const { scenePng, sampleScene } = await loadTs(root, 'tracelab-e2e', 'e2e/draw.ts');
  const out = join(root, 'public', 'samples', 'shapes.png');
  await mkdir(dirname(out), { recursive: true });
  const png = scenePng(sampleScene());
  await writeFile(out, png);
  console.log(`wrote ${out} (${png.length} bytes)`);
}

async function main() {
  if (args.has('--make-sample')) return makeSample();

  if (!existsSync(chromiumPath)) {
    console.error(`e2e: ${chromiumPath} is missing; install Debian's chromium package (apt-get install chromium)`);
    return 1;
  }
  const vite = await import('vite');
  const dev = args.has('--dev');
  if (dev) {
    // nothing to build
  } else if (!args.has('--no-build')) {
    console.log('e2e: vite build');
    await vite.build({ logLevel: 'warn', build: { outDir: distDir, emptyOutDir: true } });
  } else if (!existsSync(join(distDir, 'index.html'))) {
    console.error(`e2e: --no-build but ${distDir}/index.html does not exist`);
    return 1;
  }
  const only = option('--spec');
  const specFiles = (await readdir(join(root, 'e2e')))
    .filter((f) => f.endsWith('.spec.ts') && (only === undefined || f === `${only}.spec.ts`))
    .sort((a, b) => (a === 'trace.spec.ts' ? -1 : b === 'trace.spec.ts' ? 1 : a.localeCompare(b)));
  if (specFiles.length === 0) {
    console.error(`e2e: no spec matches ${only}`);
    return 1;
  }
  await mkdir(dirname(screenshotPath), { recursive: true });
  const specs = [];
  for (const f of specFiles) specs.push({ file: f, module: await loadTs(root, 'tracelab-e2e', `e2e/${f}`) });

  const port = await freePort();
  let server;
  if (dev) {
    server = await vite.createServer({
      base: SUB_PATH,
      logLevel: 'warn',
      server: { host: '127.0.0.1', port, strictPort: true, open: false, hmr: false },
    });
    await server.listen();
  } else {
    server = await vite.preview({
      base: SUB_PATH,
      build: { outDir: distDir },
      logLevel: 'warn',
      preview: { host: '127.0.0.1', port, strictPort: true, open: false },
    });
  }
  const baseUrl = `http://127.0.0.1:${port}${SUB_PATH}`;
  console.log(`e2e: serving ${dev ? 'the dev server' : 'dist/'} at ${baseUrl}`);

  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

  let results = [];
  try {
    for (const { file, module } of specs) {
      console.log(`e2e: ${file}`);
      const shot = file === 'trace.spec.ts' ? screenshotPath : screenshotPath.replace(/\.png$/, `-${file.replace(/\.spec\.ts$/, '')}.png`);
      results.push(
        ...(await module.runChecks({ browser, baseUrl, screenshotPath: shot }, (r) => {
          console.log(`${r.ok ? '  ok  ' : '  FAIL'} ${r.name} (${r.ms} ms)`);
          if (!r.ok) console.log(`      ${describeError(r.error)}`);
        })),
      );
    }
  } catch (error) {
    console.log(`  FAIL the e2e run itself: ${describeError(error)}`);
    results.push({ name: 'e2e run', ok: false });
  } finally {
    await browser.close();
    await server.close();
  }
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed;
  console.log(`screenshots: ${screenshotPath} (and one per spec next to it)`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

const guard = setTimeout(() => {
  console.error(`e2e: timed out after ${OVERALL_TIMEOUT_MS / 1000} s`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}, OVERALL_TIMEOUT_MS);
guard.unref();

main().then(
  (code) => process.exit(code ?? 0),
  (error) => {
    console.error(error);
    console.log('0 passed, 1 failed');
    process.exit(1);
  },
);

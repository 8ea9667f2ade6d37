// Byte-identity check for refactors: builds the CLI bundle of a base revision (in a temporary git
// worktree under /tmp, node_modules symlinked) and of the working tree, traces the same images with
// both in every format and a few option variants (CLI batch mode, `--out-dir`), and compares the
// output bytes. Prints "N differing" with the list; exit status 1 if any output differs (or one
// side failed where the other did not), 0 if all are byte-identical.
//
//   node scripts/samecheck.mjs [--base REV] [--corpus DIR] [--extra DIR]... [--jobs N] [--in-process] [--keep]
//
// --base    the revision to compare with (default: the merge-base of HEAD and main)
// --corpus  folder of input images (default: $TRACELAB_CORPUS, else ../shared/corpus beside the
//           repository, the bench's default corpus)
// --extra   more input folders (default: bench/validation/out when it holds PNGs, in this
//           repository or in the main checkout beside it)
// --jobs    worker threads per batch (default 2)
// --in-process  instead of the CLI: each side's pipeline (src/api/pipeline.ts planVectorize,
//           traceBytes, write-file.ts writeFile: what the CLI calls) bundled and run in one process,
//           each image traced once per distinct engine parameters (6 traces instead of 17) and
//           every format written from that trace; base and working tree run at the same time.
//           About 4× less work; the CLI's batch code and worker threads are then not exercised.
// --keep    keep the temporary folder (prints where it is)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

if (process.argv.includes('--help') || process.argv.includes('-h')) {
  // The usage is this file's header comment, printed as it is.
  const header = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n').filter((line) => line.startsWith('//'));
  console.log(header.map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}

/** The option variants each traced in the listed formats; the default variant in every format. */
const VARIANTS = [
  { name: 'default', params: [], formats: ['svg', 'pdf', 'eps', 'dxf', 'png'] },
  { name: 'gradients', params: ['tracelab.gradients=true'], formats: ['svg', 'pdf', 'eps', 'png'] },
  { name: 'stacked', params: ['output.shape_stacking=stacked'], formats: ['svg', 'pdf', 'dxf'] },
  { name: 'dxf-lines', params: ['output.dxf.compatibility_level=lines_only'], formats: ['dxf'] },
  { name: 'centerline', params: ['tracelab.strokes=centerline'], formats: ['svg', 'dxf'] },
  { name: 'strokes-auto', params: ['tracelab.strokes=auto'], formats: ['svg'] },
  { name: 'layers', params: ['tracelab.gradients=true', 'tracelab.layers=true', 'output.shape_stacking=stacked'], formats: ['svg'] },
];

function argValues(name) {
  const values = [];
  for (let i = 2; i < process.argv.length; i++) if (process.argv[i] === name && i + 1 < process.argv.length) values.push(process.argv[++i]);
  return values;
}
const argValue = (name) => argValues(name).at(-1);
const hasFlag = (name) => process.argv.includes(name);

function git(...args) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
}

function pngsIn(dir) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  return readdirSync(dir).filter((name) => name.toLowerCase().endsWith('.png')).sort().map((name) => join(dir, name));
}

function defaultCorpus() {
  if (process.env.TRACELAB_CORPUS) return process.env.TRACELAB_CORPUS;
  return resolve(root, '../shared/corpus');
}

function defaultExtras() {
  const candidates = [join(root, 'bench/validation/out'), resolve(root, '../../main/bench/validation/out')];
  const found = candidates.find((dir) => pngsIn(dir).length > 0);
  return found ? [found] : [];
}

function buildCli(repoDir, outdir) {
  const run = spawnSync('nice', ['-n', '10', process.execPath, join(repoDir, 'scripts/build-cli.mjs'), '--outdir', outdir], { cwd: repoDir, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`CLI build failed in ${repoDir}`);
}

/** Traces every input with one CLI bundle into out/<variant>/<format>/. */
function traceAll(bundleDir, inputs, outRoot, jobs) {
  const runner = `const { main } = await import(${JSON.stringify(join(bundleDir, 'tracelab.mjs'))}); process.exitCode = await main(process.argv.slice(1));`;
  for (const variant of VARIANTS) {
    for (const format of variant.formats) {
      const outDir = join(outRoot, variant.name, format);
      const args = ['vectorize', ...inputs, '--out-dir', outDir, '--format', format, '--jobs', String(jobs), '--quiet'];
      for (const param of variant.params) args.push('--param', param);
      // Exit status 2 means some inputs failed; the comparison sees the missing files.
      spawnSync('nice', ['-n', '10', process.execPath, '--input-type=module', '-e', runner, ...args], { stdio: ['ignore', 'ignore', 'inherit'] });
    }
  }
}

/** The in-process runner: loads one side's pipeline bundle and writes every variant's outputs. */
const RUNNER = `
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
const [bundle, outRoot, variantsJson, ...inputs] = process.argv.slice(2);
const m = await import(bundle);
const EXT = { svg: '.svg', pdf: '.pdf', eps: '.eps', dxf: '.dxf', png: '.png' };
for (const variant of JSON.parse(variantsJson)) for (const format of variant.formats) mkdirSync(join(outRoot, variant.name, format), { recursive: true });
for (const file of inputs) {
  const bytes = new Uint8Array(readFileSync(file));
  const traces = new Map();
  for (const variant of JSON.parse(variantsJson)) {
    for (const format of variant.formats) {
      const name = basename(file).replace(/\\.[^.]+$/, '') + EXT[format];
      const out = join(outRoot, variant.name, format, name);
      try {
        const plan = m.planVectorize([...variant.params.map((p) => p.split('=')), ['output.file_format', format]]);
        const key = JSON.stringify(plan.engineParams);
        let result = traces.get(key);
        if (!result) {
          m.prepareNodeDecoders(bytes);
          result = (await m.traceBytes(plan, bytes)).result;
          traces.set(key, result);
        }
        writeFileSync(out, await m.writeFile(result, plan.outputOptions));
      } catch (err) {
        writeFileSync(out + '.error', String(err && err.message));
      }
    }
  }
}
`;

/** Bundles one tree's pipeline into tmp/<name>.mjs (tmp has node_modules linked, so packages resolve). */
async function bundlePipeline(tree, tmp, name) {
  const entry = join(tmp, `${name}-entry.ts`);
  writeFileSync(
    entry,
    [
      `export { planVectorize, traceBytes } from ${JSON.stringify(join(tree, 'src/api/pipeline.ts'))};`,
      `export { writeFile } from ${JSON.stringify(join(tree, 'src/api/write-file.ts'))};`,
      `export { prepareNodeDecoders } from ${JSON.stringify(join(tree, 'src/cli/node-codecs.ts'))};`,
    ].join('\n'),
  );
  const { build } = await import('esbuild');
  const outfile = join(tmp, `${name}.mjs`);
  await build({ entryPoints: [entry], outfile, bundle: true, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' });
  return outfile;
}

/** Runs the in-process runner for one side; resolves when it exits. */
function runInProcess(tmp, bundle, outRoot, inputs) {
  const runner = join(tmp, 'runner.mjs');
  writeFileSync(runner, RUNNER);
  return new Promise((done, fail) => {
    const child = spawn('nice', ['-n', '10', process.execPath, runner, bundle, outRoot, JSON.stringify(VARIANTS), ...inputs], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('exit', (code) => (code === 0 ? done() : fail(new Error(`in-process runner exited with ${code}`))));
  });
}

function filesUnder(dir, prefix = '') {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name), `${prefix}${entry.name}/`) : [`${prefix}${entry.name}`],
  );
}

const base = argValue('--base') ?? git('merge-base', 'HEAD', 'main');
const corpus = argValue('--corpus') ?? defaultCorpus();
const extras = argValues('--extra').length > 0 ? argValues('--extra') : defaultExtras();
const jobs = Number(argValue('--jobs') ?? 2);
const inputs = [corpus, ...extras].flatMap(pngsIn);
if (inputs.length === 0) {
  console.error(`samecheck: no PNG inputs in ${[corpus, ...extras].join(', ')}`);
  process.exit(1);
}

const tmp = mkdtempSync(join(tmpdir(), 'samecheck-'));
const baseTree = join(tmp, 'base-tree');
try {
  const started = Date.now();
  git('worktree', 'add', '--detach', baseTree, base);
  symlinkSync(join(root, 'node_modules'), join(baseTree, 'node_modules'));
  console.log(`samecheck: base ${git('rev-parse', '--short', base)} vs working tree; ${inputs.length} images from ${[corpus, ...extras].join(', ')}`);
  if (hasFlag('--in-process')) {
    symlinkSync(join(root, 'node_modules'), join(tmp, 'node_modules'));
    const baseBundle = await bundlePipeline(baseTree, tmp, 'base');
    const headBundle = await bundlePipeline(root, tmp, 'head');
    await Promise.all([runInProcess(tmp, baseBundle, join(tmp, 'base-out'), inputs), runInProcess(tmp, headBundle, join(tmp, 'head-out'), inputs)]);
  } else {
    buildCli(baseTree, join(tmp, 'base-cli'));
    buildCli(root, join(tmp, 'head-cli'));
    traceAll(join(tmp, 'base-cli'), inputs, join(tmp, 'base-out'), jobs);
    traceAll(join(tmp, 'head-cli'), inputs, join(tmp, 'head-out'), jobs);
  }

  const baseFiles = filesUnder(join(tmp, 'base-out'));
  const headFiles = new Set(filesUnder(join(tmp, 'head-out')));
  const differing = [];
  for (const file of baseFiles) {
    if (!headFiles.has(file)) differing.push(`${file} (missing in the working tree's output)`);
    else if (!readFileSync(join(tmp, 'base-out', file)).equals(readFileSync(join(tmp, 'head-out', file)))) differing.push(file);
    headFiles.delete(file);
  }
  for (const file of headFiles) differing.push(`${file} (missing in the base's output)`);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`samecheck: ${baseFiles.length} outputs compared, ${differing.length} differing (${seconds} s)`);
  for (const file of differing) console.log(`  ${file}`);
  process.exitCode = differing.length > 0 || baseFiles.length === 0 ? 1 : 0;
} finally {
  spawnSync('git', ['worktree', 'remove', '--force', baseTree], { cwd: root });
  if (hasFlag('--keep')) console.log(`samecheck: outputs kept in ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}

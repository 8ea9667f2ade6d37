// Measurement for tracelab.layers (issue 39 item 4; not part of the test suite: bench/ is outside
// vitest's include). The validation set's icon, clipart and gradient images with the artist's SVG,
// traced (1) by default, (2) gradients + stacked, (3) gradients + stacked + layers; per image: gzip
// of each and of the artist's SVG, SSIM (bench/metrics.mjs, resvg render over white) of each, shapes drawn, the engine's ms (stacked) and the layers stage's time over the rest of
// the engine (layers). Writes /tmp/layers-measure.tsv. Run from the repository root:
//   cp bench/layers/measure-layers.test.ts tests/engine/zz-measure.test.ts && \
//     npx vitest run tests/engine/zz-measure.test.ts; rm tests/engine/zz-measure.test.ts
import { it } from 'vitest';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { planVectorize, runVectorize, decodeBytes } from '../../src/api/pipeline.js';
import { ssim, flattenOver } from '../../bench/metrics.mjs';

const DIR = '/work/main/bench/validation/out';
const VARIANTS: Record<string, [string, string][]> = {
  default: [],
  stacked: [['tracelab.gradients', 'true'], ['output.shape_stacking', 'stacked']],
  layers: [['tracelab.gradients', 'true'], ['output.shape_stacking', 'stacked'], ['tracelab.layers', 'true']],
};
function render(svg: string, w: number, h: number) {
  const r = new Resvg(svg, { fitTo: { mode: 'width', value: w }, background: 'white' }).render();
  if (r.height !== h) throw new Error('size');
  return { width: r.width, height: r.height, data: new Uint8Array(r.pixels) };
}
it('measure', async () => {
  const skip = new Set((process.env.SKIP ?? '').split(','));
  const names = readdirSync(DIR).filter((f) => /^(icon|clipart|gradient)-.*\.ref\.svg$/.test(f)).map((f) => f.replace('.ref.svg', '')).sort().filter((n) => !skip.has(n));
  const rows: string[] = ['image\tartist_gz\tdefault_gz\tstacked_gz\tlayers_gz\tlayers/artist\tssim_default\tssim_stacked\tssim_layers\tpaths_stacked\tpaths_layers\tengine_ms_stacked\tlayers_share'];
  for (const name of names) {
    const png = new Uint8Array(readFileSync(`${DIR}/${name}.png`));
    const input = flattenOver(await decodeBytes(png) as any);
    const artist = gzipSync(readFileSync(`${DIR}/${name}.ref.svg`), { level: 9 }).length;
    const out: Record<string, { gz: number; ssim: number; paths: number; ms: number }> = {};
    for (const [v, fields] of Object.entries(VARIANTS)) {
      const plan = planVectorize([['output.file_format', 'svg'], ...fields]);
      const times: number[] = [];
      let body: Uint8Array = new Uint8Array();
      for (let k = 0; k < 1; k++) {
        const t0 = performance.now();
        const run = await runVectorize(plan, png);
        body = run.body;
        const ms = run.result.stats.stageMs;
        const engine = Object.values(ms).reduce((a, b) => a + b, 0);
        times.push(v === 'layers' ? (ms.layers ?? 0) / (engine - (ms.layers ?? 0)) : engine);
      }
      const svg = new TextDecoder().decode(body);
      const rendered = flattenOver(render(svg, input.width, input.height));
      out[v] = { gz: gzipSync(body, { level: 9 }).length, ssim: ssim(input, rendered), paths: (svg.match(/<(path|circle|ellipse|rect|polygon)\b/g) ?? []).length, ms: Math.min(...times) };
      if (v === 'layers') writeFileSync(`/tmp/${name}.layers.svg`, svg);
    }
    rows.push([name, artist, out.default!.gz, out.stacked!.gz, out.layers!.gz, (out.layers!.gz / artist).toFixed(2), out.default!.ssim.toFixed(4), out.stacked!.ssim.toFixed(4), out.layers!.ssim.toFixed(4), out.stacked!.paths, out.layers!.paths, out.stacked!.ms.toFixed(0), out.layers!.ms.toFixed(3)].join('\t'));
    writeFileSync('/tmp/layers-measure.tsv', rows.join('\n') + '\n');
  }
}, 3_600_000);

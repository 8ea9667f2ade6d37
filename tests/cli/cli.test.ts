/** Spawns the real `bin/tracelab.js` against a freshly built bundle. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redSquarePng } from './png.js';
import { buildPng } from '../decode/build.js';
import { displayP3Profile } from '../helpers/icc.js';
import { encodePng } from '../helpers/encode.js';
import { disc, drawShape } from '../helpers/raster.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'tracelab.js');
let dir: string;

function tracelab(args: string[], input?: Uint8Array) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, input, encoding: 'buffer', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.toString('utf8') };
}

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { cwd: root, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'tracelab-cli-'));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tracelab CLI: usage', () => {
  it('--help lists the parameters from the schema', () => {
    const r = tracelab(['--help']);
    expect(r.status).toBe(0);
    const out = r.stdout.toString('utf8');
    expect(out).toContain('tracelab vectorize INPUT -o OUTPUT');
    expect(out).toContain('processing.max_colors');
    expect(out).toContain('processing.parameterizedShapes.star.N6.enabled');
    expect(r.stderr).toBe('');
  });

  it('--help lists the Tracelab extensions in their own group, saying the real service does not get them', () => {
    const out = tracelab(['--help']).stdout.toString('utf8');
    const group = out.slice(out.indexOf('  Tracelab extensions (not part of the Vectorizer.AI API)\n'));
    expect(group).not.toBe(out);
    expect(group).toMatch(/^ {2}Tracelab extensions \(not part of the Vectorizer\.AI API\)\n {4}Tracelab only: [^\n]*\n[^\n]*leaves them out[^\n]*\n {4}tracelab\.gradients {2}true \| false; default false\n/);
  });

  it('--version prints the package version', () => {
    const r = tracelab(['--version']);
    expect(r.status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(r.stdout.toString('utf8').trim()).toBe(pkg.version);
  });

  it('missing arguments → exit 1 with a one-line usage message', () => {
    for (const args of [[], ['vectorize'], ['vectorize', 'in.png']]) {
      const r = tracelab(args);
      expect(r.status, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/^tracelab: usage: [^\n]+\n$/);
    }
  });

  it('unknown verb → exit 1, listing the available verbs', () => {
    const r = tracelab(['frobnicate']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("unknown verb 'frobnicate'");
    expect(r.stderr).toContain('available verbs: vectorize, download, delete, account, serve');
  });

  it('unknown flag → exit 1', () => {
    const r = tracelab(['vectorize', 'in.png', '-o', 'out.svg', '--colours', '8']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('unknown option --colours');
  });

  it('bad parameter → exit 2, error 1019 naming the range', () => {
    writeFileSync(join(dir, 'in.png'), redSquarePng());
    const r = tracelab(['vectorize', 'in.png', '-o', 'bad.svg', '--param', 'processing.max_colors=999']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^tracelab: error 1019: [^\n]+\n$/);
    expect(r.stderr).toContain('processing.max_colors');
    expect(r.stderr).toContain('0…256');
    expect(existsSync(join(dir, 'bad.svg'))).toBe(false);
  });

  it('parameters are checked before the input is read', () => {
    const r = tracelab(['vectorize', 'missing.png', '-o', 'x.svg', '--param', 'output.curves.allowed_elliptical_arc=true']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('error 1019');
    expect(r.stderr).toContain('did you mean output.curves.allowed.elliptical_arc?');
  });

  it('missing input file → exit 2, one line', () => {
    const r = tracelab(['vectorize', 'nope.png', '-o', 'x.svg']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^tracelab: error: cannot read INPUT 'nope.png': no such file\n$/);
  });
});

describe('tracelab CLI: end to end (needs src/decode, src/engine, src/formats/svg)', () => {
  it('vectorizes a PNG file to an SVG file', () => {
    writeFileSync(join(dir, 'square.png'), redSquarePng());
    const r = tracelab(['vectorize', 'square.png', '-o', 'square.svg']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const svg = readFileSync(join(dir, 'square.svg'), 'utf8');
    expect(svg).toMatch(/^(<\?xml|<svg)/);
    expect(svg).toContain('<path');
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('colour profiles (issue 41): input=preserve converts a Display P3 picture, output=preserve embeds its profile in the PNG', () => {
    const samples: number[] = [];
    for (let i = 0; i < 16 * 16; i++) samples.push(200, 100, 50);
    const profile = displayP3Profile();
    writeFileSync(join(dir, 'p3.png'), buildPng({ width: 16, height: 16, colorType: 2, depth: 8, samples, icc: profile }));
    const converted = tracelab(['vectorize', 'p3.png', '-o', 'p3.svg', '--param', 'processing.color_profile.input=preserve']);
    expect(converted.stderr).toBe('');
    expect(converted.status).toBe(0);
    expect(readFileSync(join(dir, 'p3.svg'), 'utf8')).toContain('fill="#d75d1f"'); // lcms2's sRGB for P3 (200, 100, 50)
    const kept = tracelab(['vectorize', 'p3.png', '-o', 'p3-out.png', '--param', 'processing.color_profile.output=preserve']);
    expect(kept.status, kept.stderr).toBe(0);
    expect(readFileSync(join(dir, 'p3-out.png')).includes(Buffer.from('iCCP'))).toBe(true);
  });

  it('--param tracelab.gradients=true traces with the embedded engine; a bad value is error 1019', () => {
    writeFileSync(join(dir, 'in.png'), redSquarePng());
    const r = tracelab(['vectorize', 'in.png', '-o', 'gradients.svg', '--param', 'tracelab.gradients=true']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, 'gradients.svg'), 'utf8')).toMatch(/^<\?xml[\s\S]*<\/svg>\s*$/);
    const bad = tracelab(['vectorize', 'in.png', '-o', 'bad-gradients.svg', '--param', 'tracelab.gradients=yes']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe("tracelab: error 1019: tracelab.gradients must be true or false; received 'yes'\n");
  });

  it("docs/lineart.md's example runs as written: tracelab.profile overrides the engine's decision and the stats say so", () => {
    const doc = readFileSync(join(root, 'docs', 'lineart.md'), 'utf8');
    const command = /```sh\n(tracelab vectorize [^\n]+)\n```/.exec(doc)![1]!;
    expect(command).toBe('tracelab vectorize scan.png -o scan.svg --param tracelab.profile=lineart');
    // The playground's Line art sample as the scan; and the same picture forced to be a photo.
    writeFileSync(join(dir, 'scan.png'), readFileSync(join(root, 'public', 'samples', 'lineart.png')));
    const args = command.split(' ').slice(1);
    const run = (extra: string[]) => spawnSync(process.execPath, [bin, ...extra], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, TRACELAB_STATS: '1' } });
    const stats = (stderr: string) => JSON.parse(/tracelab-stats (\{.*\})/.exec(stderr)![1]!) as { profile: string; profileReason: string };
    const forced = run(args);
    expect(forced.status).toBe(0);
    expect(stats(forced.stderr)).toMatchObject({ profile: 'lineart', profileReason: 'chosen by tracelab.profile' });
    expect(readFileSync(join(dir, 'scan.svg'), 'utf8')).toContain('<path');
    const auto = run(['vectorize', 'scan.png', '-o', 'auto.svg']);
    expect(stats(auto.stderr).profile).toBe('lineart');
    expect(stats(auto.stderr).profileReason).toMatch(/line art$/);
    const photo = run(['vectorize', 'scan.png', '-o', 'photo.svg', '--param', 'tracelab.profile=photo']);
    expect(stats(photo.stderr)).toMatchObject({ profile: 'photo', profileReason: 'chosen by tracelab.profile' });
    const bad = run(['vectorize', 'scan.png', '-o', 'bad.svg', '--param', 'tracelab.profile=sketch']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^tracelab: error 1019: tracelab\.profile /);
  });

  it('TRACELAB_STATS=1 counts the shapes written under 1 px² and under 4 px², and says why the small ones are left (issue 39)', () => {
    // Flat art with a 1-px dot and a 3-px dot of the disc's red in the white: written as their pixels.
    const image = drawShape(120, 80, [255, 255, 255], [{ color: [220, 60, 40], inside: disc(40, 40, 24) }, { color: [29, 147, 216], inside: disc(90, 40, 18) }]);
    for (const [x, y] of [[100, 70], [10, 70], [11, 70], [12, 70]]) image.data.set([220, 60, 40, 255], (y! * image.width + x!) * 4);
    writeFileSync(join(dir, 'dots.png'), encodePng(image));
    const r = spawnSync(process.execPath, [bin, 'vectorize', 'dots.png', '-o', 'dots.svg'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, TRACELAB_STATS: '1' } });
    expect(r.status, r.stderr).toBe(0);
    const stats = JSON.parse(/tracelab-stats (\{.*\})/.exec(r.stderr)![1]!) as Record<string, unknown>;
    expect(stats).toMatchObject({ profile: 'flat', shapes: 5, shapesUnder1px2: 0, shapesUnder4px2: 2, smallShapeKinds: { dots: 2 } });
  });

  it('TRACELAB_TIMINGS=1 prints the process phases (start-up, loading, read, trace call, output file) before the stages (issue 42 item 2)', () => {
    writeFileSync(join(dir, 'phases.png'), readFileSync(join(root, 'public', 'samples', 'lineart.png')));
    const r = spawnSync(process.execPath, [bin, 'vectorize', 'phases.png', '-o', 'phases.svg'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, TRACELAB_TIMINGS: '1' } });
    expect(r.status, r.stderr).toBe(0);
    const timings = JSON.parse(/tracelab-timings (\{.*\})/.exec(r.stderr)![1]!) as Record<string, number>;
    expect(Object.keys(timings).slice(0, 5)).toEqual(['startup', 'load', 'read', 'run', 'output']);
    for (const stage of ['decode', 'trace', 'write']) expect(timings[stage]).toBeGreaterThan(0);
    // The trace call holds decode, the engine and the writer.
    expect(timings.run!).toBeGreaterThanOrEqual(timings.trace!);
  });

  it("README's quick-start command runs as written, on a file that ships with the project", () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    const [, input, output] = /`npx tracelab vectorize (\S+) -o (\S+)`/.exec(quickStart)!;
    expect(input!.startsWith('..')).toBe(false);
    expect(existsSync(join(root, input!))).toBe(true);
    const r = spawnSync(process.execPath, [bin, 'vectorize', input!, '-o', join(dir, output!)], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, output!), 'utf8')).toContain('<path');
  });

  it('reads stdin and writes stdout with -', () => {
    const r = tracelab(['vectorize', '-', '-o', '-', '--format', 'svg', '--param', 'processing.max_colors=2'], redSquarePng());
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const svg = r.stdout.toString('utf8');
    expect(svg).toMatch(/^(<\?xml|<svg)/);
    expect(svg).toContain('<path');
  });

  it('corrupt input → exit 2 with 1006 and no output file left behind', () => {
    const png = redSquarePng();
    writeFileSync(join(dir, 'corrupt.png'), png.subarray(0, 40)); // signature + IHDR, data cut off
    const r = tracelab(['vectorize', 'corrupt.png', '-o', 'corrupt.svg']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^tracelab: error 1006: [^\n]+\n$/);
    expect(existsSync(join(dir, 'corrupt.svg'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('corrupt.svg'))).toEqual([]);
  });

  it('an unwritable OUTPUT → exit 2, temp file removed', () => {
    writeFileSync(join(dir, 'square.png'), redSquarePng());
    const r = tracelab(['vectorize', 'square.png', '-o', '.']); // renaming a file over a directory fails
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^tracelab: error: cannot write OUTPUT '\.': [^\n]+\n$/);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('-o with a .pdf name writes a PDF; --format wins over the name; a PNG too large → 1023, no file', () => {
    writeFileSync(join(dir, 'square.png'), redSquarePng());
    expect(tracelab(['vectorize', 'square.png', '-o', 'square.pdf']).status).toBe(0);
    expect(readFileSync(join(dir, 'square.pdf')).subarray(0, 8).toString('latin1')).toBe('%PDF-1.4');
    expect(tracelab(['vectorize', 'square.png', '-o', 'named.pdf', '--format', 'svg']).status).toBe(0);
    expect(readFileSync(join(dir, 'named.pdf'), 'utf8')).toContain('<svg');
    const r = tracelab(['vectorize', 'square.png', '-o', 'huge.png', '--param', 'output.size.scale=1000']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('error 1023');
    expect(existsSync(join(dir, 'huge.png'))).toBe(false);
  });
});

/**
 * `tracelab vectorize FILE... | DIR --out-dir OUT` through the real CLI bundle: many inputs in one
 * process on worker threads, names kept, a bad file among good ones, colliding names, an existing
 * output folder, the same bytes with 1 or 4 jobs, progress lines off a terminal, a progress bar on
 * one, and the exit status.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largestFirst } from '../../src/cli/batch.js';
import { encodePng, encodeJpeg, encodeWebp } from '../helpers/encode.js';
import { disc, drawShape, rect } from '../helpers/raster.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'tracelab.js');
let dir: string;

function tracelab(args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Five small pictures drawn here, one of them also as JPEG under the same name, and a bad file. */
function makeInputs(folder: string): void {
  mkdirSync(folder, { recursive: true });
  const colors = [
    [200, 30, 40],
    [30, 80, 200],
    [20, 150, 60],
    [240, 180, 20],
    [90, 40, 150],
  ] as const;
  colors.forEach((c, i) => {
    const image = drawShape(96, 72, [255, 255, 255], [
      { color: c, inside: disc(30 + i * 5, 36, 20) },
      { color: [20, 20, 20], inside: rect(60, 10 + i * 4, 85, 40) },
    ]);
    writeFileSync(join(folder, `pic${i}.png`), encodePng(image));
    if (i === 0) writeFileSync(join(folder, 'pic0.jpg'), encodeJpeg(image, 90));
  });
  writeFileSync(join(folder, 'broken.png'), 'this is not an image');
  writeFileSync(join(folder, 'notes.txt'), 'ignored: not an image extension');
}

beforeAll(() => {
  execFileSync(process.execPath, [join(root, 'scripts', 'build-cli.mjs')], { cwd: root, stdio: 'pipe' });
  dir = mkdtempSync(join(tmpdir(), 'tracelab-batch-'));
  makeInputs(join(dir, 'in'));
}, 120_000);

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('tracelab vectorize --out-dir (batch)', () => {
  it('traces a folder: every good image, goes on past a bad one, names kept, exit 2 with a summary', () => {
    const r = tracelab(['vectorize', 'in', '--out-dir', 'out', '--jobs', '2']);
    expect(r.status).toBe(2);
    const written = readdirSync(join(dir, 'out')).sort();
    // pic0.png and pic0.jpg would both be pic0.svg: both keep their whole name instead.
    expect(written).toEqual(['pic0.jpg.svg', 'pic0.png.svg', 'pic1.svg', 'pic2.svg', 'pic3.svg', 'pic4.svg']);
    for (const name of written) expect(readFileSync(join(dir, 'out', name), 'utf8')).toMatch(/^<\?xml[\s\S]*<\/svg>\s*$/);
    expect(r.stderr).toContain('tracelab: 6 of 7 traced, 1 failed');
    expect(r.stderr).toMatch(/failed: in\/broken\.png: error 1006: .*unknown format/);
    expect(r.stderr).toContain('note: in/pic0.jpg -> out/pic0.jpg.svg (another input has the same name)');
    // No temp files left behind.
    expect(written.some((n) => n.includes('.tmp'))).toBe(false);
  });

  it('exits 0 when every input traced, into an existing folder, and writes PDF with --format', () => {
    mkdirSync(join(dir, 'existing'), { recursive: true });
    writeFileSync(join(dir, 'existing', 'keep.txt'), 'untouched');
    const r = tracelab(['vectorize', 'in/pic1.png', 'in/pic2.png', '--out-dir', 'existing', '--format', 'pdf', '--quiet']);
    expect(r.status).toBe(0);
    expect(readdirSync(join(dir, 'existing')).sort()).toEqual(['keep.txt', 'pic1.pdf', 'pic2.pdf']);
    expect(readFileSync(join(dir, 'existing', 'pic1.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readFileSync(join(dir, 'existing', 'keep.txt'), 'utf8')).toBe('untouched');
    // --quiet: no progress lines, only the summary.
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^tracelab: 2 of 2 traced, 0 failed in [\d.]+ s/)]);
  });

  it('gives the same bytes with --jobs 1 and --jobs 4, and the same bytes as a single trace', () => {
    expect(tracelab(['vectorize', 'in', '--out-dir', 'one', '--jobs', '1', '--quiet']).status).toBe(2);
    expect(tracelab(['vectorize', 'in', '--out-dir', 'four', '--jobs', '4', '--quiet']).status).toBe(2);
    const names = readdirSync(join(dir, 'one')).sort();
    expect(readdirSync(join(dir, 'four')).sort()).toEqual(names);
    for (const name of names) expect(readFileSync(join(dir, 'four', name)).equals(readFileSync(join(dir, 'one', name)))).toBe(true);
    expect(tracelab(['vectorize', 'in/pic3.png', '-o', 'single.svg']).status).toBe(0);
    expect(readFileSync(join(dir, 'single.svg')).equals(readFileSync(join(dir, 'one', 'pic3.svg')))).toBe(true);
  });

  it('gives every file the same bytes whatever the order of the inputs, with 1 or 2 jobs (issue 42 item 1)', () => {
    const inputs = ['in/pic0.png', 'in/pic1.png', 'in/pic2.png', 'in/pic3.png', 'in/pic4.png', 'in/pic0.jpg'];
    expect(tracelab(['vectorize', ...inputs, '--out-dir', 'forward-1', '--jobs', '1', '--quiet']).status).toBe(0);
    expect(tracelab(['vectorize', ...[...inputs].reverse(), '--out-dir', 'reversed-2', '--jobs', '2', '--quiet']).status).toBe(0);
    const names = readdirSync(join(dir, 'forward-1')).sort();
    expect(names).toHaveLength(6);
    expect(readdirSync(join(dir, 'reversed-2')).sort()).toEqual(names);
    for (const name of names) expect(readFileSync(join(dir, 'reversed-2', name)).equals(readFileSync(join(dir, 'forward-1', name))), name).toBe(true);
  });

  it('TRACELAB_TIMINGS=1 prints where the batch time went: threads loaded, wall, reads, thread jobs, writes (issue 42 item 1)', () => {
    const r = spawnSync(process.execPath, [bin, 'vectorize', 'in/pic1.png', 'in/pic2.png', '--out-dir', 'timed', '--jobs', '2', '--quiet'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, TRACELAB_TIMINGS: '1' },
    });
    expect(r.status, r.stderr).toBe(0);
    const line = r.stderr.split('\n').find((l) => l.startsWith('tracelab-batch-timings '));
    const timings = JSON.parse(line!.slice('tracelab-batch-timings '.length)) as Record<string, number>;
    expect(Object.keys(timings).sort()).toEqual(['readMs', 'threadsReadyMs', 'traceMs', 'wallMs', 'writeMs']);
    for (const ms of Object.values(timings)) expect(Number.isInteger(ms) && ms >= 0).toBe(true);
  });

  it('off a terminal prints one plain progress line per image, in done/total order', () => {
    const r = tracelab(['vectorize', 'in/pic1.png', 'in/pic2.png', 'in/broken.png', '--out-dir', 'lines', '--jobs', '1']);
    const progress = r.stderr.split('\n').filter((l) => /^tracelab: \[\d+\/3\]/.test(l));
    expect(progress).toHaveLength(3);
    expect(progress[0]).toMatch(/^tracelab: \[1\/3\] in\/pic1\.png -> lines\/pic1\.svg \(\d+ ms\)$/);
    expect(progress[2]).toMatch(/^tracelab: \[3\/3\] in\/broken\.png: error 1006: /);
    expect(r.stderr).not.toContain('\r');
  });

  it.skipIf(!existsSync('/usr/bin/script'))('on a terminal draws one progress bar rewritten in place, with images/s and ETA', () => {
    // util-linux `script` runs the CLI on a pseudo-terminal.
    const command = `${process.execPath} ${bin} vectorize in/pic1.png in/pic2.png --out-dir tty --jobs 1`;
    const r = spawnSync('/usr/bin/script', ['-qec', command, '/dev/null'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\r\[#+\.*\] 2\/2 +[\d.]+ img\/s +ETA \d+ s/);
    expect(r.stdout).not.toMatch(/tracelab: \[1\/2\]/);
  });

  it('never writes through a symbolic link left in the output folder: the link is replaced, its target untouched (issue 37 item 5)', () => {
    mkdirSync(join(dir, 'linked'), { recursive: true });
    writeFileSync(join(dir, 'victim.txt'), 'precious');
    symlinkSync('../victim.txt', join(dir, 'linked', 'pic1.svg'));
    const r = tracelab(['vectorize', 'in/pic1.png', '--out-dir', 'linked', '--quiet']);
    expect(r.status).toBe(0);
    expect(readFileSync(join(dir, 'victim.txt'), 'utf8')).toBe('precious');
    expect(lstatSync(join(dir, 'linked', 'pic1.svg')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'linked', 'pic1.svg'), 'utf8')).toMatch(/^<\?xml[\s\S]*<\/svg>\s*$/);
  });

  it('prints file names with terminal escape codes escaped (issue 37 item 5)', () => {
    mkdirSync(join(dir, 'esc'), { recursive: true });
    const name = 'x\u001b]0;owned\u0007\u001b[2J\u009b.png';
    writeFileSync(join(dir, 'esc', name), 'not an image');
    copyFileSync(join(dir, 'in', 'pic1.png'), join(dir, 'esc', 'ok\u001b[31m.png'));
    const r = tracelab(['vectorize', 'esc', '--out-dir', 'esc-out', '--jobs', '1']);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(r.stderr).toContain('esc/x\\x1b]0;owned\\x07\\x1b[2J\\x9b.png: error 1006');
    expect(r.stderr).toMatch(/esc\/ok\\x1b\[31m\.png -> esc-out\/ok\\x1b\[31m\.svg \(\d+ ms\)/);
    // The file itself keeps its real name.
    expect(readdirSync(join(dir, 'esc-out'))).toEqual(['ok\u001b[31m.svg']);
  });

  it('refuses what a batch cannot do, as usage errors (exit 1)', () => {
    expect(tracelab(['vectorize', 'in', '--out-dir', 'x', '-o', 'y.svg']).stderr).toContain('not both');
    expect(tracelab(['vectorize', 'in', '--out-dir', 'x', '--mode', 'test']).status).toBe(1);
    expect(tracelab(['vectorize', 'in', '--out-dir', 'x', '--jobs', '0']).stderr).toContain('--jobs expects');
    expect(tracelab(['vectorize', 'in/pic1.png', '-o', 'a.svg', '--jobs', '2']).stderr).toContain('--jobs goes with --out-dir');
    expect(tracelab(['vectorize', '--out-dir', 'x']).status).toBe(1);
    // A bad parameter fails before any file is read or written.
    const r = tracelab(['vectorize', 'in', '--out-dir', 'never', '--param', 'processing.max_colors=999']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('error 1019');
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });
});

describe('issue 42: the order a batch hands its inputs out', () => {
  it('largest file first, equal sizes in input order, a path that cannot be read counted as empty', async () => {
    const folder = join(dir, 'sizes');
    mkdirSync(folder, { recursive: true });
    const sized = (name: string, bytes: number) => {
      writeFileSync(join(folder, name), Buffer.alloc(bytes, 1));
      return { input: join(folder, name), output: join(folder, `${name}.svg`) };
    };
    const small = sized('small.png', 10);
    const big = sized('big.png', 300);
    const missing = { input: join(folder, 'missing.png'), output: join(folder, 'missing.svg') };
    const mediumA = sized('medium-a.png', 100);
    const mediumB = sized('medium-b.png', 100);
    const order = await largestFirst([small, missing, mediumA, big, mediumB]);
    expect(order.map((item) => item.input)).toEqual([big, mediumA, mediumB, small, missing].map((item) => item.input));
  });
});

describe('issue 41: batch names on case-insensitive disks, empty folders, missing paths', () => {
  const picture = drawShape(64, 48, [255, 255, 255], [{ color: [200, 30, 40], inside: disc(30, 24, 16) }]);

  it('Logo.PNG and logo.webp get distinct output names that also differ without case', async () => {
    const folder = join(dir, 'cased');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'Logo.PNG'), encodePng(picture));
    writeFileSync(join(folder, 'logo.webp'), await encodeWebp(picture));
    const r = tracelab(['vectorize', 'cased', '--out-dir', 'cased-out', '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    const written = readdirSync(join(dir, 'cased-out')).sort();
    expect(written).toEqual(['Logo.PNG.svg', 'logo.webp.svg']);
    expect(new Set(written.map((n) => n.toLowerCase())).size).toBe(2);
    expect(r.stderr).toContain('tracelab: 2 of 2 traced, 0 failed');
  });

  it('an empty folder is a one-line error naming it, exit 2, and nothing is created', () => {
    mkdirSync(join(dir, 'empty'), { recursive: true });
    writeFileSync(join(dir, 'empty', 'readme.txt'), 'not an image');
    const r = tracelab(['vectorize', 'empty', '--out-dir', 'empty-out']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("tracelab: error: nothing to trace: folder 'empty' has no image files (.png, .jpg, .jpeg, .webp, .gif, .bmp, .tif, .tiff)\n");
    expect(existsSync(join(dir, 'empty-out'))).toBe(false);
  });

  it('a missing path fails as that input with a message naming it (no "error -1"); the others are traced', () => {
    const r = tracelab(['vectorize', 'in/pic1.png', 'nope.png', '--out-dir', 'missing-out', '--quiet']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('tracelab: 1 of 2 traced, 1 failed');
    expect(r.stderr).toContain('tracelab: failed: nope.png: no such file or folder\n');
    expect(r.stderr).not.toContain('error -1');
    expect(readdirSync(join(dir, 'missing-out'))).toEqual(['pic1.svg']);
  });
});

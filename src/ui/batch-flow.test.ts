import { unzipSync } from 'fflate';
import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';

import { exportInWorker } from '../worker/vectorize.js';
import { traceBatch } from './batch-flow.js';

function png(color: [number, number, number]): Uint8Array {
  const width = 20;
  const height = 12;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set(i % width < 10 ? [...color, 255] : [255, 255, 255, 255], i * 4);
  return encode({ width, height, data, channels: 4, depth: 8 });
}

const exporter = { exportFile: (bytes: Uint8Array, fields: [string, string][]) => exportInWorker(bytes, fields) };

describe('traceBatch', () => {
  it('traces every file into one zip named after the inputs, lists failures, reports progress, and is deterministic', async () => {
    const files = [
      { name: 'red.png', bytes: png([220, 30, 40]) },
      { name: 'broken.png', bytes: new TextEncoder().encode('not an image') },
      { name: 'blue.png', bytes: png([30, 60, 220]) },
      { name: 'folder/red.jpg.png', bytes: png([220, 30, 40]) },
      { name: 'red.gif', bytes: png([20, 160, 60]) },
    ];
    const progress: string[] = [];
    const a = await traceBatch(files, [['output.file_format', 'pdf']], exporter, (done, total) => progress.push(`${done}/${total}`));
    expect(progress).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5']);
    expect(a.entries).toEqual(['red.pdf', 'blue.pdf', 'red.jpg.pdf', 'red-2.pdf']);
    expect(a.failed).toEqual([{ name: 'broken.png', code: 1006, message: expect.stringContaining('unknown format') }]);
    const unzipped = unzipSync(a.zip);
    expect(Object.keys(unzipped).sort()).toEqual(['blue.pdf', 'errors.txt', 'red-2.pdf', 'red.jpg.pdf', 'red.pdf']);
    expect(new TextDecoder().decode(unzipped['red.pdf']!.subarray(0, 5))).toBe('%PDF-');
    expect(new TextDecoder().decode(unzipped['errors.txt'])).toMatch(/^broken\.png: error 1006: /);
    const b = await traceBatch(files, [['output.file_format', 'pdf']], exporter);
    expect(Buffer.from(b.zip).equals(Buffer.from(a.zip))).toBe(true);
  });
});

describe('traceBatch cancelled', () => {
  const files = ['a', 'b', 'c', 'd', 'e'].map((n, i) => ({ name: `${n}.png`, bytes: png([40 * i, 30, 200 - 40 * i]) }));
  /** The real export, counting the files it was asked for. */
  const counting = (onCall: (call: number) => void = () => undefined) => {
    let calls = 0;
    return {
      get calls() {
        return calls;
      },
      exportFile(bytes: Uint8Array, fields: [string, string][]) {
        const out = exportInWorker(bytes, fields);
        onCall(++calls);
        return out;
      },
    };
  };

  it('between two files: no further file is started, and the zip holds the files finished before', async () => {
    const controller = new AbortController();
    const ex = counting();
    const out = await traceBatch(files, [['output.file_format', 'eps']], ex, (done) => done === 2 && controller.abort(), controller.signal);
    expect(ex.calls).toBe(2);
    expect(out).toMatchObject({ entries: ['a.eps', 'b.eps'], failed: [], cancelled: true, untraced: 3 });
    expect(Object.keys(unzipSync(out.zip))).toEqual(['a.eps', 'b.eps']);
  });

  it('while a file is traced: the batch ends without that file, whose late answer is dropped', async () => {
    const controller = new AbortController();
    // Cancel right after the third file was handed to the exporter, before its answer is in.
    const ex = counting((call) => call === 3 && controller.abort());
    const out = await traceBatch(files, [], ex, undefined, controller.signal);
    expect(ex.calls).toBe(3);
    expect(out).toMatchObject({ entries: ['a.svg', 'b.svg'], cancelled: true, untraced: 3 });
    expect(Object.keys(unzipSync(out.zip))).toEqual(['a.svg', 'b.svg']);
  });

  it('not cancelled: cancelled is false and nothing is left untraced', async () => {
    const out = await traceBatch(files.slice(0, 2), [], counting(), undefined, new AbortController().signal);
    expect(out).toMatchObject({ entries: ['a.svg', 'b.svg'], cancelled: false, untraced: 0 });
  });
});

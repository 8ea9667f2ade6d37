import { describe, expect, it } from 'vitest';
import { vectorizeBytes } from '../../src/cli/vectorize.js';
import { TracelabError } from '../../src/engine/errors.js';
import { redSquarePng } from './png.js';

async function errorOf(p: Promise<unknown>): Promise<TracelabError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(TracelabError);
    return e as TracelabError;
  }
  throw new Error('expected a TracelabError');
}

describe('vectorizeBytes', () => {
  it('traces a PNG to SVG', async () => {
    const out = await vectorizeBytes(redSquarePng(), []);
    expect(out.contentType).toBe('image/svg+xml');
    expect(out.extension).toBe('svg');
    const svg = new TextDecoder().decode(out.body);
    expect(svg).toMatch(/^(<\?xml|<svg)/);
    expect(svg).toContain('<path');
  });

  it('rejects parameters before decoding (1019)', async () => {
    const err = await errorOf(vectorizeBytes(new Uint8Array([1, 2, 3]), [['processing.max_colors', '999']]));
    expect(err.code).toBe(1019);
    expect(err.message).toContain('0…256');
  });

  it('valid but unimplemented formats say "not implemented yet" (1019)', async () => {
    for (const format of ['pdf', 'eps', 'dxf', 'png']) {
      const err = await errorOf(vectorizeBytes(redSquarePng(), [['output.file_format', format]]));
      expect(err.code).toBe(1019);
      expect(err.message).toContain(`output.file_format=${format}`);
      expect(err.message).toContain('not implemented yet');
      expect(err.message).not.toMatch(/invalid/i);
    }
  });

  it('unreadable input → 1006', async () => {
    expect((await errorOf(vectorizeBytes(new Uint8Array(0), []))).code).toBe(1006);
    expect((await errorOf(vectorizeBytes(new TextEncoder().encode('not an image at all'), []))).code).toBe(1006);
  });
});

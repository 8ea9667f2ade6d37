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

  it('writes every output format (sniffed from the bytes by its magic)', async () => {
    const magic: Record<string, string> = { pdf: '%PDF-1.4', eps: '%!PS-Adobe-3.0 EPSF-3.0', dxf: '0 SECTION', png: '\x89PNG', svg: '<?xml' };
    for (const format of ['svg', 'pdf', 'eps', 'dxf', 'png']) {
      const out = await vectorizeBytes(redSquarePng(), [['output.file_format', format]]);
      const head = new TextDecoder('latin1').decode(out.body.subarray(0, 30)).replace(/\s+/g, ' ').trim();
      expect(head.startsWith(magic[format]!)).toBe(true);
      expect(out.extension).toBe(format);
    }
  });

  it('unreadable input → 1006', async () => {
    expect((await errorOf(vectorizeBytes(new Uint8Array(0), []))).code).toBe(1006);
    expect((await errorOf(vectorizeBytes(new TextEncoder().encode('not an image at all'), []))).code).toBe(1006);
  });
});

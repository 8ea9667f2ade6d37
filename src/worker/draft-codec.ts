/**
 * The draft's image codec in a browser worker: the browser's own decoder shrinks a large input
 * (createImageBitmap, drawn smaller on an OffscreenCanvas) and its own PNG encoder writes the draft
 * (OffscreenCanvas.convertToBlob). Both run as native code, so a draft costs its small trace and
 * not a JS decode of every input pixel (≈ 0.6 s for a 2-MP PNG in a fresh worker).
 *
 * A draft only stands in on screen until the full trace is done; the full trace decodes the file
 * with Tracelab's own decoders, so its bytes are the same in the browser, the CLI and the server.
 * In: image bytes. Out: shrunk straight-alpha RGBA, or PNG bytes. Undefined where the browser
 * lacks createImageBitmap or OffscreenCanvas (then there is no draft).
 */

import type { DraftCodec } from './vectorize.js';

export function browserDraftCodec(): DraftCodec | undefined {
  if (typeof createImageBitmap !== 'function' || typeof OffscreenCanvas !== 'function') return undefined;
  return {
    async shrink(bytes, targetPixels, minInputPixels) {
      let full: ImageBitmap;
      try {
        full = await createImageBitmap(new Blob([bytes as Uint8Array<ArrayBuffer>]), { premultiplyAlpha: 'none', colorSpaceConversion: 'none' });
      } catch {
        return undefined; // a format the browser cannot read (TIFF…): no draft, the full trace decides
      }
      const inputWidth = full.width;
      const inputHeight = full.height;
      if (inputWidth * inputHeight <= minInputPixels) {
        full.close();
        return undefined;
      }
      const scale = Math.sqrt(targetPixels / (inputWidth * inputHeight));
      const width = Math.max(1, Math.floor(inputWidth * scale));
      const height = Math.max(1, Math.floor(inputHeight * scale));
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) {
        full.close();
        return undefined;
      }
      ctx.imageSmoothingQuality = 'medium';
      ctx.drawImage(full, 0, 0, width, height);
      full.close();
      const data = new Uint8Array(ctx.getImageData(0, 0, width, height).data.buffer);
      return { pixels: { width, height, data }, inputWidth, inputHeight };
    },
    async encodePng(rgba, width, height) {
      const canvas = new OffscreenCanvas(width, height);
      const ctx = canvas.getContext('2d');
      if (!ctx) throw new Error('no 2D context for the draft');
      ctx.putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer as ArrayBuffer, rgba.byteOffset, rgba.length), width, height), 0, 0);
      return new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
    },
  };
}

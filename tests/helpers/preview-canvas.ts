/**
 * The playground's canvas preview (src/worker/preview-codec.ts) run in Debian's Chromium: the
 * codec and the plan builder are bundled by esbuild (tests/helpers/preview-entry.ts) into one page,
 * which paints a trace on an OffscreenCanvas and hands back the PNG, decoded here as RGBA.
 */
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import type { RgbaImage, TraceResult } from '../../src/engine/types.js';
import type { OutputOptions } from '../../src/formats/types.js';
import { decodePngRgba } from './readers.js';

const ENTRY = join(import.meta.dirname, 'preview-entry.ts');

export class ChromiumPreviewPainter {
  private page: Page | undefined;

  constructor(private readonly browser: Browser) {}

  async paint(result: TraceResult, more: Partial<OutputOptions>): Promise<RgbaImage> {
    const page = (this.page ??= await this.open());
    // The trace crosses as JSON (chains' segments as objects), as a stored trace does.
    const stored: unknown = JSON.parse(JSON.stringify(result));
    const base64 = await page.evaluate(([r, m]) => (globalThis as unknown as { paintPreview: (r: unknown, m: unknown) => Promise<string> }).paintPreview(r, m), [stored, more] as const);
    return decodePngRgba(Buffer.from(base64, 'base64'));
  }

  private async open(): Promise<Page> {
    const bundle = await build({ entryPoints: [ENTRY], bundle: true, write: false, format: 'iife', platform: 'browser', target: 'es2022', logLevel: 'warning' });
    const page = await this.browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    return page;
  }
}

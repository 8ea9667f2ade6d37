/**
 * Renders SVG text in Debian's Chromium (playwright-core, never a downloaded browser): the SVG
 * is shown through an <img> at the given size and screenshotted.
 */
import { existsSync } from 'node:fs';
import { decode } from 'fast-png';
import { chromium, type Browser } from 'playwright-core';
import type { RgbaImage } from '../../src/engine/types.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: install Debian's chromium package (bash scripts/test-all.sh does it as root)`);
  }
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ARGS });
}

export async function renderSvgInChromium(browser: Browser, svg: string, width: number, height: number): Promise<RgbaImage> {
  const page = await browser.newPage({ viewport: { width, height }, deviceScaleFactor: 1 });
  try {
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(`<!doctype html><html><body style="margin:0;background:#fff"><img id="r" src="${src}" width="${width}" height="${height}" style="display:block"></body></html>`);
    await page.waitForFunction(() => {
      const img = document.getElementById('r') as HTMLImageElement | null;
      return !!img && img.complete && img.naturalWidth > 0;
    });
    const png = decode(await page.screenshot({ clip: { x: 0, y: 0, width, height } }));
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) {
      for (let c = 0; c < 4; c++) data[i * 4 + c] = c < png.channels ? (png.data[i * png.channels + c] as number) : 255;
    }
    return { width, height, data };
  } finally {
    await page.close();
  }
}

import { describe, expect, it } from 'vitest';

import { offersShrink, shrunkName } from './oversize.js';
import { createTracelabStore } from './store.js';

describe('the offer to trace a picture over the pixel limit shrunk (issue 29 item 4)', () => {
  it('is made for a source refused with 1013 only', () => {
    const store = createTracelabStore();
    store.getState().setSource({ name: 'huge.png', bytes: new Uint8Array([1]), size: 1, type: 'image/png' });
    const refused = (code: number) => {
      const id = store.getState().startJob();
      store.getState().failJob(id, { code, message: '…' });
      return offersShrink(store.getState().job, store.getState().source);
    };
    expect(refused(1013)).toBe(true);
    expect(refused(1006)).toBe(false);
    // A picture that could not be loaded at all is no source to shrink.
    store.getState().reportError({ code: 1013, message: '…' });
    expect(offersShrink(store.getState().job, store.getState().source)).toBe(false);
  });

  it('names the shrunk picture after the original and its new size', () => {
    expect(shrunkName('huge.png', 1448, 1448)).toBe('huge-1448x1448.png');
    expect(shrunkName('scan.final.tif', 1200, 1747)).toBe('scan.final-1200x1747.png');
    expect(shrunkName('.png', 10, 10)).toBe('image-10x10.png');
  });
});

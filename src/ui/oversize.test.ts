import { describe, expect, it } from 'vitest';

import { tooManyPixelsError } from '../engine/errors.js';
import { offersShrink, shrinkOffer, shrunkName } from './oversize.js';
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

  it('names the size it will trace at and does not tell the user to shrink it first beside the button that does (issue 41 item 6)', () => {
    const store = createTracelabStore();
    store.getState().setSource({ name: 'huge.png', bytes: new Uint8Array([1]), size: 1, type: 'image/png' });
    const refuse = (message: string) => {
      const id = store.getState().startJob();
      store.getState().failJob(id, { code: 1013, message });
      return shrinkOffer(store.getState().job, 2_097_252);
    };
    const offer = refuse(tooManyPixelsError(8000, 8000).message);
    expect(offer.button).toBe('Trace it shrunk to 1448 × 1448 px');
    expect(offer.status).toBe(
      'Error 1013: Image has too many pixels: 8000×8000 = 64,000,000 px; the maximum is 33,554,432 px. The page can shrink it for you (in your browser) and trace that:',
    );
    expect(refuse(tooManyPixelsError(12000, 3000).message).button).toBe('Trace it shrunk to 2896 × 724 px');
    // A 1013 whose message names no size: the budget, with its separators.
    expect(refuse('The browser could not shrink this picture').button).toBe('Trace it shrunk to at most 2,097,252 px');
  });

  it('names the shrunk picture after the original and its new size', () => {
    expect(shrunkName('huge.png', 1448, 1448)).toBe('huge-1448x1448.png');
    expect(shrunkName('scan.final.tif', 1200, 1747)).toBe('scan.final-1200x1747.png');
    expect(shrunkName('.png', 10, 10)).toBe('image-10x10.png');
  });
});

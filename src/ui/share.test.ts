/** Share links: round trip of the non-default options, validation, nothing secret in the URL. */

import { describe, expect, it } from 'vitest';

import { DEFAULT_OPTIONS } from '../api/index.js';
import { connectShareHash, decodeShareHash, encodeShareUrl, shareHash } from './share.js';
import { createTracelabStore, fieldsFor } from './store.js';

const PALETTE = '#FF0000 -> #00FF00 ~ 0.1; #000000;';

describe('share links', () => {
  it('encode the non-default options in #o=… and decode them back', () => {
    const store = createTracelabStore({
      'processing.max_colors': '8',
      'processing.palette': PALETTE,
      'output.size.width': '300.5',
      'output.gap_filler.enabled': 'false',
    });
    const url = encodeShareUrl('https://example.test/tracelab/demo/?a=1#old', store.getState().options);
    expect(url.startsWith('https://example.test/tracelab/demo/?a=1#o=')).toBe(true);
    expect(url).not.toContain('#old');
    // One hash parameter: the form is escaped as its value, so & and = of the form cannot leak out.
    expect(new URL(url).hash.slice(3)).not.toMatch(/[&=#+ ]/);
    const decoded = decodeShareHash(new URL(url).hash);
    expect(decoded.problems).toEqual([]);
    expect(decoded.fields).toEqual(Object.fromEntries(fieldsFor(store.getState().options)));
    expect(createTracelabStore(decoded.fields).getState().options).toEqual(store.getState().options);
  });

  it('all defaults → no hash at all', () => {
    expect(encodeShareUrl('https://example.test/x#o=abc', DEFAULT_OPTIONS)).toBe('https://example.test/x');
    expect(shareHash([])).toBe('');
    expect(decodeShareHash('')).toEqual({ fields: {}, problems: [] });
    expect(decodeShareHash('#section-2')).toEqual({ fields: {}, problems: [] });
  });

  it('never carries service fields, credentials or image data', () => {
    const store = createTracelabStore({ 'processing.max_colors': '3' });
    store.getState().setService({ mode: 'production', retentionDays: 7 });
    store.getState().setRemote({ apiId: 'my-real-id', apiSecret: 'my-real-secret' });
    store.getState().setSource({ name: 'secret-file.png', bytes: new Uint8Array([1, 2, 3]), size: 3, type: 'image/png' });
    const url = encodeShareUrl('https://example.test/', store.getState().options);
    expect(decodeURIComponent(decodeURIComponent(url))).toBe('https://example.test/#o=processing.max_colors=3');
    for (const secret of ['my-real-id', 'my-real-secret', 'secret-file', 'mode', 'retention', 'AQID']) expect(url).not.toContain(secret);
  });

  it('drops and reports unknown, service and invalid entries; never throws', () => {
    const form = new URLSearchParams([
      ['processing.max_colors', '999'],
      ['processing.palette', '#12 ;'],
      ['nonsense', '1'],
      ['mode', 'test'],
      ['policy.retention_days', '3'],
      ['output.shape_stacking', 'stacked'],
      ['processing.shapes.min_area_px', '2'],
      ['processing.shapes.min_area_px', '3'],
    ]).toString();
    const decoded = decodeShareHash(`#o=${encodeURIComponent(form)}`);
    expect(decoded.fields).toEqual({ 'output.shape_stacking': 'stacked', 'processing.shapes.min_area_px': '3' });
    expect(decoded.problems).toHaveLength(6);
    expect(decoded.problems[0]).toMatch(/processing\.max_colors must be an integer in 0…256/);
    expect(decoded.problems.join('\n')).toMatch(/Unknown option "nonsense"/);
    expect(decoded.problems.join('\n')).toMatch(/mode is not shared/);
    expect(() => createTracelabStore(decoded.fields)).not.toThrow();
    for (const junk of ['#o=%E0%A4%A', '#o', '#o=&&&', `#o=${'x'.repeat(200_000)}`, '#%%%']) {
      expect(() => decodeShareHash(junk)).not.toThrow();
      expect(() => createTracelabStore(decodeShareHash(junk).fields)).not.toThrow();
    }
  });
});

describe('connectShareHash', () => {
  function fakeWindow(href: string) {
    const listeners = new Set<() => void>();
    const win = {
      location: {
        href,
        get hash() {
          const i = this.href.indexOf('#');
          return i === -1 ? '' : this.href.slice(i);
        },
      },
      history: {
        state: { keep: true },
        calls: 0,
        replaceState(state: unknown, _unused: string, url: string) {
          expect(state).toEqual({ keep: true });
          this.calls++;
          win.location.href = url;
        },
      },
      addEventListener: (_: 'hashchange', l: () => void) => listeners.add(l),
      removeEventListener: (_: 'hashchange', l: () => void) => listeners.delete(l),
      navigate(url: string) {
        win.location.href = url;
        for (const l of listeners) l();
      },
      listeners,
    };
    return win;
  }

  it('writes the options into the hash, follows pasted links, and stops', () => {
    const bad = `#o=${encodeURIComponent('processing.max_colors=4&nonsense=1')}`;
    const win = fakeWindow(`https://example.test/app/${bad}`);
    const decoded = decodeShareHash(win.location.hash);
    const store = createTracelabStore(decoded.fields);
    const problems: string[] = [];
    const stop = connectShareHash(store, win, (p) => problems.push(...p));
    // Normalised at once: the unknown entry is gone from the address bar.
    expect(win.location.href).toBe(`https://example.test/app/#o=${encodeURIComponent('processing.max_colors=4')}`);
    store.getState().setOptionText('processing.max_colors', '6');
    expect(decodeShareHash(win.location.hash).fields).toEqual({ 'processing.max_colors': '6' });
    store.getState().resetOptions();
    expect(win.location.href).toBe('https://example.test/app/');
    const calls = win.history.calls;
    store.getState().setViewer({ zoom: 2 }); // not an option change: the address stays
    expect(win.history.calls).toBe(calls);

    win.navigate(`https://example.test/app/#o=${encodeURIComponent('output.shape_stacking=stacked&mode=test')}`);
    expect(store.getState().options['output.shape_stacking']).toBe('stacked');
    expect(problems).toEqual(['mode is not shared by links and was ignored.']);
    stop();
    expect(win.listeners.size).toBe(0);
    store.getState().resetOptions();
    expect(win.location.hash).not.toBe('');
  });
});

/**
 * The playground's side of the Tracelab extensions (tracelab.*), without a browser: the options
 * panel's extension group (rendered to static markup), the option's round trip through the store,
 * share links and presets, the stats line's "Gradients: N", and the palette panel's gradient row
 * fed with synthetic stats (no engine needed). Remote mode and snippets: remote-flow.test.ts and
 * snippets.test.ts.
 */

import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';

import type { VectorizeStats } from '../worker/protocol.js';
import { gradientCss, gradientLabel, rampText } from './gradient-swatch.js';
import { EXTENSION_GROUP_NOTE, OptionsPanel } from './OptionsPanel.js';
import { MAX_GRADIENT_SWATCHES, PalettePanel } from './PalettePanel.js';
import { choosePreset, keptFields, matchingPreset } from './presets.js';
import { decodeShareHash, encodeShareUrl } from './share.js';
import { StatsLine } from './Stats.js';
import { createTracelabStore, fieldsFor, resultHint, type TracelabStore } from './store.js';

/**
 * Static rendering reads a zustand store's initial state (React's server snapshot): this view of
 * `store` answers with its current state instead, so what a test set up is what renders.
 */
function current(store: TracelabStore): TracelabStore {
  return { ...store, getInitialState: store.getState };
}

/** The markup of the extension group (from its <details> to its end). */
function extensionGroup(html: string): string {
  const start = html.indexOf('<details class="option-group extension-group"');
  expect(start).toBeGreaterThanOrEqual(0);
  return html.slice(start, html.indexOf('</details>', start) + '</details>'.length);
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('options panel: the extension group', () => {
  it('is its own group, titled and noted as not part of the Vectorizer.AI API, open on a wide screen, with the option unchecked', () => {
    const html = renderToStaticMarkup(createElement(OptionsPanel, { store: createTracelabStore() }));
    const group = extensionGroup(html);
    expect(group).toMatch(/^<details class="option-group extension-group" data-group="tracelab" open="" aria-describedby="([^"]+)"><summary>Tracelab extensions \(not part of the Vectorizer\.AI API\)<\/summary><p id="\1" class="group-note">/);
    expect(group).toContain(EXTENSION_GROUP_NOTE);
    expect(EXTENSION_GROUP_NOTE).toMatch(/real service does not have these; remote calls and code snippets/);
    expect(group).toMatch(/<div class="field field-check" data-option="tracelab\.gradients"><div class="option-title"><label for="[^"]+" id="[^"]+">Gradient fills<\/label><code id="[^"]+" class="option-name">tracelab\.<wbr\/>gradients<\/code><\/div><input id="[^"]+" type="checkbox"(?! checked)/);
    // tracelab.profile: a list of its five values, on auto.
    expect(group).toMatch(/data-option="tracelab\.profile"><div class="option-title"><label for="[^"]+" id="[^"]+">Picture kind<\/label><code id="[^"]+" class="option-name">tracelab\.<wbr\/>profile<\/code><\/div><select[^>]*>(<option value="(auto|pixel|flat|photo|lineart)"[^>]*>[^<]+<\/option>){5}<\/select>/);
    // tracelab.strokes: a list of its three values, on none; tracelab.max_stroke_width a number field at 0 (automatic).
    expect(group).toMatch(/data-option="tracelab\.strokes"><div class="option-title"><label for="[^"]+" id="[^"]+">Lines as strokes<\/label><code id="[^"]+" class="option-name">tracelab\.<wbr\/>strokes<\/code><\/div><select[^>]*>(<option value="(none|auto|centerline)"[^>]*>[^<]+<\/option>){3}<\/select>/);
    expect(group).toMatch(/data-option="tracelab\.max_stroke_width">.*?Widest stroke.*?<input[^>]*value="0"/);
    // No API group is marked as an extension, and the API's options are not in this one.
    expect(html.match(/extension-group/g)).toHaveLength(1);
    expect(group).not.toContain('data-option="processing.');
  });

  it('on a narrow screen it starts folded like the others, unless an extension is set (a share link): then it opens', () => {
    vi.stubGlobal('matchMedia', () => ({ matches: true }));
    const folded = extensionGroup(renderToStaticMarkup(createElement(OptionsPanel, { store: createTracelabStore() })));
    expect(folded).not.toContain(' open=""');
    const set = extensionGroup(renderToStaticMarkup(createElement(OptionsPanel, { store: createTracelabStore({ 'tracelab.gradients': 'true' }) })));
    expect(set).toContain(' open=""');
    expect(set).toMatch(/data-option="tracelab\.gradients">.*type="checkbox"[^>]* checked=""/);
  });
});

describe('tracelab.gradients round-trips like any option', () => {
  it('store, trace fields, share link (and back), presets', () => {
    const store = createTracelabStore();
    store.getState().setOptionText('tracelab.gradients', 'true', 'settled');
    expect(store.getState().options['tracelab.gradients']).toBe(true);
    // The local trace (tracing.ts) and the local service get it.
    expect(fieldsFor(store.getState().options)).toEqual([['tracelab.gradients', 'true']]);

    const url = encodeShareUrl('https://example.test/demo/', store.getState().options);
    expect(decodeURIComponent(decodeURIComponent(url))).toBe('https://example.test/demo/#o=tracelab.gradients=true');
    const decoded = decodeShareHash(new URL(url).hash);
    expect(decoded).toEqual({ fields: { 'tracelab.gradients': 'true' }, problems: [] });
    expect(createTracelabStore(decoded.fields).getState().options).toEqual(store.getState().options);
    expect(decodeShareHash(`#o=${encodeURIComponent('tracelab.gradients=yes')}`).problems).toEqual([
      "tracelab.gradients must be true or false; received 'yes' (from the share link; ignored)",
    ]);

    // Presets set no extension: choosing one keeps it, and it is still that preset, with the
    // extension named as kept (issue 41 item 3); "Reset to defaults" resets it too.
    choosePreset(store, 'photo');
    expect(store.getState().options['tracelab.gradients']).toBe(true);
    expect(matchingPreset(store.getState().options)).toBe('photo');
    expect(keptFields(store.getState().options)).toEqual([['tracelab.gradients', 'true']]);
    store.getState().setOption('tracelab.gradients', false);
    expect(matchingPreset(store.getState().options)).toBe('photo');
    expect(keptFields(store.getState().options)).toEqual([]);
    store.getState().setOption('tracelab.gradients', true);
    store.getState().resetOptions();
    expect(store.getState().options['tracelab.gradients']).toBe(false);
  });
});

describe('tracelab.layers round-trips like any option', () => {
  it('a checkbox of the extension group; store, trace fields, share link (and back), presets', () => {
    const group = extensionGroup(renderToStaticMarkup(createElement(OptionsPanel, { store: createTracelabStore() })));
    expect(group).toMatch(/<div class="field field-check" data-option="tracelab\.layers"><div class="option-title"><label for="[^"]+" id="[^"]+">Layers<\/label><code id="[^"]+" class="option-name">tracelab\.<wbr\/>layers<\/code><\/div><input id="[^"]+" type="checkbox"(?! checked)/);
    const store = createTracelabStore();
    store.getState().setOption('output.shape_stacking', 'stacked');
    store.getState().setOptionText('tracelab.layers', 'true', 'settled');
    expect(fieldsFor(store.getState().options)).toEqual([
      ['output.shape_stacking', 'stacked'],
      ['tracelab.layers', 'true'],
    ]);
    const url = encodeShareUrl('https://example.test/demo/', store.getState().options);
    expect(decodeURIComponent(decodeURIComponent(url))).toBe('https://example.test/demo/#o=output.shape_stacking=stacked&tracelab.layers=true');
    const decoded = decodeShareHash(new URL(url).hash);
    expect(createTracelabStore(decoded.fields).getState().options).toEqual(store.getState().options);
    expect(decodeShareHash(`#o=${encodeURIComponent('tracelab.layers=1')}`).problems).toEqual([
      "tracelab.layers must be true or false; received '1' (from the share link; ignored)",
    ]);
    // Presets set no extension: choosing one keeps it, named as kept; "Reset to defaults" resets it.
    choosePreset(store, 'photo');
    expect(store.getState().options['tracelab.layers']).toBe(true);
    expect(keptFields(store.getState().options)).toContainEqual(['tracelab.layers', 'true']);
    store.getState().resetOptions();
    expect(store.getState().options['tracelab.layers']).toBe(false);
  });
});

describe('tracelab.strokes and tracelab.max_stroke_width round-trip like any option', () => {
  it('store, trace fields, share link (and back), presets', () => {
    const store = createTracelabStore();
    store.getState().setOption('tracelab.strokes', 'centerline');
    store.getState().setOptionText('tracelab.max_stroke_width', '4.5', 'settled');
    expect(fieldsFor(store.getState().options)).toEqual([
      ['tracelab.strokes', 'centerline'],
      ['tracelab.max_stroke_width', '4.5'],
    ]);
    const url = encodeShareUrl('https://example.test/demo/', store.getState().options);
    expect(decodeURIComponent(decodeURIComponent(url))).toBe('https://example.test/demo/#o=tracelab.strokes=centerline&tracelab.max_stroke_width=4.5');
    const decoded = decodeShareHash(new URL(url).hash);
    expect(createTracelabStore(decoded.fields).getState().options).toEqual(store.getState().options);
    expect(decodeShareHash(`#o=${encodeURIComponent('tracelab.strokes=pen')}`).problems).toEqual([
      "tracelab.strokes must be one of none, auto, centerline; received 'pen' (from the share link; ignored)",
    ]);
    // Presets set no extension: choosing one keeps both, named as kept; "Reset to defaults" resets them.
    choosePreset(store, 'photo');
    expect(matchingPreset(store.getState().options)).toBe('photo');
    expect(keptFields(store.getState().options)).toEqual([
      ['tracelab.strokes', 'centerline'],
      ['tracelab.max_stroke_width', '4.5'],
    ]);
    store.getState().resetOptions();
    expect(store.getState().options['tracelab.strokes']).toBe('none');
    expect(store.getState().options['tracelab.max_stroke_width']).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------
// Stats and palette, from synthetic stats

const RED_BLUE = { kind: 'linear', stops: [{ offset: 0, hex: '#FF0000' }, { offset: 1, hex: '#0000FF' }], areaPx: 300, shapes: 2 } as const;
const GLOW = { kind: 'radial', stops: [{ offset: 0, hex: '#FFFFFF' }, { offset: 0.25, hex: '#FFCC00' }, { offset: 1, hex: '#000000' }], areaPx: 100, shapes: 1 } as const;

function stats(extra: Partial<VectorizeStats> = {}): VectorizeStats {
  return { profile: 'photo', colors: 2, regions: 5, shapes: 5, bytes: 1234, nodes: 40, palette: [{ hex: '#00FF00', areaPx: 600, shapes: 2 }], ...extra };
}

function finished(s: VectorizeStats): TracelabStore {
  const store = createTracelabStore();
  const id = store.getState().startJob();
  store.getState().finishJob(id, { svg: '<svg/>', previewPng: null, stats: s, ms: 5, width: 10, height: 10 });
  return store;
}

describe('stats line', () => {
  it('says "Gradients: N" after the shapes when N > 0, and nothing about gradients otherwise', () => {
    const text = (s: VectorizeStats) => renderToStaticMarkup(createElement(StatsLine, { stats: s, ms: 12 })).replace(/<[^>]+>/g, '|');
    expect(text(stats({ gradients: 3, smoothAreas: 3 }))).toContain('Shapes: |5|||Gradients: |3|||Nodes: ');
    expect(text(stats())).not.toContain('Gradients');
    expect(text(stats({ gradients: 0, smoothAreas: 4 }))).not.toContain('Gradients');
  });

  it('says how many pen strokes, their widths and the pen-down and pen-up lengths (tracelab.strokes), and nothing without them', () => {
    const text = (s: VectorizeStats) => renderToStaticMarkup(createElement(StatsLine, { stats: s, ms: 12 })).replace(/<[^>]+>/g, '|');
    const strokes = { count: 12, outlines: 1, widthMinPx: 1, widthMedianPx: 3, widthMaxPx: 3.1, penDownPx: 1204.4, penUpPx: 310.2, penUpInputOrderPx: 900 };
    expect(text(stats({ shapes: 0, strokes }))).toContain('Shapes: |0|||Strokes: |12|||Widths: |1–3.1 px|||Pen down: |1,204 px|||Pen up: |310 px|||Nodes: ');
    expect(text(stats({ strokes: { ...strokes, widthMinPx: 3.1 } }))).toContain('Widths: |3.1 px|||');
    expect(text(stats())).not.toContain('Strokes');
  });

  it('says why the engine chose the profile right after "Profile:", and nothing when the worker did not say', () => {
    const text = (s: VectorizeStats) => renderToStaticMarkup(createElement(StatsLine, { stats: s, ms: 12 })).replace(/<[^>]+>/g, '|');
    expect(text(stats({ profileReason: 'chosen by tracelab.profile' }))).toContain('Profile: |photo|||Why: |chosen by tracelab.profile|||Colours: ');
    expect(text(stats())).toContain('Profile: |photo|||Colours: ');
  });
});

describe('palette panel: gradient fills', () => {
  it('get their own labelled row of ramp previews, apart from the editable flat colours; shares are of the whole area', () => {
    const html = renderToStaticMarkup(createElement(PalettePanel, { store: current(finished(stats({ gradients: 3, gradientFills: [RED_BLUE, GLOW] }))) }));
    const [flat, gradients] = html.split('<div class="palette-gradients">');
    // The flat colour keeps its remap and delete controls; 600 of 1000 px.
    expect(flat).toContain('<code class="palette-hex">#00FF00</code><span class="palette-share">60.0% of area, 2 shapes</span>');
    expect(flat).toContain('aria-label="Delete #00FF00"');
    expect(gradients).toMatch(/^<h3 id="([^"]+)">Gradients<\/h3>.*<ul class="palette-list" aria-labelledby="\1">/);
    expect(gradients).toContain(
      '<span class="swatch swatch-gradient" style="background:linear-gradient(to right, #FF0000 0%, #0000FF 100%)" role="img" aria-label="Linear gradient #FF0000 → #0000FF"></span>',
    );
    expect(gradients).toContain('<code class="palette-hex">#FF0000 → #0000FF</code><span class="palette-share">linear, 30.0% of area, 2 shapes</span>');
    expect(gradients).toContain('radial-gradient(circle closest-side, #FFFFFF 0%, #FFCC00 25%, #000000 100%)');
    // Nothing in the gradient row edits processing.palette.
    expect(gradients!.slice(0, gradients!.indexOf('</div>'))).not.toMatch(/<input|<button/);
  });

  it('no gradient fills: no gradient row; only gradient fills: no "colours appear here" placeholder; many: the first ones and a count', () => {
    expect(renderToStaticMarkup(createElement(PalettePanel, { store: current(finished(stats())) }))).not.toContain('Gradients');
    const only = renderToStaticMarkup(createElement(PalettePanel, { store: current(finished(stats({ palette: [], gradientFills: [RED_BLUE] }))) }));
    expect(only).not.toContain('colours appear here');
    expect(only).toContain('100.0% of area');
    const many = Array.from({ length: MAX_GRADIENT_SWATCHES + 3 }, (_, i) => ({ ...GLOW, stops: [{ offset: 0, hex: `#0000${(i + 16).toString(16).toUpperCase()}` }, { offset: 1, hex: '#000000' }] }));
    const html = renderToStaticMarkup(createElement(PalettePanel, { store: current(finished(stats({ gradientFills: many }))) }));
    expect(html.match(/swatch-gradient/g)).toHaveLength(MAX_GRADIENT_SWATCHES);
    expect(html).toContain('and 3 more gradient fills.');
  });

  it('a single flat colour beside gradient fills is not reported as a one-colour result', () => {
    const store = finished(stats({ gradientFills: [RED_BLUE] }));
    expect(resultHint(store.getState().job, store.getState().options)).toBeNull();
    const flatOnly = finished(stats());
    expect(resultHint(flatOnly.getState().job, flatOnly.getState().options)).toMatch(/single colour/);
  });
});

describe('gradient swatches', () => {
  it('preview the ramp in CSS and name it', () => {
    expect(gradientCss(RED_BLUE)).toBe('linear-gradient(to right, #FF0000 0%, #0000FF 100%)');
    expect(gradientCss(GLOW)).toBe('radial-gradient(circle closest-side, #FFFFFF 0%, #FFCC00 25%, #000000 100%)');
    expect(gradientCss({ kind: 'linear', stops: [{ offset: 0, hex: '#000000' }, { offset: 1 / 3, hex: '#777777' }, { offset: 1, hex: '#FFFFFF' }] })).toBe(
      'linear-gradient(to right, #000000 0%, #777777 33.33%, #FFFFFF 100%)',
    );
    // Evenly spaced stops need no offsets in the text; others show theirs.
    expect(rampText({ kind: 'linear', stops: [{ offset: 0, hex: '#000000' }, { offset: 0.5, hex: '#777777' }, { offset: 1, hex: '#FFFFFF' }] })).toBe('#000000 → #777777 → #FFFFFF');
    expect(rampText(GLOW)).toBe('#FFFFFF (0%) → #FFCC00 (25%) → #000000 (100%)');
    expect(gradientLabel(GLOW)).toBe('Radial gradient #FFFFFF (0%) → #FFCC00 (25%) → #000000 (100%)');
  });
});

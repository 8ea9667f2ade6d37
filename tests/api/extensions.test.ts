/** The Tracelab extension rule (src/api/extensions.ts): which options are extensions, which URL is the real service, what it gets. */
import { describe, expect, it } from 'vitest';

import { forRealService, isExtensionOption, isRealServiceUrl, notSentNote } from '../../src/api/extensions.js';
import { DEFAULT_OPTIONS, OPTION_GROUPS, OPTION_SCHEMA, parseOptions } from '../../src/api/options.js';
import { planVectorize } from '../../src/api/pipeline.js';

/** Every extension at its off value: the output is the API's. */
const OFF = { 'tracelab.gradients': false, 'tracelab.layers': false, 'tracelab.profile': 'auto', 'tracelab.strokes': 'none', 'tracelab.max_stroke_width': 0 };

describe('Tracelab extension options', () => {
  it('are exactly the options of the tracelab group, whose title says they are not part of the API; all default off', () => {
    const extensions = OPTION_SCHEMA.filter((s) => isExtensionOption(s.name));
    expect(extensions.map((s) => s.name)).toEqual(OPTION_SCHEMA.filter((s) => s.group === 'tracelab').map((s) => s.name));
    expect(extensions.length).toBeGreaterThan(0);
    expect(OPTION_GROUPS.find((g) => g.id === 'tracelab')?.title).toMatch(/not part of the Vectorizer\.AI API/);
    // Default off: a request without them is a plain API request — no gradients, the profile picked
    // from the picture as the API does. A new extension must be added here with its off value.
    const given = parseOptions([], 'vectorize');
    expect(Object.fromEntries(extensions.map((s) => [s.name, given[s.name]]))).toEqual(OFF);
    expect(Object.fromEntries(extensions.map((s) => [s.name, DEFAULT_OPTIONS[s.name]]))).toEqual(OFF);
  });

  it('the real service is vectorizer.ai and its subdomains, nothing else', () => {
    expect(isRealServiceUrl('https://api.vectorizer.ai/api/v1')).toBe(true);
    expect(isRealServiceUrl('https://vectorizer.ai/api/v1')).toBe(true);
    expect(isRealServiceUrl('https://PT.Vectorizer.AI/api/v1/')).toBe(true);
    for (const other of ['http://127.0.0.1:8787/api/v1', 'http://tracelab.invalid/api/v1', 'https://vectorizer.ai.example.com/api/v1', 'https://notvectorizer.ai/api/v1', 'not a url']) {
      expect(isRealServiceUrl(other), other).toBe(false);
    }
  });

  it('forRealService keeps every other field in order and names each extension once; the note says what was left out', () => {
    const { fields, dropped } = forRealService([
      ['processing.max_colors', '4'],
      ['tracelab.gradients', 'true'],
      ['mode', 'test'],
      ['tracelab.profile', 'photo'],
      ['tracelab.gradients', 'true'],
    ] as const);
    expect(fields).toEqual([
      ['processing.max_colors', '4'],
      ['mode', 'test'],
    ]);
    expect(dropped).toEqual(['tracelab.gradients', 'tracelab.profile']);
    expect(notSentNote(['tracelab.gradients'])).toBe('Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension)');
    expect(notSentNote(dropped)).toBe('Not sent to Vectorizer.AI: tracelab.gradients, tracelab.profile (Tracelab extensions)');
    expect(notSentNote([])).toBe('');
    expect(forRealService([['output.file_format', 'svg']])).toEqual({ fields: [['output.file_format', 'svg']], dropped: [] });
  });

  it('tracelab.strokes: none | auto | centerline, validated by the schema and passed to the engine; max_stroke_width 0 (automatic: a share of the picture) to 100 px', () => {
    expect(parseOptions([['tracelab.strokes', 'centerline']], 'vectorize')['tracelab.strokes']).toBe('centerline');
    expect(() => parseOptions([['tracelab.strokes', 'Centerline']], 'vectorize')).toThrow(
      "tracelab.strokes must be one of none, auto, centerline; received 'Centerline' (did you mean centerline? values are case-sensitive)",
    );
    expect(planVectorize([['tracelab.strokes', 'auto']]).engineParams).toMatchObject({ strokes: 'auto', maxStrokeWidthPx: 0 });
    expect(planVectorize([['tracelab.strokes', 'centerline'], ['tracelab.max_stroke_width', '3.5']]).engineParams).toMatchObject({ strokes: 'centerline', maxStrokeWidthPx: 3.5 });
    expect(planVectorize([]).engineParams).toMatchObject({ strokes: 'none', maxStrokeWidthPx: 0 });
    expect(() => parseOptions([['tracelab.max_stroke_width', '-1']], 'vectorize')).toThrow("tracelab.max_stroke_width must be a number in 0…100; received '-1'");
    expect(() => parseOptions([['tracelab.strokes', 'centerline']], 'download')).toThrow('tracelab.strokes is not accepted on /download');
    expect(forRealService([['tracelab.strokes', 'centerline'], ['tracelab.max_stroke_width', '4'], ['mode', 'test']] as const)).toEqual({
      fields: [['mode', 'test']],
      dropped: ['tracelab.strokes', 'tracelab.max_stroke_width'],
    });
  });

  it('tracelab.layers: a boolean validated by the schema, off by default, kept with cutouts (it does nothing there), never sent to the real service', () => {
    expect(planVectorize([['tracelab.layers', 'true'], ['output.shape_stacking', 'stacked']]).engineParams).toMatchObject({ layers: true, shapeStacking: 'stacked' });
    expect(planVectorize([['tracelab.layers', 'true']]).engineParams).toMatchObject({ layers: true, shapeStacking: 'cutouts' });
    expect(planVectorize([]).engineParams).toMatchObject({ layers: false });
    expect(() => parseOptions([['tracelab.layers', 'yes']], 'vectorize')).toThrow("tracelab.layers must be true or false; received 'yes'");
    expect(() => parseOptions([['tracelab.layers', 'true']], 'download')).toThrow('tracelab.layers is not accepted on /download');
    const { fields, dropped } = forRealService([['output.shape_stacking', 'stacked'], ['tracelab.layers', 'true'], ['tracelab.gradients', 'true']] as const);
    expect(fields).toEqual([['output.shape_stacking', 'stacked']]);
    expect(notSentNote(dropped)).toBe('Not sent to Vectorizer.AI: tracelab.layers, tracelab.gradients (Tracelab extensions)');
  });
});

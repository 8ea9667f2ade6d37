import { describe, expect, it } from 'vitest';
import {
  DEFAULT_OPTIONS,
  labelWithUnit,
  OPTION_BY_NAME,
  OPTION_GROUPS,
  OPTION_SCHEMA,
  parseOptions,
  toEngineParams,
  toFields,
  toOutputOptions,
  type Endpoint,
} from '../../src/api/index.js';
import { TracelabError } from '../../src/engine/errors.js';
import { DEFAULT_ENGINE_PARAMS } from '../../src/engine/index.js';
import { DEFAULT_OUTPUT_OPTIONS } from '../../src/formats/types.js';
import { forRealService, notSentNote } from '../../src/api/extensions.js';

function errorOf(fields: [string, string][], endpoint: Endpoint = 'vectorize'): string {
  try {
    parseOptions(fields, endpoint);
  } catch (e) {
    expect(e).toBeInstanceOf(TracelabError);
    const err = e as TracelabError;
    expect(err.code).toBe(1019);
    expect(err.status).toBe(400);
    return err.message;
  }
  throw new Error(`expected a parameter error for ${JSON.stringify(fields)}`);
}

const one = (name: string, value: string, endpoint: Endpoint = 'vectorize') =>
  (parseOptions([[name, value]], endpoint) as unknown as Record<string, unknown>)[name];

describe('OPTION_SCHEMA', () => {
  it('covers every request parameter of §2.1.1 and §2.5 exactly once', () => {
    const names = OPTION_SCHEMA.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    // 3 mode/input/policy + 5 processing + 11 parameterized shapes + 35 output.* + receipt, and
    // the Tracelab extensions (tracelab.*), which the reference does not have
    expect(names.filter((n) => !n.startsWith('tracelab.'))).toHaveLength(55);
    expect(names.filter((n) => n.startsWith('tracelab.'))).toEqual(['tracelab.gradients', 'tracelab.layers', 'tracelab.profile', 'tracelab.strokes', 'tracelab.max_stroke_width']);
    expect(names.filter((n) => n.startsWith('output.'))).toHaveLength(35);
    for (const n of [
      'processing.parameterizedShapes.ellipse.general.enabled',
      'processing.parameterizedShapes.ellipse.circle.enabled',
      'processing.parameterizedShapes.triangle.general.enabled',
      'processing.parameterizedShapes.triangle.isosceles.enabled',
      'processing.parameterizedShapes.quadrilateral.general.enabled',
      'processing.parameterizedShapes.quadrilateral.rectangle.enabled',
      'processing.parameterizedShapes.quadrilateral.bullet.enabled',
      'processing.parameterizedShapes.star.N3.enabled',
      'processing.parameterizedShapes.star.N4.enabled',
      'processing.parameterizedShapes.star.N5.enabled',
      'processing.parameterizedShapes.star.N6.enabled',
      'output.curves.allowed.elliptical_arc',
      'output.bitmap.anti_aliasing_mode',
      'output.size.output_dpi',
    ]) {
      expect(OPTION_BY_NAME.has(n), n).toBe(true);
    }
  });

  it('every entry has a short label in plain words, and a unit where its value has one (issue 29 item 8)', () => {
    const labels = new Set<string>();
    for (const s of OPTION_SCHEMA) {
      // Words, not the API name again: capitalised, spaces allowed, no dots or underscores.
      expect(s.label, s.name).toMatch(/^[A-Z0-9][^._\n]{1,34}$/);
      expect(labels.has(`${s.group} ${s.label}`), `${s.name}: label "${s.label}" is used twice in its group`).toBe(false);
      labels.add(`${s.group} ${s.label}`);
      if (s.unit !== undefined) expect(s.unit, s.name).toMatch(/^\S.{0,11}$/);
    }
    // Units where the value is a measure: areas, widths, tolerances, resolutions.
    const unit = (name: string) => OPTION_BY_NAME.get(name)?.unit;
    expect(unit('processing.shapes.min_area_px')).toBe('px²');
    expect(unit('output.strokes.stroke_width')).toBe('px');
    expect(unit('output.gap_filler.stroke_width')).toBe('px');
    expect(unit('output.curves.line_fit_tolerance')).toBe('px');
    expect(unit('output.size.output_dpi')).toBe('dpi');
    expect(labelWithUnit(OPTION_BY_NAME.get('processing.shapes.min_area_px')!)).toBe('Minimum area · px²');
    expect(labelWithUnit(OPTION_BY_NAME.get('output.file_format')!)).toBe('File format');
  });

  it('every entry is complete and consistent', () => {
    const groups = new Set<string>(OPTION_GROUPS.map((g) => g.id));
    for (const s of OPTION_SCHEMA) {
      expect(s.hint.length, s.name).toBeGreaterThan(5);
      expect(s.hint, s.name).not.toContain('\n');
      expect(groups.has(s.group), s.name).toBe(true);
      expect(s.endpoints.length, s.name).toBeGreaterThan(0);
      if (s.kind === 'int' || s.kind === 'float') {
        expect(s.min, s.name).toBeLessThan(s.max);
        if (s.default !== undefined) {
          expect(s.default, s.name).toBeGreaterThanOrEqual(s.min);
          expect(s.default, s.name).toBeLessThanOrEqual(s.max);
        }
      }
      if (s.kind === 'enum') expect(s.values as readonly string[], s.name).toContain(s.default);
    }
  });

  it('endpoint split: processing.*, mode, input.max_pixels, policy.* vectorize-only; receipt download-only', () => {
    for (const s of OPTION_SCHEMA) {
      const eps = [...s.endpoints].sort();
      if (s.name.startsWith('output.')) expect(eps, s.name).toEqual(['download', 'vectorize']);
      else if (s.name === 'receipt') expect(eps).toEqual(['download']);
      else expect(eps, s.name).toEqual(['vectorize']);
    }
  });

  it('reference ranges and defaults', () => {
    const spec = (n: string) => OPTION_BY_NAME.get(n)!;
    expect(spec('processing.max_colors')).toMatchObject({ kind: 'int', min: 0, max: 256, default: 0 });
    expect(spec('input.max_pixels')).toMatchObject({ kind: 'int', min: 100, max: 3_145_828, default: 2_097_252 });
    expect(spec('policy.retention_days')).toMatchObject({ kind: 'int', min: 0, max: 30, default: 0 });
    expect(spec('processing.shapes.min_area_px')).toMatchObject({ kind: 'float', min: 0, max: 100, default: 0.125 });
    expect(spec('output.curves.line_fit_tolerance')).toMatchObject({ min: 0.001, max: 1, default: 0.1 });
    expect(spec('output.size.width')).toMatchObject({ kind: 'float', min: 0, max: 1e12, default: undefined });
    expect(spec('output.strokes.override_color')).toMatchObject({ kind: 'color', default: '#000000' });
    expect(spec('processing.palette')).toMatchObject({ kind: 'palette', default: '' });
    expect(spec('mode')).toMatchObject({ kind: 'enum', values: ['production', 'preview', 'test', 'test_preview'] });
  });
});

describe('parseOptions: defaults', () => {
  it('no fields → every default applied', () => {
    const opts = parseOptions([], 'vectorize');
    expect(opts).toEqual(DEFAULT_OPTIONS);
    expect(opts['mode']).toBe('production');
    expect(opts['processing.max_colors']).toBe(0);
    expect(opts['processing.shapes.min_area_px']).toBe(0.125);
    expect(opts['output.file_format']).toBe('svg');
    expect(opts['output.gap_filler.stroke_width']).toBe(2);
    expect(opts['processing.parameterizedShapes.star.N6.enabled']).toBe(true);
    expect(opts['output.size.scale']).toBeUndefined();
    expect(opts['receipt']).toBeUndefined();
    expect(Object.keys(opts)).toHaveLength(OPTION_SCHEMA.length);
  });

  it('image-source fields are skipped, not errors', () => {
    const opts = parseOptions(
      [
        ['image', 'x'],
        ['image.url', 'https://example.test/a.png'],
        ['image.base64', 'AAAA'],
        ['image.token', 't'],
      ],
      'vectorize',
    );
    expect(opts).toEqual(DEFAULT_OPTIONS);
    expect(parseOptions([['image.token', 't']], 'download')).toEqual(DEFAULT_OPTIONS);
  });

  it('accepts any iterable, e.g. a Map', () => {
    expect(parseOptions(new Map([['processing.max_colors', '8']]), 'vectorize')['processing.max_colors']).toBe(8);
  });
});

describe('parseOptions: each kind', () => {
  it('bool: exactly true / false', () => {
    expect(one('output.svg.fixed_size', 'true')).toBe(true);
    expect(one('output.gap_filler.enabled', 'false')).toBe(false);
    for (const bad of ['True', 'TRUE', '1', '0', 'yes', '', ' true']) {
      const msg = errorOf([['output.svg.fixed_size', bad]]);
      expect(msg).toContain('output.svg.fixed_size');
      expect(msg).toContain('true or false');
      expect(msg).toContain(`'${bad}'`);
    }
  });

  it('int: decimal integers only', () => {
    expect(one('processing.max_colors', '16')).toBe(16);
    expect(one('processing.max_colors', '0')).toBe(0);
    expect(one('processing.max_colors', '256')).toBe(256);
    expect(one('processing.max_colors', '007')).toBe(7);
    expect(Object.is(one('policy.retention_days', '-0'), 0)).toBe(true);
    for (const bad of ['8.0', '8.5', '1e2', '0x10', '', ' 8', '8 ', '8px', 'NaN', 'Infinity']) {
      const msg = errorOf([['processing.max_colors', bad]]);
      expect(msg).toContain('processing.max_colors');
      expect(msg).toContain('integer in 0…256');
    }
  });

  it('float: decimals, reject NaN / Infinity / hex / empty / trailing junk', () => {
    expect(one('processing.shapes.min_area_px', '2.5')).toBe(2.5);
    expect(one('processing.shapes.min_area_px', '3')).toBe(3);
    expect(one('processing.shapes.min_area_px', '.5')).toBe(0.5);
    expect(one('processing.shapes.min_area_px', '1.')).toBe(1);
    expect(one('output.size.width', '1e3')).toBe(1000);
    expect(one('output.size.width', '1.0e12')).toBe(1e12);
    for (const bad of ['NaN', 'Infinity', '-Infinity', '0x10', '', ' ', '1.5px', '1,5', '1..2', '.', 'e5', '1e']) {
      const msg = errorOf([['processing.shapes.min_area_px', bad]]);
      expect(msg).toContain('processing.shapes.min_area_px');
      expect(msg).toContain('number in 0…100');
    }
    expect(errorOf([['output.size.width', '1e999']])).toContain('output.size.width');
  });

  it('enum: exact values, with a case hint', () => {
    expect(one('output.file_format', 'pdf')).toBe('pdf');
    expect(one('output.pdf.compression_mode', 'None')).toBe('None');
    const msg = errorOf([['output.file_format', 'jpg']]);
    expect(msg).toContain('output.file_format');
    expect(msg).toContain('svg, eps, pdf, dxf, png');
    expect(msg).toContain("'jpg'");
    expect(errorOf([['output.pdf.compression_mode', 'deflate']])).toContain('did you mean Deflate');
    expect(errorOf([['output.file_format', 'SVG']])).toContain('case-sensitive');
  });

  it('string: receipt on download', () => {
    expect(one('receipt', 'r-123', 'download')).toBe('r-123');
  });

  it('color: hex and rgba(), canonicalised', () => {
    expect(one('output.strokes.override_color', '#ff00ff')).toBe('#FF00FF');
    expect(one('output.strokes.override_color', '#FF00FF80')).toBe('#FF00FF80');
    expect(one('output.strokes.override_color', 'rgba(255, 0, 0, 1)')).toBe('#FF0000');
    expect(one('output.strokes.override_color', 'rgba(0,0,255,0.5)')).toBe('#0000FF80');
    for (const bad of ['#F0F', 'red', 'rgba(256,0,0,1)', 'rgba(0,0,0,2)', '']) {
      expect(errorOf([['output.strokes.override_color', bad]])).toContain('#RRGGBB');
    }
  });

  it('palette: validated, kept as text, parsed by toEngineParams', () => {
    const opts = parseOptions([['processing.palette', '#FF0000 -> #00FF00 ~ 0.02;']], 'vectorize');
    expect(opts['processing.palette']).toBe('#FF0000 -> #00FF00 ~ 0.02;');
    expect(toEngineParams(opts).palette).toEqual([
      { color: { r: 255, g: 0, b: 0, a: 255 }, remap: { r: 0, g: 255, b: 0, a: 255 }, tolerance: 0.02 },
    ]);
    const msg = errorOf([['processing.palette', '#FF0000; #XYZ;']]);
    expect(msg).toContain('processing.palette');
    expect(msg).toContain('entry 2');
  });
});

describe('parseOptions: range errors (1019) name field, range and value', () => {
  it('processing.max_colors=999', () => {
    const msg = errorOf([['processing.max_colors', '999']]);
    expect(msg).toContain('processing.max_colors');
    expect(msg).toContain('0…256');
    expect(msg).toContain("'999'");
  });

  it('boundaries', () => {
    expect(errorOf([['processing.max_colors', '-1']])).toContain("'-1'");
    expect(errorOf([['input.max_pixels', '99']])).toContain('100…3,145,828');
    expect(one('input.max_pixels', '100')).toBe(100);
    expect(one('input.max_pixels', '3145828')).toBe(3_145_828);
    expect(errorOf([['input.max_pixels', '3145829']])).toContain('input.max_pixels');
    expect(errorOf([['policy.retention_days', '31']])).toContain('0…30');
    expect(errorOf([['output.curves.line_fit_tolerance', '0.0009']])).toContain('0.001…1');
    expect(errorOf([['output.strokes.stroke_width', '5.01']])).toContain('0…5');
    expect(errorOf([['output.size.input_dpi', '0']])).toContain('1…1,000,000');
    expect(errorOf([['output.size.width', '2e12']])).toContain('0…1e12');
  });

  it('long received values are truncated to ~60 characters', () => {
    const msg = errorOf([['processing.max_colors', '9'.repeat(1000)]]);
    expect(msg.length).toBeLessThan(250);
    expect(msg).toContain(`'${'9'.repeat(60)}…'`);
    expect(msg).toContain('1000 characters');
  });
});

describe('parseOptions: field-level errors', () => {
  it('unknown field', () => {
    const msg = errorOf([['processing.colors', '8']]);
    expect(msg).toContain('Unknown parameter');
    expect(msg).toContain("'processing.colors'");
  });

  it('unknown field with a near miss suggests the right name', () => {
    expect(errorOf([['output.curves.allowed_elliptical_arc', 'true']])).toContain(
      'did you mean output.curves.allowed.elliptical_arc?',
    );
    expect(errorOf([['processing.parameterized_shapes.star.n3.enabled', 'true']])).toContain(
      'did you mean processing.parameterizedShapes.star.N3.enabled?',
    );
  });

  it('field given twice', () => {
    const msg = errorOf([
      ['processing.max_colors', '8'],
      ['processing.max_colors', '8'],
    ]);
    expect(msg).toContain('processing.max_colors');
    expect(msg).toContain('more than once');
  });

  it('download rejects processing.*, mode, input.max_pixels, policy.retention_days', () => {
    for (const [name, value] of [
      ['processing.max_colors', '8'],
      ['processing.palette', '#FF0000;'],
      ['processing.parameterizedShapes.star.N5.enabled', 'false'],
      ['mode', 'test'],
      ['input.max_pixels', '1000'],
      ['policy.retention_days', '1'],
    ] as const) {
      const msg = errorOf([[name, value]], 'download');
      expect(msg).toContain(name);
      expect(msg).toContain('not accepted on /download');
    }
  });

  it('download accepts output.* and receipt; vectorize rejects receipt', () => {
    const opts = parseOptions(
      [
        ['image.token', 'tok'],
        ['output.file_format', 'png'],
        ['receipt', 'abc'],
      ],
      'download',
    );
    expect(opts['output.file_format']).toBe('png');
    expect(opts['receipt']).toBe('abc');
    expect(errorOf([['receipt', 'abc']])).toContain('not accepted on /vectorize');
  });
});

describe('toFields', () => {
  it('round-trips non-default values', () => {
    const fields: [string, string][] = [
      ['processing.max_colors', '12'],
      ['processing.palette', '#FF0000;'],
      ['output.file_format', 'pdf'],
      ['output.strokes.override_color', '#FF00FF'],
      ['output.svg.fixed_size', 'true'],
      ['output.size.width', '250.5'],
    ];
    const opts = parseOptions(fields, 'vectorize');
    expect(toFields(opts, 'vectorize')).toEqual(fields);
    expect(parseOptions(toFields(opts, 'download'), 'download')['output.size.width']).toBe(250.5);
    expect(toFields(DEFAULT_OPTIONS, 'vectorize')).toEqual([]);
  });
});

describe('toEngineParams / toOutputOptions', () => {
  it('defaults', () => {
    expect(toEngineParams(DEFAULT_OPTIONS)).toEqual({
      maxColors: 0,
      palette: [],
      minAreaPx: 0.125,
      maxPixels: 2_097_252,
      shapeStacking: 'cutouts',
      gradients: false,
      layers: false,
      profile: 'auto',
      strokes: 'none',
      maxStrokeWidthPx: 0,
      parameterizedShapes: {
        ellipseGeneral: true,
        ellipseCircle: true,
        triangleGeneral: true,
        triangleIsosceles: true,
        quadrilateralGeneral: true,
        quadrilateralRectangle: true,
        quadrilateralBullet: true,
        starN3: true,
        starN4: true,
        starN5: true,
        starN6: true,
      },
    });
    expect(toOutputOptions(DEFAULT_OPTIONS)).toEqual(DEFAULT_OUTPUT_OPTIONS);
  });

  it("the engine's own defaults (DEFAULT_ENGINE_PARAMS, what the library and tests trace with) are what the API schema's defaults map to", () => {
    expect(DEFAULT_ENGINE_PARAMS).toEqual(toEngineParams(DEFAULT_OPTIONS));
  });

  it('maps each value', () => {
    const opts = parseOptions(
      [
        ['processing.max_colors', '4'],
        ['processing.shapes.min_area_px', '9'],
        ['input.max_pixels', '5000'],
        ['output.shape_stacking', 'stacked'],
        ['processing.parameterizedShapes.quadrilateral.bullet.enabled', 'false'],
        ['processing.parameterizedShapes.star.N4.enabled', 'false'],
        ['output.draw_style', 'stroke_edges'],
        ['output.group_by', 'color'],
        ['output.gap_filler.clip', 'true'],
        ['output.gap_filler.stroke_width', '1.5'],
        ['output.svg.version', 'svg_tiny_1_2'],
        ['output.svg.adobe_compatibility_mode', 'true'],
      ],
      'vectorize',
    );
    const p = toEngineParams(opts);
    expect(p).toMatchObject({ maxColors: 4, minAreaPx: 9, maxPixels: 5000, shapeStacking: 'stacked' });
    expect(p.parameterizedShapes.quadrilateralBullet).toBe(false);
    expect(p.parameterizedShapes.starN4).toBe(false);
    expect(p.parameterizedShapes.starN5).toBe(true);
    const o = toOutputOptions(opts);
    expect(o.drawStyle).toBe('stroke_edges');
    expect(o.groupBy).toBe('color');
    expect(o.gapFiller).toEqual({ enabled: true, nonScalingStroke: true, clip: true, strokeWidthPx: 1.5 });
    expect(o.svg).toEqual({ version: 'svg_tiny_1_2', fixedSize: false, adobeCompatibilityMode: true });
  });
});

describe('tracelab.profile (Tracelab extension)', () => {
  it('is an enum of the group tracelab, vectorize only, default auto', () => {
    const spec = OPTION_SCHEMA.find((o) => o.name === 'tracelab.profile')!;
    expect(spec).toMatchObject({ kind: 'enum', group: 'tracelab', default: 'auto', endpoints: ['vectorize'], values: ['auto', 'pixel', 'flat', 'photo', 'lineart'] });
  });

  it('is validated like any API enum, and reaches the engine as EngineParams.profile', () => {
    expect(toEngineParams(parseOptions([], 'vectorize')).profile).toBe('auto');
    for (const v of ['pixel', 'flat', 'photo', 'lineart'] as const) {
      expect(toEngineParams(parseOptions([['tracelab.profile', v]], 'vectorize')).profile).toBe(v);
    }
    expect(() => parseOptions([['tracelab.profile', 'Photo']], 'vectorize')).toThrow(/tracelab\.profile must be one of auto, pixel, flat, photo, lineart; received 'Photo'/);
    expect(() => parseOptions([['tracelab.profile', 'photo']], 'download')).toThrow(/tracelab\.profile/);
  });

  it('is dropped, with the note, on the way to the real service', () => {
    const { fields, dropped } = forRealService([
      ['processing.max_colors', '4'],
      ['tracelab.profile', 'photo'],
      ['tracelab.gradients', 'true'],
    ] as const);
    expect(fields).toEqual([['processing.max_colors', '4']]);
    expect(dropped).toEqual(['tracelab.profile', 'tracelab.gradients']);
    expect(notSentNote(dropped)).toBe('Not sent to Vectorizer.AI: tracelab.profile, tracelab.gradients (Tracelab extensions)');
  });
});

/** The Tracelab extension rule (src/api/extensions.ts): which options are extensions, which URL is the real service, what it gets. */
import { describe, expect, it } from 'vitest';

import { forRealService, isExtensionOption, isRealServiceUrl, notSentNote } from '../../src/api/extensions.js';
import { DEFAULT_OPTIONS, OPTION_GROUPS, OPTION_SCHEMA, parseOptions } from '../../src/api/options.js';

describe('Tracelab extension options', () => {
  it('are exactly the options of the tracelab group, whose title says they are not part of the API; all default off', () => {
    const extensions = OPTION_SCHEMA.filter((s) => isExtensionOption(s.name));
    expect(extensions.map((s) => s.name)).toEqual(OPTION_SCHEMA.filter((s) => s.group === 'tracelab').map((s) => s.name));
    expect(extensions.length).toBeGreaterThan(0);
    expect(OPTION_GROUPS.find((g) => g.id === 'tracelab')?.title).toMatch(/not part of the Vectorizer\.AI API/);
    // Default off: a request without them is a plain API request — no gradients, the profile picked
    // from the picture as the API does. A new extension must be added here with its off value.
    const given = parseOptions([], 'vectorize');
    expect(Object.fromEntries(extensions.map((s) => [s.name, given[s.name]]))).toEqual({ 'tracelab.gradients': false, 'tracelab.profile': 'auto' });
    expect(Object.fromEntries(extensions.map((s) => [s.name, DEFAULT_OPTIONS[s.name]]))).toEqual({ 'tracelab.gradients': false, 'tracelab.profile': 'auto' });
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
});

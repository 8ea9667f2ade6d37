/**
 * Probes of issue 37 against the API handler itself (createService, in process): the form caps and
 * the echo (item 2), credentials in image.url never echoed (item 1/6), a truncated TIFF (item 6).
 */
import UTIF from 'utif2';
import { describe, expect, it } from 'vitest';
import { LocalAccount } from '../../src/api/account.js';
import { ECHO_MAX_ENTRIES, MAX_FORM_PARTS } from '../../src/api/service-http.js';
import { createService } from '../../src/api/service.js';
import { createMemoryStore } from '../../src/api/storage/index.js';

const CREDENTIALS = { apiId: 'sec-id', apiSecret: 'sec-secret' };
const AUTH = `Basic ${btoa('sec-id:sec-secret')}`;

function service() {
  return createService({
    store: createMemoryStore(),
    account: new LocalAccount({ subscriptionPlan: 'p', subscriptionState: 'active', credits: 100 }),
    credentials: CREDENTIALS,
    // Never reached in these tests: every request is refused before a fetch.
    fetchImage: () => Promise.reject(new Error('no network in this test')),
  });
}

async function post(form: FormData): Promise<{ status: number; body: { error: { code: number; message: string }; dataReceived: Record<string, unknown> | null } }> {
  const res = await service()(new Request('http://tracelab.invalid/api/v1/vectorize', { method: 'POST', headers: { Authorization: AUTH }, body: form }));
  return { status: res.status, body: (await res.json()) as never };
}

describe('form caps (issue 37 item 2)', () => {
  it(`${MAX_FORM_PARTS} fields are read; one more is 400 / 1019 before the form is parsed`, async () => {
    const at = new FormData();
    for (let i = 0; i < MAX_FORM_PARTS; i++) at.append('x', String(i));
    const under = await post(at);
    expect(under.status).toBe(400);
    expect(under.body.error.code).toBe(1005); // read: no image source among the fields
    at.append('x', 'one more');
    const over = await post(at);
    expect(over).toMatchObject({ status: 400, body: { error: { code: 1019, message: `The form has more than ${MAX_FORM_PARTS} fields; the API takes a few dozen parameters at most.` } } });
  });

  it(`the error echo keeps the first ${ECHO_MAX_ENTRIES} values, in order`, async () => {
    const form = new FormData();
    for (let i = 0; i < 500; i++) form.append(i % 2 === 0 ? 'a' : 'b', String(i));
    const { body } = await post(form);
    const a = body.dataReceived!['a'] as string[];
    const b = body.dataReceived!['b'] as string[];
    expect(a.length + b.length).toBe(ECHO_MAX_ENTRIES);
    expect(a.slice(0, 3)).toEqual(['0', '2', '4']);
    expect(b.at(-1)).toBe(String(ECHO_MAX_ENTRIES - 1));
  });
});

describe('credentials in image.url (issue 37 items 1 and 6)', () => {
  it('are refused (400 / 1024) and appear neither in the message nor in the echo', async () => {
    const form = new FormData();
    form.append('image.url', 'http://admin:hunter2@images.example/a.png');
    form.append('mode', 'test');
    const { status, body } = await post(form);
    expect(status).toBe(400);
    expect(body.error.code).toBe(1024);
    expect(JSON.stringify(body)).not.toMatch(/hunter2|admin/);
    expect(body.dataReceived!['image.url']).toBe('http://***@images.example/a.png');
  });
});

describe('truncated TIFF (issue 37 item 6)', () => {
  it('is 400 / 1006, as docs/service.md says of truncated files', async () => {
    const size = 64;
    const whole = new Uint8Array(UTIF.encodeImage(new Uint8Array(size * size * 4).fill(90), size, size));
    const form = new FormData();
    form.append('image', new Blob([whole.subarray(0, whole.length >> 1)], { type: 'image/tiff' }), 'cut.tif');
    form.append('mode', 'test');
    const { status, body } = await post(form);
    expect(status).toBe(400);
    expect(body.error.code).toBe(1006);
  });
});

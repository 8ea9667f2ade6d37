/**
 * The service flows over a fake exporter (what is sent, what is recorded) and over the real
 * in-browser service host on fake-indexeddb (prices, receipts and API errors end to end).
 */
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';

import { useFakeIndexedDbGlobals } from '../../tests/helpers/fake-indexeddb.js';
import { TracelabError } from '../engine/errors.js';
import type { AccountInfo, ExportResult, RetainedImage, ServiceRequest, ServiceResponse } from '../worker/protocol.js';
import { createServiceHost } from '../worker/service-host.js';
import { exportInWorker } from '../worker/vectorize.js';
import {
  callVectorize,
  deleteToken,
  downloadToken,
  exportFormat,
  extensionOf,
  fileNameFor,
  parseApiError,
  parseCredits,
  refreshAccount,
  refreshRetained,
  resetAccount,
  setAccount,
  type ServiceExporter,
} from './service-flow.js';
import { createTracelabStore, type TracelabStore } from './store.js';

useFakeIndexedDbGlobals();

const encoder = new TextEncoder();
const ACCOUNT: AccountInfo = { subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 };

function png(): Uint8Array {
  const data = new Uint8Array(16 * 16 * 4);
  for (let i = 0; i < 256; i++) data.set(i % 16 < 8 ? [220, 30, 40, 255] : [30, 60, 220, 255], i * 4);
  return encode({ width: 16, height: 16, data, channels: 4, depth: 8 });
}

function storeWithSource(bytes: Uint8Array = png()): TracelabStore {
  const store = createTracelabStore();
  store.getState().setSource({ name: 'logo.png', bytes, size: bytes.length, type: 'image/png' });
  return store;
}

function errorResponse(status: number, code: number, message: string): ServiceResponse {
  return {
    status,
    headers: [['content-type', 'application/json']],
    body: encoder.encode(JSON.stringify({ error: { status, code, message }, dataReceived: null })),
  };
}

/** An exporter whose service answers with `respond`; every request is logged. */
function fakeExporter(respond: (request: ServiceRequest) => ServiceResponse | Promise<ServiceResponse>) {
  const log = { requests: [] as ServiceRequest[], exports: [] as { bytes: Uint8Array; fields: [string, string][] }[], accountCalls: 0, listCalls: 0 };
  let account = ACCOUNT;
  let retained: RetainedImage[] = [];
  const exporter: ServiceExporter & { log: typeof log; setRetained(r: RetainedImage[]): void } = {
    log,
    setRetained(r) {
      retained = r;
    },
    async callService(request) {
      log.requests.push(request);
      return respond(request);
    },
    async exportFile(bytes, fields): Promise<ExportResult> {
      log.exports.push({ bytes, fields });
      const format = fields.find(([n]) => n === 'output.file_format')?.[1] ?? 'svg';
      if (fields.some(([n, v]) => n === 'output.size.scale' && Number(v) > 100)) throw new TracelabError(1023, 400, 'The requested PNG would be too large');
      return { body: encoder.encode(`file:${format}`), contentType: format === 'pdf' ? 'application/pdf' : 'image/svg+xml', extension: format, ms: 3 };
    },
    async account() {
      log.accountCalls++;
      return account;
    },
    async setAccount(status) {
      account = status;
      return account;
    },
    async resetAccount() {
      account = ACCOUNT;
      return account;
    },
    async listRetained() {
      log.listCalls++;
      return retained;
    },
  };
  return exporter;
}

const fieldMap = (request: ServiceRequest): Record<string, unknown> => Object.fromEntries(request.fields.map(([n, v]) => [n, v]));

describe('helpers', () => {
  it('parse credits, API errors, extensions and file names', () => {
    expect(parseCredits('0.200000')).toBe(0.2);
    expect(parseCredits(null)).toBeNull();
    expect(parseCredits('abc')).toBeNull();
    expect(parseApiError(402, encoder.encode('{"error":{"status":402,"code":1011,"message":"Out of credits"}}'))).toEqual({ code: 1011, message: 'Out of credits' });
    expect(parseApiError(500, encoder.encode('<html>oops</html>'))).toEqual({ code: 0, message: 'HTTP 500 without an API error body' });
    expect(extensionOf('application/postscript')).toBe('eps');
    expect(extensionOf('image/svg+xml; charset=utf-8')).toBe('svg');
    expect(extensionOf('application/x-unknown')).toBe('bin');
    expect(fileNameFor('photo.final.jpg', 'pdf')).toBe('photo.final.pdf');
    expect(fileNameFor(null, 'svg')).toBe('traced.svg');
  });
});

describe('service flows over a fake exporter', () => {
  it('callVectorize posts image, options, mode and retention; records the cost line, token and file', async () => {
    const store = storeWithSource();
    store.getState().setOptionText('processing.max_colors', '4');
    store.getState().setService({ mode: 'test', retentionDays: 3 });
    let busyDuringCall = false;
    const exporter = fakeExporter(() => {
      busyDuringCall = store.getState().service.busy;
      return {
        status: 200,
        headers: [
          ['content-type', 'image/svg+xml'],
          ['x-credits-charged', '0.000000'],
          ['x-credits-calculated', '1.020000'],
          ['x-image-token', 'api-test-abc'],
        ],
        body: encoder.encode('<?xml version="1.0"?><svg/>'),
      };
    });
    const call = await callVectorize(store, exporter);
    const sent = fieldMap(exporter.log.requests[0]!);
    expect(exporter.log.requests[0]!.endpoint).toBe('vectorize');
    expect(sent).toMatchObject({ 'processing.max_colors': '4', mode: 'test', 'policy.retention_days': '3' });
    expect(sent.image).toMatchObject({ filename: 'logo.png', type: 'image/png' });
    expect(busyDuringCall).toBe(true);
    const { service } = store.getState();
    expect(service.busy).toBe(false);
    expect(service.last).toEqual(call);
    expect(call).toMatchObject({ endpoint: 'vectorize', mode: 'test', status: 200, charged: 0, calculated: 1.02, token: 'api-test-abc', receipt: null, error: null, id: 1 });
    expect(service.file).toMatchObject({ contentType: 'image/svg+xml', extension: 'svg' });
    // Credits and the token list are reloaded after the call.
    expect(exporter.log.accountCalls).toBe(1);
    expect(exporter.log.listCalls).toBe(1);
    expect(service.account).toEqual(ACCOUNT);
    // Ids increase with every call.
    expect((await callVectorize(store, exporter)).id).toBe(2);
  });

  it('downloadToken sends the known receipt and keeps a newly issued one', async () => {
    const store = storeWithSource();
    store.getState().setOptionText('output.svg.version', 'svg_1_0');
    store.getState().setOptionText('processing.max_colors', '4');
    let n = 0;
    const exporter = fakeExporter(() => ({
      status: 200,
      headers: [['content-type', 'application/pdf'], ['x-credits-charged', n++ === 0 ? '0.900000' : '0.100000'], ...(n === 1 ? [['x-receipt', 'R1'] as const] : [])],
      body: encoder.encode('%PDF-1.4'),
    }));
    const retained: RetainedImage = { token: 'T1', mode: 'preview', createdAt: 0, expiresAt: 86_400_000, receipt: null, bytes: 10 };
    store.getState().setService({ retained: [retained] });
    exporter.setRetained([retained]);

    const upgrade = await downloadToken(store, exporter, 'T1', 'pdf');
    const first = fieldMap(exporter.log.requests[0]!);
    expect(first).toEqual({ 'image.token': 'T1', 'output.svg.version': 'svg_1_0', 'output.file_format': 'pdf' }); // no processing.*, no receipt yet
    expect(upgrade).toMatchObject({ endpoint: 'download', mode: 'preview', token: 'T1', receipt: 'R1', charged: 0.9 });
    expect(store.getState().service.receipts).toEqual({ T1: 'R1' });

    const other = await downloadToken(store, exporter, 'T1', 'svg');
    expect(fieldMap(exporter.log.requests[1]!)).toMatchObject({ 'image.token': 'T1', receipt: 'R1', 'output.file_format': 'svg' });
    expect(other.charged).toBe(0.1);
    expect(store.getState().service.receipts).toEqual({ T1: 'R1' });

    // A receipt the store kept (from an earlier session) is used too.
    const store2 = storeWithSource();
    store2.getState().setService({ retained: [{ ...retained, receipt: 'R0' }] });
    await downloadToken(store2, exporter, 'T1', 'svg');
    expect(fieldMap(exporter.log.requests[2]!).receipt).toBe('R0');
  });

  it('deleteToken forgets the token and its receipt', async () => {
    const store = storeWithSource();
    const exporter = fakeExporter(() => ({ status: 200, headers: [['content-type', 'application/json']], body: encoder.encode('{"success":true}') }));
    store.getState().setService({
      retained: [{ token: 'T1', mode: 'test', createdAt: 0, expiresAt: 1, receipt: null, bytes: 1 }],
      receipts: { T1: 'R1', T2: 'R2' },
      file: { body: new Uint8Array([1]), contentType: 'image/png', extension: 'png' },
    });
    const call = await deleteToken(store, exporter, 'T1');
    expect(call).toMatchObject({ endpoint: 'delete', status: 200, token: 'T1', error: null, mode: 'test' });
    expect(store.getState().service.receipts).toEqual({ T2: 'R2' });
    expect(store.getState().service.retained).toEqual([]);
    // The JSON answer of /delete is not a result file: the last file stays.
    expect(store.getState().service.file?.extension).toBe('png');
  });

  it('errors land in service.last.error, never thrown: API JSON, worker failures, bad account values', async () => {
    const store = storeWithSource();
    const exporter = fakeExporter(() => errorResponse(402, 1011, 'Out of credits: this call costs 1.000000 credits'));
    const poor = await callVectorize(store, exporter);
    expect(poor).toMatchObject({ status: 402, error: { code: 1011, message: 'Out of credits: this call costs 1.000000 credits' }, charged: null });
    expect(store.getState().service.file).toBeNull();

    const broken = fakeExporter(() => {
      throw new TracelabError(0, 500, 'The trace worker stopped');
    });
    await expect(callVectorize(store, broken)).resolves.toMatchObject({ status: 500, error: { code: 0, message: 'The trace worker stopped' } });
    expect(store.getState().service.busy).toBe(false);

    const bad = await setAccount(store, exporter, { subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: -1 });
    expect(bad).toMatchObject({ endpoint: 'account', status: 400, error: { code: 0 } });
    expect(bad.error?.message).toMatch(/^credits: expected a non-negative/);

    const failing: ServiceExporter = {
      ...exporter,
      account: () => Promise.reject(new Error('IndexedDB is not available')),
      listRetained: () => Promise.reject(new Error('IndexedDB is not available')),
    };
    await expect(refreshAccount(store, failing)).resolves.toBeNull();
    expect(store.getState().service.last?.error?.message).toBe('IndexedDB is not available');
    await expect(refreshRetained(store, failing)).resolves.toBeUndefined();

    // No image yet: a local error, nothing sent.
    const empty = createTracelabStore();
    const before = exporter.log.requests.length;
    expect((await callVectorize(empty, exporter)).error?.message).toBe('Choose an image first.');
    expect(exporter.log.requests.length).toBe(before);
  });

  it('a failed call or a new image drops the previous call\'s file (no 1011 above the old PDF, issue 17)', async () => {
    const store = storeWithSource();
    let answer: 'pdf' | '1011' | '1019' = 'pdf';
    const exporter = fakeExporter(() =>
      answer === 'pdf'
        ? { status: 200, headers: [['content-type', 'application/pdf'], ['x-credits-charged', '1.000000']], body: encoder.encode('%PDF-1.4') }
        : answer === '1011'
          ? errorResponse(402, 1011, 'Out of credits')
          : errorResponse(400, 1019, 'Invalid parameter'),
    );
    await callVectorize(store, exporter);
    expect(store.getState().service.file).toMatchObject({ contentType: 'application/pdf' });
    answer = '1011';
    await callVectorize(store, exporter);
    expect(store.getState().service.last?.error?.code).toBe(1011);
    expect(store.getState().service.file).toBeNull();

    answer = 'pdf';
    await callVectorize(store, exporter);
    answer = '1019';
    await downloadToken(store, exporter, 'api-test-abc', 'pdf');
    expect(store.getState().service.file).toBeNull();

    answer = 'pdf';
    await callVectorize(store, exporter);
    store.getState().setSource({ name: 'other.png', bytes: new Uint8Array([1]), size: 1, type: 'image/png' });
    expect(store.getState().service.file).toBeNull();
  });

  it('an input that cannot be loaded replaces the previous image: no old picture or result stays (issue 17)', () => {
    const store = storeWithSource();
    const id = store.getState().startJob();
    const palette = [{ hex: '#000000', areaPx: 1, shapes: 1 }];
    store.getState().finishJob(id, { svg: '<svg/>', previewPng: null, stats: { profile: 'flat', colors: 1, regions: 1, shapes: 1, bytes: 6, nodes: 4, palette }, ms: 1, width: 1, height: 1 });
    store.getState().reportError({ code: 1006, message: 'The image at https://example.com/x.png could not be fetched' });
    expect(store.getState().source).toBeNull();
    expect(store.getState().job).toMatchObject({ status: 'error', svg: null, stats: null, error: { code: 1006 } });
  });

  it('refreshes and account changes: a successful refresh keeps the cost line', async () => {
    const store = storeWithSource();
    const exporter = fakeExporter(() => ({ status: 200, headers: [['content-type', 'image/png'], ['x-credits-charged', '0.200000']], body: new Uint8Array([137]) }));
    store.getState().setService({ mode: 'preview' });
    const call = await callVectorize(store, exporter);
    await refreshAccount(store, exporter);
    await refreshRetained(store, exporter);
    expect(store.getState().service.last).toBe(call);
    const set = await setAccount(store, exporter, { subscriptionPlan: 'vec_999m_50', subscriptionState: 'pastDue', credits: 0.1 });
    expect(set).toMatchObject({ endpoint: 'account', status: 200, error: null, id: call.id + 1 });
    expect(store.getState().service.account).toEqual({ subscriptionPlan: 'vec_999m_50', subscriptionState: 'pastDue', credits: 0.1 });
    await resetAccount(store, exporter);
    expect(store.getState().service.account?.credits).toBe(100);
  });

  it('exportFormat exports a copy of the source with the current options and the format', async () => {
    const bytes = png();
    const store = storeWithSource(bytes);
    store.getState().setOptionText('output.file_format', 'eps'); // replaced by the button's format
    store.getState().setOptionText('processing.max_colors', '3');
    const exporter = fakeExporter(() => errorResponse(500, -1, 'unused'));
    const out = await exportFormat(store, exporter, 'pdf');
    expect(out).toMatchObject({ ok: true, name: 'logo.pdf', file: { contentType: 'application/pdf', extension: 'pdf' } });
    const sent = exporter.log.exports[0]!;
    expect(sent.fields).toEqual([['processing.max_colors', '3'], ['output.file_format', 'pdf']]);
    expect(sent.bytes).not.toBe(store.getState().source!.bytes); // transferred copy; the store keeps its own
    expect(sent.bytes).toEqual(bytes);
    // The service slice is not touched by plain downloads.
    expect(store.getState().service.last).toBeNull();

    store.getState().setOptionText('output.size.scale', '500');
    expect(await exportFormat(store, exporter, 'png')).toEqual({ ok: false, error: { code: 1023, message: 'The requested PNG would be too large' } });
    expect(await exportFormat(createTracelabStore(), exporter, 'svg')).toMatchObject({ ok: false });
  });
});

describe('service flows over the real in-browser service host', () => {
  function realExporter(): ServiceExporter {
    const host = createServiceHost({ indexedDB: new FakeIDBFactory() });
    return {
      callService: (request) => host.call(request),
      exportFile: (bytes, fields) => exportInWorker(bytes, fields),
      account: () => host.account(),
      setAccount: (status) => host.setAccount(status),
      resetAccount: () => host.resetAccount(),
      listRetained: () => host.listRetained(),
    };
  }

  it('preview → token retained → upgrade issues a receipt → another format at the receipt rate → delete', async () => {
    const store = storeWithSource();
    const exporter = realExporter();
    await refreshAccount(store, exporter);
    expect(store.getState().service.account?.credits).toBe(100);

    store.getState().setService({ mode: 'preview', retentionDays: 1 });
    const preview = await callVectorize(store, exporter);
    expect(preview).toMatchObject({ status: 200, mode: 'preview', charged: 0.2, contentType: 'image/png', error: null });
    const token = preview.token!;
    expect(token).toBeTruthy();
    expect(store.getState().service.file?.extension).toBe('png');
    expect(store.getState().service.account?.credits).toBeCloseTo(99.8, 6);
    expect(store.getState().service.retained).toMatchObject([{ token, mode: 'preview', receipt: null }]);

    const upgrade = await downloadToken(store, exporter, token, 'svg');
    expect(upgrade).toMatchObject({ status: 200, endpoint: 'download', mode: 'preview', charged: 0.9, contentType: 'image/svg+xml' });
    expect(upgrade.receipt).toBeTruthy();
    expect(store.getState().service.receipts[token]).toBe(upgrade.receipt);
    expect(store.getState().service.retained[0]!.receipt).toBe(upgrade.receipt);
    expect(store.getState().service.account?.credits).toBeCloseTo(98.9, 6);

    const pdf = await downloadToken(store, exporter, token, 'pdf');
    expect(pdf).toMatchObject({ status: 200, charged: 0.1, receipt: null, contentType: 'application/pdf' });
    expect(new TextDecoder().decode(store.getState().service.file!.body.subarray(0, 8))).toBe('%PDF-1.4');
    expect(store.getState().service.account?.credits).toBeCloseTo(98.8, 6);

    const deleted = await deleteToken(store, exporter, token);
    expect(deleted).toMatchObject({ status: 200, error: null });
    expect(store.getState().service.retained).toEqual([]);
    expect(store.getState().service.receipts).toEqual({});
    const again = await downloadToken(store, exporter, token, 'svg');
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(again.error?.code).toBeGreaterThan(1000);
  });

  it('cost line numbers: test modes are free and report what the non-test call would cost', async () => {
    const store = storeWithSource();
    const exporter = realExporter();
    store.getState().setService({ mode: 'test', retentionDays: 3 });
    expect(await callVectorize(store, exporter)).toMatchObject({ status: 200, charged: 0, calculated: 1.02 });
    store.getState().setService({ mode: 'test_preview', retentionDays: 0 });
    expect(await callVectorize(store, exporter)).toMatchObject({ status: 200, charged: 0, calculated: 0.2, token: null, contentType: 'image/png' });
    store.getState().setService({ mode: 'production', retentionDays: 2 });
    expect(await callVectorize(store, exporter)).toMatchObject({ status: 200, charged: 1.01 });
    expect(store.getState().service.account?.credits).toBeCloseTo(98.99, 6);
  });

  it('errors: 402/1011 after setting credits to 0.1, 1019 for a wrong receipt; reset restores 100', async () => {
    const store = storeWithSource();
    const exporter = realExporter();
    await setAccount(store, exporter, { subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 0.1 });
    expect(store.getState().service.account?.credits).toBe(0.1);
    store.getState().setService({ mode: 'production', retentionDays: 0 });
    const poor = await callVectorize(store, exporter);
    expect(poor).toMatchObject({ status: 402, error: { code: 1011 }, charged: 0 }); // failed calls report 0
    expect(poor.error?.message).toMatch(/Out of credits/);
    expect(store.getState().service.account?.credits).toBe(0.1); // failed calls are free

    // A test token with a receipt that is not its own → 400/1019.
    store.getState().setService({ mode: 'test', retentionDays: 1 });
    const test = await callVectorize(store, exporter);
    store.getState().setService({ receipts: { [test.token!]: 'not-the-receipt' } });
    const wrong = await downloadToken(store, exporter, test.token!, 'svg');
    expect(wrong).toMatchObject({ status: 400, error: { code: 1019 } });
    expect(wrong.error?.message).toMatch(/receipt/);

    await resetAccount(store, exporter);
    expect(store.getState().service.account).toEqual({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 });
  });
});

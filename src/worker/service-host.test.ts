/**
 * The in-browser local service over fake-indexeddb: the same /api/v1 rules as the CLI server,
 * with retained images, receipts and the account surviving a new host (a page reload).
 */
import { IDBFactory as FakeIDBFactory } from 'fake-indexeddb';
import { encode } from 'fast-png';
import { describe, expect, it } from 'vitest';

import { useFakeIndexedDbGlobals } from '../../tests/helpers/fake-indexeddb.js';
import type { ServiceResponse } from './protocol.js';
import { createServiceHost } from './service-host.js';

useFakeIndexedDbGlobals();

function png(): Uint8Array {
  const data = new Uint8Array(16 * 16 * 4);
  for (let i = 0; i < 256; i++) data.set(i % 16 < 8 ? [220, 30, 40, 255] : [30, 60, 220, 255], i * 4);
  return encode({ width: 16, height: 16, data, channels: 4, depth: 8 });
}

const header = (r: ServiceResponse, name: string): string | undefined => r.headers.find(([n]) => n === name)?.[1];
const image = (): readonly [string, { bytes: Uint8Array; filename: string; type: string }] => ['image', { bytes: png(), filename: 'x.png', type: 'image/png' }];

describe('createServiceHost', () => {
  it('preview → retained token → upgrade with receipt → other format; credits persist across hosts', async () => {
    const indexedDB = new FakeIDBFactory();
    const host = createServiceHost({ indexedDB });
    expect((await host.account()).credits).toBe(100);
    const preview = await host.call({ endpoint: 'vectorize', fields: [image(), ['mode', 'preview'], ['policy.retention_days', '1']] });
    expect(preview.status).toBe(200);
    expect(header(preview, 'content-type')).toBe('image/png');
    const charged = [Number(header(preview, 'x-credits-charged'))];
    expect(charged[0]).toBeGreaterThan(0);
    const token = header(preview, 'x-image-token')!;
    expect((await host.listRetained()).map((r) => r.token)).toEqual([token]);

    const upgrade = await host.call({ endpoint: 'download', fields: [['image.token', token]] });
    expect(upgrade.status).toBe(200);
    const receipt = header(upgrade, 'x-receipt')!;
    charged.push(Number(header(upgrade, 'x-credits-charged')));
    expect(receipt).toBeTruthy();
    const pdf = await host.call({ endpoint: 'download', fields: [['image.token', token], ['receipt', receipt], ['output.file_format', 'pdf']] });
    expect(header(pdf, 'content-type')).toBe('application/pdf');
    expect(new TextDecoder().decode(pdf.body.subarray(0, 8))).toBe('%PDF-1.4');
    expect(header(pdf, 'x-credits-charged')).toBe('0.100000');
    charged.push(0.1);

    // A reload: a new host over the same database sees the same credits, token and receipt.
    const again = createServiceHost({ indexedDB });
    expect((await again.account()).credits).toBeCloseTo(100 - charged.reduce((a, b) => a + b, 0), 6);
    expect((await again.listRetained())[0]).toMatchObject({ token, receipt, mode: 'preview' });
    const deleted = await again.call({ endpoint: 'delete', fields: [['image.token', token]] });
    expect(new TextDecoder().decode(deleted.body)).toBe('{"success":true}');
    expect(await again.listRetained()).toEqual([]);
  });

  it('errors are the API error JSON; the account can be set and reset', async () => {
    const host = createServiceHost({ indexedDB: new FakeIDBFactory() });
    const bad = await host.call({ endpoint: 'vectorize', fields: [image(), ['processing.max_colors', '999']] });
    expect(bad.status).toBe(400);
    expect(JSON.parse(new TextDecoder().decode(bad.body))).toMatchObject({ error: { code: 1019 } });
    await host.setAccount({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 0.5 });
    const poor = await host.call({ endpoint: 'vectorize', fields: [image(), ['mode', 'production']] });
    expect(poor.status).toBe(402);
    expect(JSON.parse(new TextDecoder().decode(poor.body)).error.code).toBe(1011);
    const test = await host.call({ endpoint: 'vectorize', fields: [image(), ['mode', 'test']] });
    expect(test.status).toBe(200);
    expect(await host.resetAccount()).toEqual({ subscriptionPlan: 'tracelab_local', subscriptionState: 'active', credits: 100 });
    await expect(host.setAccount({ subscriptionPlan: 'x', subscriptionState: 'weird' as 'active', credits: 1 })).rejects.toThrow(/subscriptionState/);
  });
});

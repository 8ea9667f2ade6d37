/**
 * image.url fetching in the Node service refuses loopback/private targets (SSRF guard) unless
 * allowed, also behind a redirect, and streams a public answer through.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetchImage, isPrivateAddress } from '../../src/cli/safe-fetch.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/redirect') {
      res.writeHead(302, { Location: `${base}/image.png` });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'image/png' });
    res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const signal = () => new AbortController().signal;

describe('createSafeFetchImage', () => {
  it('classifies addresses', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '224.0.0.1']) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '172.32.0.1']) expect(isPrivateAddress(a), a).toBe(false);
  });

  it('refuses loopback by literal address and by name, and after a redirect', async () => {
    const fetchImage = createSafeFetchImage();
    await expect(fetchImage(`${base}/image.png`, signal())).rejects.toThrow(/non-public address/);
    await expect(fetchImage(base.replace('127.0.0.1', 'localhost') + '/image.png', signal())).rejects.toThrow(/non-public address/);
    const allowed = createSafeFetchImage({ allowPrivate: true });
    // The redirect target is private too; with allowPrivate the whole chain is followed.
    const res = await allowed(`${base}/redirect`, signal());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });
});

/**
 * image.url fetching in the Node service refuses every non-public target (SSRF guard) unless
 * allowed — by literal address in any IPv6 spelling that carries a private IPv4 address, by name,
 * and after a redirect — refuses credentials in the URL, and streams a public answer through.
 * Only loopback is ever connected to: "public" first hops are simulated by letting exactly
 * 127.0.0.1 through (`allowAddresses`), so the guard's other decisions are the ones under test.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetchImage, isPrivateAddress, RefusedAddressError } from '../../src/cli/safe-fetch.js';
import { addressKeysOf, isPublicAddress } from '../../src/cli/public-address.js';
import { urlNotFetchedError } from '../../src/api/image-url.js';
import { urlBytes, type FetchImage } from '../../src/api/service-image.js';
import { TracelabError } from '../../src/engine/errors.js';

let server: Server;
let base: string;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits++;
    const to = /^\/to\/(.+)$/.exec(req.url ?? '');
    if (req.url === '/redirect') {
      res.writeHead(302, { Location: `${base}/image.png` });
      res.end();
      return;
    }
    if (to) {
      // A "public" host that redirects to the address in the path.
      res.writeHead(302, { Location: decodeURIComponent(to[1]!) });
      res.end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'image/png' });
    res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const signal = () => new AbortController().signal;

/** Every spelling of a loopback or other non-public target that a URL can carry. */
const PRIVATE_TARGETS = [
  '[::ffff:127.0.0.1]', // the URL parser rewrites it to [::ffff:7f00:1]
  '[::ffff:7f00:1]',
  '[::127.0.0.1]', // IPv4-compatible
  '[::ffff:0:7f00:1]', // SIIT
  '[64:ff9b::7f00:1]', // NAT64
  '[2002:7f00:1::1]', // 6to4
  '[::ffff:a9fe:a9fe]', // 169.254.169.254, the cloud metadata service
  '[::1]',
  '127.0.0.2',
  '0x7f.0.0.3', // the URL parser reads it as 127.0.0.3
];

describe('isPublicAddress (parsed bytes, one answer per address whatever its spelling)', () => {
  it('refuses IPv6 forms that carry a non-public IPv4 address, and every special-purpose block', () => {
    const none = new Set<string>();
    for (const a of [
      '::ffff:127.0.0.1', '::ffff:7f00:1', '::FFFF:7F00:0001', '::ffff:a9fe:a9fe', '::ffff:10.0.0.1', '::ffff:0:7f00:1', '::127.0.0.1', '::7f00:1', '::', '::1',
      '64:ff9b::7f00:1', '64:ff9b::a00:1', '64:ff9b::169.254.169.254', '2002:7f00:1::', '2002:c0a8:101::1', '2002:a9fe:a9fe::',
      '64:ff9b:1::1', '100::1', '2001::1', '2001:db8::1', '3fff::1', 'fc00::1', 'fd12:3456::1', 'fe80::1%eth0', 'fec0::1', 'ff02::1',
      '127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '192.0.0.8', '192.0.2.1',
      '192.88.99.1', '198.18.0.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '240.0.0.1', '255.255.255.255',
      'localhost', 'not an address',
    ]) {
      expect(isPublicAddress(a, none), a).toBe(false);
    }
  });

  it('lets public addresses through, also when an IPv6 form carries a public IPv4 address', () => {
    const none = new Set<string>();
    for (const a of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '2a00:1450::1', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1']) {
      expect(isPublicAddress(a, none), a).toBe(true);
    }
  });

  it("refuses this host's own addresses, in any spelling", () => {
    // A public-looking address the host owns (a VM with a public IP) is as internal as loopback.
    const own = addressKeysOf(['8.8.4.4', '2a00:1450::99']);
    expect(isPublicAddress('8.8.4.4', own)).toBe(false);
    expect(isPublicAddress('::ffff:808:404', own)).toBe(false);
    expect(isPublicAddress('2a00:1450:0:0:0:0:0:99', own)).toBe(false);
    expect(isPublicAddress('8.8.8.8', own)).toBe(true);
    // By default the list is read from the machine's interfaces.
    for (const list of Object.values(networkInterfaces())) for (const info of list ?? []) expect(isPrivateAddress(info.address), info.address).toBe(true);
  });
});

describe('createSafeFetchImage', () => {
  it('refuses loopback by literal address and by name, and after a redirect', async () => {
    const fetchImage = createSafeFetchImage();
    await expect(fetchImage(`${base}/image.png`, signal())).rejects.toThrow(RefusedAddressError);
    await expect(fetchImage(base.replace('127.0.0.1', 'localhost') + '/image.png', signal())).rejects.toThrow(RefusedAddressError);
    const allowed = createSafeFetchImage({ allowPrivate: true });
    // The redirect target is private too; with allowPrivate the whole chain is followed.
    const res = await allowed(`${base}/redirect`, signal());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect([...new Uint8Array(await res.arrayBuffer())]).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  it.each(PRIVATE_TARGETS)('refuses %s as the first hop, without connecting', async (host) => {
    const fetchImage = createSafeFetchImage({ allowAddresses: ['127.0.0.1'] });
    const before = hits;
    await expect(fetchImage(`http://${host}:${port}/image.png`, signal())).rejects.toThrow(RefusedAddressError);
    expect(hits).toBe(before);
  });

  it.each(PRIVATE_TARGETS)('refuses %s behind a redirect from an allowed host', async (host) => {
    const fetchImage = createSafeFetchImage({ allowAddresses: ['127.0.0.1'] });
    // The allowed host itself is fetched (and answers) …
    expect((await fetchImage(`${base}/image.png`, signal())).status).toBe(200);
    // … but its redirect to the private target is refused before a connection.
    const before = hits;
    await expect(fetchImage(`${base}/to/${encodeURIComponent(`http://${host}:${port}/image.png`)}`, signal())).rejects.toThrow(RefusedAddressError);
    expect(hits).toBe(before + 1); // the redirecting hop only
  });

  it('refuses a URL with user:password@, first hop or redirect, and never sends it', async () => {
    const fetchImage = createSafeFetchImage({ allowAddresses: ['127.0.0.1'] });
    const before = hits;
    await expect(fetchImage(`http://user:pw@127.0.0.1:${port}/image.png`, signal())).rejects.toThrow(/credentials/);
    expect(hits).toBe(before);
    await expect(fetchImage(`${base}/to/${encodeURIComponent(`http://u:p@127.0.0.1:${port}/image.png`)}`, signal())).rejects.toThrow(/credentials/);
  });
});

describe('the service answer to image.url: one message for every refused or failed fetch (no port scanning)', () => {
  /** The error urlBytes (the service's image.url) gives for `href` fetched by `fetchImage`. */
  async function serviceError(href: string, fetchImage: FetchImage, timeoutMs = 5_000): Promise<{ status: number; code: number; message: string }> {
    try {
      await urlBytes(href, fetchImage, timeoutMs);
    } catch (e) {
      if (e instanceof TracelabError) return { status: e.status, code: e.code, message: e.message };
      throw e;
    }
    throw new Error('expected a refusal');
  }

  it('refused address, connection refused, reset, timeout and a 401 differ in nothing but the address (and 1020 for the answer)', async () => {
    const sockets = new Set<Socket>();
    const odd = createServer((req, res) => {
      if (req.url === '/reset') req.socket.destroy();
      else if (req.url !== '/hang') {
        // (/hang never answers)
        res.writeHead(401, { 'WWW-Authenticate': 'Basic' });
        res.end('who are you');
      }
    });
    odd.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    const oddBase = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
    // A port nobody listens on: bind one, then free it.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    try {
      const guarded = createSafeFetchImage();
      const open = createSafeFetchImage({ allowPrivate: true });
      const answers = [
        { href: `http://[::ffff:7f00:1]:${port}/image.png`, error: await serviceError(`http://[::ffff:7f00:1]:${port}/image.png`, guarded) },
        { href: `${oddBase}/x.png`, error: await serviceError(`${oddBase}/x.png`, guarded) },
        { href: `http://127.0.0.1:${closedPort}/x.png`, error: await serviceError(`http://127.0.0.1:${closedPort}/x.png`, open) },
        { href: `${oddBase}/reset`, error: await serviceError(`${oddBase}/reset`, open) },
        { href: `${oddBase}/hang`, error: await serviceError(`${oddBase}/hang`, open, 200) },
        { href: `${oddBase}/401`, error: await serviceError(`${oddBase}/401`, open) },
      ];
      for (const { href, error } of answers) {
        expect(error, href).toEqual({ status: 400, code: href.endsWith('/401') ? 1020 : 1022, message: urlNotFetchedError(new URL(href).href).message });
      }
      expect(new Set(answers.map(({ href, error }) => error.message.replace(new URL(href).href, 'URL'))).size).toBe(1);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => odd.close(() => resolve()));
    }
  });
});

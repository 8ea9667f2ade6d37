/**
 * Browser checks of remote mode (src/ui/RemotePanel.tsx). The machine has no internet, so the real
 * service (and a user's proxy) are fakes installed with page.route: a small SVG with the credit
 * headers for the right credentials, the API's 401 error JSON for wrong ones, and — to mimic what
 * to expect from the real service — optionally no CORS headers at all.
 *
 * In: an E2eContext from scripts/e2e.mjs (`--spec remote`). Out: one CheckResult per check. The
 * checks share one page and run in order; the security checks at the end look for the credentials
 * in every place a browser keeps data: localStorage, sessionStorage, IndexedDB, Cache Storage,
 * cookies, the URL, the console and the page text (code snippets included).
 */

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';

import type { Page, Request, Route } from 'playwright-core';

import { fetchText, fixturePng, noProblemsCheck, openPage, runCheckList, TIMEOUT, upload, waitForDone } from './harness.js';
import type { Check, CheckResult, E2eContext } from './harness.js';

const SERVICE = 'https://api.vectorizer.ai/api/v1';
const PROXY = 'http://127.0.0.1:8790';
const API_ID = 'e2e-id-5d1b7a';
const API_SECRET = 'e2e-Secret-Q7v9zR2m';
const WRONG_SECRET = 'e2e-wrong-K4p8';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
/** Every form the credentials could be kept in. */
const LEAKS = [API_ID, API_SECRET, WRONG_SECRET, basic(API_ID, API_SECRET).slice(6), basic(API_ID, WRONG_SECRET).slice(6)];
const FAKE_SVG =
  '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 96 80" width="96" height="80">' +
  '<rect x="8" y="8" width="80" height="64" fill="#2454d6"/></svg>\n';
const EXPOSED = 'X-Credits-Charged, X-Credits-Calculated, X-Image-Token, X-Receipt, Content-Disposition';

// ---------------------------------------------------------------------------------------------
// The fake service and proxy

interface Received {
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: string;
}

const fake = {
  /** The real service sends no CORS headers (what to expect); the checks switch this. */
  cors: false,
  received: [] as Received[],
};

async function answer(route: Route, request: Request, withCors: boolean): Promise<void> {
  if (!withCors) {
    // route.fulfill() adds CORS headers by itself when they are missing, so a missing-CORS answer
    // cannot be faked with it: fail the request, which is exactly what the page then sees (a bare
    // TypeError). The genuine browser block is checked against a real server without CORS below.
    fake.received.push({ url: request.url(), authorization: request.headers()['authorization'], body: '' });
    await route.abort('failed');
    return;
  }
  const origin = request.headers()['origin'] ?? '*';
  const cors: Record<string, string> = { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED };
  fake.received.push({
    url: request.url(),
    authorization: request.headers()['authorization'],
    body: request.postDataBuffer()?.toString('latin1') ?? '',
  });
  if (request.headers()['authorization'] !== basic(API_ID, API_SECRET)) {
    await route.fulfill({
      status: 401,
      headers: { ...cors, 'Content-Type': 'application/json', 'WWW-Authenticate': 'Basic realm="Vectorizer.AI"' },
      body: JSON.stringify({ error: { status: 401, code: 1004, message: 'Invalid API secret.' } }),
    });
    return;
  }
  await route.fulfill({
    status: 200,
    headers: { ...cors, 'Content-Type': 'image/svg+xml', 'X-Credits-Charged': '0.000000', 'X-Credits-Calculated': '1.000000' },
    body: FAKE_SVG,
  });
}

// ---------------------------------------------------------------------------------------------
// Page helpers

const costLine = (page: Page) => page.getByTestId('remote-cost');
const remoteImg = (page: Page) => page.getByRole('img', { name: 'Real service result', exact: true });
const localImg = (page: Page) => page.getByRole('img', { name: 'Local preview for comparison', exact: true });
const vectorizeButton = (page: Page) => page.getByRole('button', { name: 'Vectorize with the real service' });

async function waitForCost(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector('[data-testid="remote-cost"]')?.textContent ?? ''),
    pattern.source,
    { timeout: TIMEOUT },
  );
  return ((await costLine(page).textContent()) ?? '').trim();
}

async function fillCredentials(page: Page, id: string, secret: string): Promise<void> {
  await page.getByLabel('API Id', { exact: true }).fill(id);
  await page.getByLabel('API Secret', { exact: true }).fill(secret);
}

/** Everything the page keeps outside memory, as text: web storage, IndexedDB, caches, cookies. */
async function persistedText(page: Page): Promise<{ local: string; session: string; indexedDb: string; caches: string; cookies: string }> {
  return page.evaluate(async () => {
    const dump = (s: Storage) => JSON.stringify(Object.entries({ ...s }));
    /** Records as text, bytes decoded too, so a secret inside a Blob or Uint8Array is found. */
    const asText = async (value: unknown, depth = 0): Promise<string> => {
      if (depth > 6 || value === null || value === undefined) return String(value);
      if (typeof value !== 'object') return String(value);
      if (value instanceof Blob) return new TextDecoder('latin1').decode(await value.arrayBuffer());
      if (value instanceof ArrayBuffer) return new TextDecoder('latin1').decode(value);
      if (ArrayBuffer.isView(value)) return new TextDecoder('latin1').decode(value);
      const parts: string[] = [];
      for (const [k, v] of Object.entries(value)) parts.push(`${k}=${await asText(v, depth + 1)}`);
      return parts.join(' ');
    };
    const idb: string[] = [];
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(info.name!);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      for (const storeName of Array.from(db.objectStoreNames)) {
        const tx = db.transaction(storeName, 'readonly');
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const req = tx.objectStore(storeName).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
          const req = tx.objectStore(storeName).getAllKeys();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        idb.push(`${info.name}/${storeName}: ${await asText(keys)} ${await asText(all)}`);
      }
      db.close();
    }
    const cacheText: string[] = [];
    if ('caches' in self) {
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const req of await cache.keys()) cacheText.push(`${name} ${req.url} ${JSON.stringify([...req.headers])}`);
      }
    }
    return {
      local: dump(localStorage),
      session: dump(sessionStorage),
      indexedDb: idb.join('\n'),
      caches: cacheText.join('\n'),
      cookies: document.cookie,
    };
  });
}

function assertNoCredentials(where: string, text: string): void {
  for (const leak of LEAKS) assert.ok(!text.includes(leak), `${where} contains a credential (${leak.slice(0, 6)}…)`);
}

// ---------------------------------------------------------------------------------------------
// The checks

/** A server on this machine that answers like the service, without any CORS header. */
let noCorsUrl = '';
const noCorsHits: { method: string; url: string }[] = [];

function startNoCorsServer(): Promise<Server> {
  const server = createServer((req, res) => {
    noCorsHits.push({ method: req.method ?? '', url: req.url ?? '' });
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'X-Credits-Charged': '0.000000' });
      res.end(FAKE_SVG);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * The docs/service.md proxy recipe for real: the page (in a context without routes, so Chromium
 * does its own preflight and CORS checks) → scripts/cors-proxy.mjs → a fake upstream that checks Basic auth.
 */
async function throughTheRealProxy(ctx: E2eContext): Promise<void> {
  const seen: { method: string; url: string; authorization: string | undefined }[] = [];
  const upstream = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    req.resume();
    req.on('end', () => {
      if (req.headers.authorization !== basic(API_ID, API_SECRET)) {
        res.writeHead(401, { 'Content-Type': 'application/json', 'WWW-Authenticate': 'Basic realm="x"' });
        res.end(JSON.stringify({ error: { status: 401, code: 1004, message: 'Invalid API secret.' } }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'image/svg+xml', 'X-Credits-Charged': '0.000000', 'X-Credits-Calculated': '1.000000' });
      res.end(FAKE_SVG);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
  // scripts/e2e.mjs runs from the repository root (this module runs compiled under node_modules/.cache).
  const script = join(process.cwd(), 'scripts', 'cors-proxy.mjs');
  const origin = new URL(ctx.baseUrl).origin;
  const proxy = spawn(process.execPath, [script, '--origin', origin, '--port', '0', '--upstream', upstreamUrl]);
  let output = '';
  proxy.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
  proxy.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const context = await ctx.browser.newContext({ viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' });
  try {
    const proxyUrl = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the proxy did not start: ${output}`)), 10_000);
      proxy.stdout.on('data', () => {
        const m = /listening on (http:\/\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      proxy.on('exit', (code) => reject(new Error(`the proxy exited (${code}): ${output}`)));
    });
    const page = await context.newPage();
    page.setDefaultTimeout(TIMEOUT);
    const errors: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await page.goto(ctx.baseUrl, { waitUntil: 'load' });
    await upload(page, 'fixture.png', fixturePng);
    await waitForDone(page);
    await fillCredentials(page, API_ID, API_SECRET);
    await page.getByLabel('Proxy URL (optional)').fill(proxyUrl);
    await vectorizeButton(page).click();
    // The cost comes from X-Credits-* headers: readable only because the proxy exposes them.
    const cost = await waitForCost(page, /^mode test · HTTP 200/);
    assert.match(cost, /charged 0\.000000 credits · would cost 1\.000000/);
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt="Real service result"]')?.naturalWidth ?? 0) > 0);
    assert.deepEqual(errors, []);
    assert.deepEqual(
      seen.map((r) => [r.method, r.url, r.authorization === basic(API_ID, API_SECRET)]),
      [['POST', '/api/v1/vectorize', true]],
      'one POST reached the upstream, with the Authorization header passed through',
    );
    // Wrong secret through the proxy: the API's 401 JSON, and no browser login dialog.
    await page.getByLabel('API Secret', { exact: true }).fill(WRONG_SECRET);
    await vectorizeButton(page).click();
    assert.equal(await waitForCost(page, /^Error 1004/), 'Error 1004 (HTTP 401): Invalid API secret.');
    await page.getByRole('button', { name: 'Forget credentials' }).click();
    assert.match(output, /POST \/api\/v1\/vectorize -> 200/);
    assert.match(output, /OPTIONS \/api\/v1\/vectorize -> 204/, 'Chromium sent its preflight to the proxy');
    assertNoCredentials('the proxy output', output);
  } finally {
    await context.close();
    if (proxy.exitCode === null) {
      const exited = new Promise((r) => proxy.once('exit', r));
      proxy.kill('SIGTERM');
      await exited;
    }
    upstream.closeAllConnections();
    await new Promise((r) => upstream.close(r));
  }
}

let e2eContext: E2eContext | undefined;
const consoleLog: string[] = [];
const problems: string[] = [];
let screenshotPath = '/tmp/tracelab-e2e-remote.png';

const CHECKS: Check[] = [
  {
    name: 'remote panel: password field without autocomplete, opt-in with a visible warning, CORS note, expected cost',
    async run(page) {
      const id = page.getByLabel('API Id', { exact: true });
      const secret = page.getByLabel('API Secret', { exact: true });
      assert.equal(await id.getAttribute('type'), 'text');
      assert.equal(await id.getAttribute('autocomplete'), 'off');
      assert.equal(await secret.getAttribute('type'), 'password');
      assert.equal(await secret.getAttribute('autocomplete'), 'off');
      const remember = page.getByLabel('Remember for this tab (sessionStorage)');
      assert.equal(await remember.isChecked(), false, 'memory only by default');
      const warning = page.locator('.remote-warning');
      assert.ok(await warning.isVisible(), 'the risk warning is visible');
      assert.match((await warning.textContent()) ?? '', /sessionStorage is not encrypted.*any script running in this page/);
      assert.ok(await page.getByRole('button', { name: 'Forget credentials' }).isVisible());
      assert.ok(await page.getByLabel('Proxy URL (optional)').isVisible());
      const link = page.getByRole('link', { name: 'Docs: Remote mode and CORS' });
      // Issue 17 item 7: the link resolves on the built site (it was README.md#…, a 404) to the section.
      const href = (await link.getAttribute('href')) ?? '';
      const docs = await page.request.get(new URL(href, page.url()).href);
      assert.equal(docs.status(), 200, `${href} answers 200`);
      assert.match(await docs.text(), /<h2>Remote mode and CORS<\/h2>[\s\S]*cors-proxy\.mjs/);
      assert.match((await page.locator('.remote-cors').textContent()) ?? '', /no CORS headers.*cors-proxy\.mjs --origin http:\/\/127\.0\.0\.1:\d+/);
      assert.match(((await costLine(page).textContent()) ?? '').trim(), /^Mode test: free and watermarked/);
    },
  },
  {
    name: 'without CORS headers (what to expect from the real service) the call fails with the proxy / CLI explanation',
    async run(page) {
      // The local trace is done (its comparison image appears only once a remote call was made).
      await upload(page, 'fixture.png', fixturePng);
      await waitForDone(page);
      await fillCredentials(page, API_ID, API_SECRET);
      fake.cors = false;
      await vectorizeButton(page).click();
      const text = await waitForCost(page, /^Error/);
      assert.match(text, /did not reach api\.vectorizer\.ai/);
      assert.match(text, /CORS/);
      assert.match(text, /proxy URL/);
      assert.equal(await page.getByRole('alert').filter({ hasText: 'CORS' }).count(), 1, 'the error is announced');
      assert.equal(await remoteImg(page).count(), 0);

      // The same through Chromium's own CORS check: a real HTTP server that answers like the
      // service but sends no CORS headers. (With routes installed Playwright answers preflights
      // itself, so the POST does reach the server; Chromium then withholds the answer from the page.)
      const proxyField = page.getByLabel('Proxy URL (optional)');
      await proxyField.fill(noCorsUrl);
      try {
        await vectorizeButton(page).click();
        const blocked = await waitForCost(page, new RegExp(`^Error.*did not reach 127\\.0\\.0\\.1:${new URL(noCorsUrl).port}`));
        assert.match(blocked, /CORS/);
        assert.ok(noCorsHits.some((h) => h.method === 'POST' && h.url === '/api/v1/vectorize'), 'the server answered (200) and the page still failed');
        assert.ok(problems.some((p) => p.includes('blocked by CORS policy')), 'Chromium reported the CORS block');
      } finally {
        await proxyField.fill('');
      }
    },
  },
  {
    name: 'with CORS: the remote result <img> (blob URL) appears beside the local one, with the cost line',
    async run(page) {
      fake.cors = true;
      const before = fake.received.length;
      await vectorizeButton(page).click();
      const cost = await waitForCost(page, /^mode test · HTTP 200/);
      assert.match(cost, /^mode test · HTTP 200 · charged 0\.000000 credits · would cost 1\.000000 · [\d,]+ ms$/);
      await page.waitForFunction(
        () => (document.querySelector<HTMLImageElement>('img[alt="Real service result"]')?.naturalWidth ?? 0) > 0,
        null,
        { timeout: TIMEOUT },
      );
      const src = (await remoteImg(page).getAttribute('src')) ?? '';
      assert.match(src, /^blob:/);
      assert.equal(await fetchText(page, src), FAKE_SVG);
      assert.match((await localImg(page).getAttribute('src')) ?? '', /^blob:/);
      // Side by side: both images in the comparison group, the local one left of the remote one.
      const group = page.getByRole('group', { name: 'Local and remote results side by side' });
      assert.equal(await group.getByRole('img').count(), 2);
      const panes = group.locator('figure');
      const [localBox, remoteBox] = [await panes.nth(0).boundingBox(), await panes.nth(1).boundingBox()];
      assert.ok(localBox && remoteBox && localBox.x + localBox.width <= remoteBox.x + 1, 'local left of remote');
      assert.ok(Math.abs(localBox!.y - remoteBox!.y) < 2, 'on one row');
      assert.equal(await panes.nth(0).getByRole('img').getAttribute('alt'), 'Local preview for comparison');
      // Never inlined: no <svg> element anywhere in the page.
      assert.equal(await page.locator('svg').count(), 0);
      // What reached the service: the Basic header, mode=test, the options and the file.
      const sent = fake.received.slice(before);
      assert.equal(sent.length, 1);
      assert.equal(sent[0]!.url, `${SERVICE}/vectorize`);
      assert.equal(sent[0]!.authorization, basic(API_ID, API_SECRET));
      assert.match(sent[0]!.body, /name="mode"\r\n\r\ntest\r\n/);
      assert.match(sent[0]!.body, /name="image"; filename="fixture\.png"/);
      await page.screenshot({ path: screenshotPath, fullPage: true });
    },
  },
  {
    name: 'a Tracelab extension on: the panel notes it is not sent, and the request to the real service leaves it out',
    async run(page) {
      const note = page.getByTestId('remote-not-sent');
      assert.equal(await note.isVisible(), false, 'no note while no extension is set');
      const extension = page.getByLabel('tracelab.gradients', { exact: true });
      await extension.check();
      await note.waitFor({ state: 'visible' });
      assert.equal(((await note.textContent()) ?? '').trim(), 'Not sent to Vectorizer.AI: tracelab.gradients (a Tracelab extension)');
      // The button is described by the note, so a screen reader hears it before calling.
      assert.equal(await vectorizeButton(page).getAttribute('aria-describedby'), await note.getAttribute('id'));
      const before = fake.received.length;
      await vectorizeButton(page).click();
      for (const end = Date.now() + TIMEOUT; fake.received.length === before; await page.waitForTimeout(50)) {
        if (Date.now() > end) throw new assert.AssertionError({ message: 'no request reached the fake service' });
      }
      await waitForCost(page, /^mode test · HTTP 200/);
      const body = fake.received.at(-1)!.body;
      assert.match(body, /name="mode"\r\n\r\ntest\r\n/);
      assert.doesNotMatch(body, /name="tracelab\./, 'an extension option reached the real service');
      assert.equal(await note.isVisible(), true, 'the note stays while the option is on');
      await extension.uncheck();
      await note.waitFor({ state: 'hidden' });
    },
  },
  {
    name: 'a wrong secret shows the API 401 error (code 1004) and no result',
    async run(page) {
      await page.getByLabel('API Secret', { exact: true }).fill(WRONG_SECRET);
      await vectorizeButton(page).click();
      const text = await waitForCost(page, /^Error 1004/);
      assert.equal(text, 'Error 1004 (HTTP 401): Invalid API secret.');
      assert.equal(await remoteImg(page).count(), 0);
      assert.equal(fake.received.at(-1)!.authorization, basic(API_ID, WRONG_SECRET));
      await page.getByLabel('API Secret', { exact: true }).fill(API_SECRET);
    },
  },
  {
    name: 'a proxy URL is used instead of the service; an unsafe one is refused before any request',
    async run(page) {
      const proxyField = page.getByLabel('Proxy URL (optional)');
      const before = fake.received.length;
      await proxyField.fill('http://proxy.example.com');
      assert.equal(await proxyField.getAttribute('aria-invalid'), 'true');
      await vectorizeButton(page).click();
      await waitForCost(page, /Plain http:\/\/ is only for a proxy on localhost/);
      assert.equal(fake.received.length, before, 'nothing was sent');

      await proxyField.fill(PROXY);
      assert.equal(await proxyField.getAttribute('aria-invalid'), 'false');
      await vectorizeButton(page).click();
      await waitForCost(page, /^mode test · HTTP 200/);
      assert.equal(fake.received.length, before + 1);
      assert.equal(fake.received.at(-1)!.url, `${PROXY}/api/v1/vectorize`);
      assert.equal(fake.received.at(-1)!.authorization, basic(API_ID, API_SECRET));
      await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('img[alt="Real service result"]')?.naturalWidth ?? 0) > 0);
      await proxyField.fill('');
    },
  },
  {
    name: 'the docs/service.md proxy recipe for real: page → scripts/cors-proxy.mjs → fake upstream, with Chromium\'s own CORS checks',
    async run() {
      await throughTheRealProxy(e2eContext!);
    },
  },
  {
    name: 'after the session the credentials are in no storage, IndexedDB, cache, cookie, URL, console line or page text',
    async run(page) {
      // Prove the IndexedDB scan reads records: a probe database must show up in it.
      await page.evaluate(
        () =>
          new Promise<void>((resolve, reject) => {
            const req = indexedDB.open('e2e-probe', 1);
            req.onupgradeneeded = () => req.result.createObjectStore('s').put({ note: 'probe-marker' }, 'k');
            req.onsuccess = () => (req.result.close(), resolve());
            req.onerror = () => reject(req.error);
          }),
      );
      const stored = await persistedText(page);
      assert.match(stored.indexedDb, /e2e-probe\/s: .*note=probe-marker/);
      await page.evaluate(() => new Promise((r) => (indexedDB.deleteDatabase('e2e-probe').onsuccess = r)));
      assertNoCredentials('localStorage', stored.local);
      assertNoCredentials('sessionStorage (remember is off)', stored.session);
      assert.equal(stored.session, '[]', `sessionStorage should be empty, is ${stored.session}`);
      assertNoCredentials('IndexedDB', stored.indexedDb);
      assertNoCredentials('Cache Storage', stored.caches);
      assertNoCredentials('cookies', stored.cookies);
      assertNoCredentials('the page URL', page.url());
      assertNoCredentials('the console', consoleLog.join('\n'));
      // The page text includes the code snippets (they must use $VECTORIZER_API_* placeholders).
      assertNoCredentials('the page text', await page.evaluate(() => document.body.innerText));
      // Only the two credential inputs hold them, as their live value.
      const holders = await page.evaluate(
        (secret) => Array.from(document.querySelectorAll('input')).filter((i) => i.value.includes(secret)).map((i) => i.type),
        API_SECRET,
      );
      assert.deepEqual(holders, ['password']);
    },
  },
  {
    name: 'remember=true keeps them in sessionStorage only (also across a reload); Forget removes them everywhere',
    async run(page) {
      await page.getByLabel('Remember for this tab (sessionStorage)').check();
      assert.match((await page.locator('.remote-warning').getAttribute('class')) ?? '', /active/);
      let stored = await persistedText(page);
      assert.ok(stored.session.includes(API_SECRET), 'the secret is in sessionStorage after opting in');
      assert.ok(stored.session.includes('tracelab.remote'));
      assertNoCredentials('localStorage', stored.local);
      assertNoCredentials('IndexedDB', stored.indexedDb);
      assertNoCredentials('cookies', stored.cookies);

      // A reload in the same tab brings them back (that is what "remember for this tab" means).
      await page.reload({ waitUntil: 'load' });
      const idField = page.getByLabel('API Id', { exact: true });
      for (const end = Date.now() + TIMEOUT; (await idField.inputValue()) !== API_ID; ) {
        if (Date.now() > end) throw new assert.AssertionError({ message: 'the API Id was not restored after the reload' });
        await page.waitForTimeout(50);
      }
      assert.equal(await page.getByLabel('API Secret', { exact: true }).inputValue(), API_SECRET);
      assert.equal(await page.getByLabel('Remember for this tab (sessionStorage)').isChecked(), true);

      await page.getByRole('button', { name: 'Forget credentials' }).click();
      assert.equal(await page.getByLabel('API Id', { exact: true }).inputValue(), '');
      assert.equal(await page.getByLabel('API Secret', { exact: true }).inputValue(), '');
      assert.equal(await page.getByLabel('Remember for this tab (sessionStorage)').isChecked(), false);
      stored = await persistedText(page);
      assert.equal(stored.session, '[]');
      for (const [where, text] of Object.entries(stored)) assertNoCredentials(where, text);
      assertNoCredentials('the console', consoleLog.join('\n'));
      assertNoCredentials('the page text', await page.evaluate(() => document.body.innerText));
    },
  },
];

/** Console errors the checks provoke on purpose: the blocked CORS call and the 401 answer. */
function expected(problem: string): boolean {
  return (
    (problem.includes(`Access to fetch at '${noCorsUrl}/api/v1/vectorize' from origin`) && problem.includes('blocked by CORS policy')) ||
    problem === `request failed: ${noCorsUrl}/api/v1/vectorize (net::ERR_FAILED)` ||
    /request failed: https:\/\/api\.vectorizer\.ai\/api\/v1\/vectorize \(net::ERR_FAILED\)/.test(problem) ||
    /Failed to load resource: net::ERR_FAILED/.test(problem) ||
    /the server responded with a status of 401/.test(problem) ||
    /^HTTP 401: (https:\/\/api\.vectorizer\.ai|http:\/\/127\.0\.0\.1:8790)\/api\/v1\/vectorize$/.test(problem)
  );
}

export async function runChecks(ctx: E2eContext, report: (r: CheckResult) => void = () => {}): Promise<CheckResult[]> {
  screenshotPath = ctx.screenshotPath;
  e2eContext = ctx;
  const noCors = await startNoCorsServer();
  noCorsUrl = `http://127.0.0.1:${(noCors.address() as { port: number }).port}`;
  // The offline service worker is not under test here, and routes must see every request.
  const { context, page } = await openPage(ctx, {
    problems,
    context: { viewport: { width: 1400, height: 1000 }, serviceWorkers: 'block' },
    setup: async (routed) => {
      await routed.route(`${SERVICE}/**`, (route, request) => answer(route, request, fake.cors));
      await routed.route(`${PROXY}/api/v1/**`, (route, request) => answer(route, request, true));
    },
    workers: false,
    onConsole: (msg) => consoleLog.push(`${msg.type()}: ${msg.text()}`),
  });
  const checks = [...CHECKS, noProblemsCheck(problems, 'no console errors other than the provoked CORS block and 401', (p) => !expected(p))];
  const results = await runCheckList(checks, report, page);
  await context.close();
  noCors.closeAllConnections();
  await new Promise((r) => noCors.close(r));
  return results;
}

#!/usr/bin/env node
/**
 * Minimal CORS proxy for the playground's remote mode (docs/service.md, "Remote mode and CORS"). No
 * dependencies: Node 20's http server and fetch.
 *
 *   node scripts/cors-proxy.mjs --origin http://localhost:5173 [--port 8790] [--host 127.0.0.1]
 *                               [--upstream https://api.vectorizer.ai]
 *
 * In:  browser requests from the one allowed origin to /api/v1/{vectorize,download,delete,account}
 *      (GET/POST, plus their OPTIONS preflights). The `Authorization` header the page sends is
 *      passed through untouched: the proxy holds no credentials of its own.
 * Out: the upstream answer (status, body, the API's headers) plus Access-Control-Allow-Origin for
 *      that origin and Access-Control-Expose-Headers for the credit/token headers, which page
 *      scripts could not read otherwise. One log line per request: method, path, status, time —
 *      never headers, so the Authorization header (Basic = the secret, base64) is never printed.
 *
 * It binds to 127.0.0.1 by default: anyone who can reach the port can relay calls through it.
 * The upstream is --upstream, else $CORS_PROXY_UPSTREAM, else https://api.vectorizer.ai (tests
 * point it at a fake).
 */

import { createServer } from 'node:http';

const DEFAULT_UPSTREAM = 'https://api.vectorizer.ai';
const DEFAULT_PORT = 8790;
const DEFAULT_HOST = '127.0.0.1';
/** The service accepts uploads up to 30 MiB (error 1012); leave room for the multipart framing. */
const MAX_BODY_BYTES = 40 * 1024 * 1024;
const API_PATH = /^\/api\/v1\/(?:vectorize|download|delete|account)$/;
/** Request headers forwarded upstream; everything else (cookies, Origin, …) stays here. */
const REQUEST_HEADERS = ['authorization', 'accept', 'content-type'];
/** Response headers of the API (reference §2.1.2, §2.2, §5.3) passed back to the page. */
const RESPONSE_HEADERS = ['content-type', 'content-disposition', 'x-image-token', 'x-receipt', 'x-credits-charged', 'x-credits-calculated', 'retry-after'];
const EXPOSED = 'Content-Disposition, X-Image-Token, X-Receipt, X-Credits-Charged, X-Credits-Calculated, Retry-After';

const USAGE = `usage: node scripts/cors-proxy.mjs --origin ORIGIN [--port N] [--host H] [--upstream URL]
  --origin    the page's origin, e.g. http://localhost:5173 (exactly one; required)
  --port      default ${DEFAULT_PORT} (0 = any free port)
  --host      default ${DEFAULT_HOST}; other hosts let other machines relay through you
  --upstream  default $CORS_PROXY_UPSTREAM or ${DEFAULT_UPSTREAM}`;

function fail(message) {
  process.stderr.write(`cors-proxy: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { origin: undefined, port: DEFAULT_PORT, host: DEFAULT_HOST, upstream: process.env.CORS_PROXY_UPSTREAM || DEFAULT_UPSTREAM };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = inline ?? argv[++i];
    if (value === undefined) fail(`${name} needs a value`);
    if (name === '--origin') opts.origin = value;
    else if (name === '--port') opts.port = Number(value);
    else if (name === '--host') opts.host = value;
    else if (name === '--upstream') opts.upstream = value;
    else fail(`unknown argument ${name}`);
  }
  if (opts.origin === undefined) fail('--origin is required');
  let origin;
  try {
    origin = new URL(opts.origin).origin;
  } catch {
    fail(`--origin ${JSON.stringify(opts.origin)} is not a URL`);
  }
  // An opaque origin ("null": file:// pages, sandboxed frames) would let any such page in.
  if (origin === 'null') fail('--origin must be an http(s) origin such as http://localhost:5173');
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) fail('--port must be 0…65535');
  let upstream;
  try {
    upstream = new URL(opts.upstream).origin;
  } catch {
    fail(`--upstream ${JSON.stringify(opts.upstream)} is not a URL`);
  }
  return { ...opts, origin, upstream };
}

const opts = parseArgs(process.argv.slice(2));

/** The API's error JSON, so the page's client reports the proxy's own refusals like API errors. */
function sendError(res, status, message, headers = {}) {
  const body = JSON.stringify({ error: { status, code: -1, message } });
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json' });
  res.end(body);
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on('data', (chunk) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(Object.assign(new Error('body too large'), { code: 'TOO_LARGE' }));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function handle(req, res) {
  const url = new URL(req.url ?? '/', 'http://proxy.invalid');
  const origin = req.headers.origin;
  // Requests from any other page are refused outright (no CORS headers, no forwarding). Requests
  // without Origin come from non-browser clients on this machine (curl), which hold their own keys.
  if (origin !== undefined && origin !== opts.origin) {
    sendError(res, 403, `Origin ${origin} is not allowed by this proxy (started with --origin ${opts.origin}).`);
    return 403;
  }
  const cors = origin === undefined ? {} : { 'Access-Control-Allow-Origin': opts.origin, Vary: 'Origin', 'Access-Control-Expose-Headers': EXPOSED };

  if (req.method === 'OPTIONS') {
    if (!API_PATH.test(url.pathname)) {
      sendError(res, 404, 'Not an /api/v1 endpoint.');
      return 404;
    }
    const preflight = {
      ...cors,
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': 'Authorization, Accept, Content-Type',
      'Access-Control-Max-Age': '600',
    };
    // Chrome's Private Network Access: a public https page calling this loopback proxy asks first.
    if (req.headers['access-control-request-private-network'] === 'true') preflight['Access-Control-Allow-Private-Network'] = 'true';
    res.writeHead(204, preflight);
    res.end();
    return 204;
  }
  if (!API_PATH.test(url.pathname)) {
    sendError(res, 404, 'Not an /api/v1 endpoint.', cors);
    return 404;
  }
  if (req.method !== 'GET' && req.method !== 'POST') {
    sendError(res, 405, `Method ${req.method} is not allowed.`, { ...cors, Allow: 'GET, POST, OPTIONS' });
    return 405;
  }

  let body;
  if (req.method === 'POST') {
    try {
      body = await readBody(req);
    } catch (err) {
      if (err.code === 'TOO_LARGE') {
        sendError(res, 413, `The request is larger than ${MAX_BODY_BYTES} bytes.`, cors);
        return 413;
      }
      throw err;
    }
  }
  const headers = {};
  for (const name of REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  let upstreamRes;
  try {
    upstreamRes = await fetch(`${opts.upstream}${url.pathname}${url.search}`, { method: req.method, headers, body });
  } catch (err) {
    // Only the error code (ECONNREFUSED, ENOTFOUND, …): nothing of the request is printed.
    const reason = err?.cause?.code ?? err?.cause?.message ?? err?.name ?? 'error';
    sendError(res, 502, `The proxy could not reach ${opts.upstream} (${reason}).`, cors);
    return 502;
  }
  // fetch has already decoded any Content-Encoding, so only the API's own headers go back.
  const out = { ...cors };
  for (const name of RESPONSE_HEADERS) {
    const value = upstreamRes.headers.get(name);
    if (value !== null) out[name] = value;
  }
  const bytes = Buffer.from(await upstreamRes.arrayBuffer());
  res.writeHead(upstreamRes.status, out);
  res.end(bytes);
  return upstreamRes.status;
}

const server = createServer((req, res) => {
  const started = Date.now();
  const path = new URL(req.url ?? '/', 'http://proxy.invalid').pathname;
  handle(req, res).then(
    (status) => process.stdout.write(`cors-proxy: ${req.method} ${path} -> ${status} (${Date.now() - started} ms)\n`),
    (err) => {
      process.stdout.write(`cors-proxy: ${req.method} ${path} -> 500 (${err?.name ?? 'error'})\n`);
      if (!res.headersSent) sendError(res, 500, 'The proxy failed.');
      else res.destroy();
    },
  );
});

server.on('error', (err) => fail(`cannot listen on ${opts.host}:${opts.port} (${err.code ?? err.message})`));
server.listen(opts.port, opts.host, () => {
  const { port } = server.address();
  const host = opts.host.includes(':') ? `[${opts.host}]` : opts.host;
  process.stdout.write(`cors-proxy: listening on http://${host}:${port} -> ${opts.upstream} (allowed origin ${opts.origin})\n`);
  if (opts.host !== '127.0.0.1' && opts.host !== 'localhost' && opts.host !== '::1') {
    process.stdout.write('cors-proxy: warning: not bound to loopback; other machines can relay calls through this proxy\n');
  }
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close(() => process.exit(0));
    server.closeAllConnections(); // idle keep-alive sockets of the browser would hold close() open
  });
}

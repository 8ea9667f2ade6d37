/**
 * node:http front end for a fetch-style handler `(request: Request) => Promise<Response>` (the
 * `/api/v1` service of src/api/service.ts, or any fake in tests).
 *
 * - Each IncomingMessage becomes a Web `Request` whose body streams from the socket with a hard cap
 *   (`maxBodyBytes`): a declared `Content-Length` above the cap is answered 413 before a byte is
 *   read; a streamed body that passes the cap errors the handler's body stream, stops reading and
 *   the answer is 413 whatever the handler made of it. Either way the connection is closed so the
 *   rest of an oversized upload is not kept; a streamed one is first read and dropped for up to
 *   2 s and 16 MiB (a lingering close), so the client reads the 413 instead of a reset.
 * - A body not received within `bodyTimeoutMs` of the request's start errors the handler's body
 *   stream the same way, and the answer is 408 (a trickling upload holds a socket and memory, not
 *   the server).
 * - The handler's `Response` is written back (status, headers, streamed body with back-pressure),
 *   always with `X-Content-Type-Options: nosniff` (a browser must not run an answer as another
 *   type than the one it declares).
 * - Nothing a client sends can crash the process: a handler exception is a 500 JSON error, a
 *   client that disconnects aborts `request.signal` and cancels the response body.
 * - `close()` stops accepting, closes connections without a request in flight at once, lets requests
 *   in flight finish (up to `graceMs`), then cuts the rest.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { promisify } from 'node:util';
import { gzip as gzipCallback } from 'node:zlib';

import { ERROR_CODES, TracelabError } from '../engine/errors.js';
import { errorResponse } from '../api/service-http.js';

export type FetchHandler = (request: Request) => Promise<Response>;

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8787;
export const DEFAULT_MAX_BODY_BYTES = 40 * 1024 * 1024;
/** Time from a request's start until its whole body must have arrived (a 40-MiB body at 1 MB/s fits). */
export const DEFAULT_BODY_TIMEOUT_MS = 60_000;
/** How long an idle keep-alive connection stays open. */
export /** An unread upload still arriving this long after the answer is cut off. */
const DRAIN_TIMEOUT_MS = 30_000;
/** A refused oversized upload is read and dropped for at most this long and this many bytes before the connection closes. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 16 * 1024 * 1024;
const KEEP_ALIVE_MS = 65_000;

export interface StartServerOptions {
  readonly handler: FetchHandler;
  /** Default 127.0.0.1 (loopback only). */
  readonly host?: string;
  /** Default 8787; 0 picks a free port (read it back from `port` / `url`). */
  readonly port?: number;
  /** Hard cap on a request body; default 40 MiB. */
  readonly maxBodyBytes?: number;
  /** Deadline for receiving a request body, from the request's start; default 60 s. */
  readonly bodyTimeoutMs?: number;
  /** How long `close()` waits for requests in flight before cutting them; default 5000 ms. */
  readonly graceMs?: number;
  /** Told about handler exceptions and write failures (default: ignore). */
  readonly onError?: (error: unknown) => void;
}

export interface RunningServer {
  /** `http://HOST:PORT` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const INTERNAL_ERROR = 'Internal server error';

/**
 * The API's JSON error (reference §4.1) for what this front end answers itself (413, malformed
 * request, handler exception): the service's own error shape — `dataReceived: null` (nothing was
 * read) and `X-Credits-Charged: 0.000000` — so a client reads it like any other API error.
 */
export function jsonError(status: number, code: number, message: string, extraHeaders: Record<string, string> = {}): Response {
  return errorResponse(new TracelabError(code, status, message), null, extraHeaders);
}

class BodyTooLargeError extends Error {
  constructor(limit: number) {
    super(`Request body larger than ${limit} bytes`);
    this.name = 'BodyTooLargeError';
  }
}

class BodyTimeoutError extends Error {
  constructor(ms: number) {
    super(`Request body not received within ${ms / 1000} s`);
    this.name = 'BodyTimeoutError';
  }
}

function bodyTimeoutResponse(ms: number): Response {
  return jsonError(408, ERROR_CODES.generic, `The request body was not received within ${ms / 1000} s; send it faster, or a smaller image.`, { Connection: 'close' });
}

/** The peer address of each request made by a node listener (for per-client rules such as a login delay). */
const clientAddresses = new WeakMap<Request, string>();

/** The address of the client that sent `request` through createNodeListener; undefined for any other request. */
export function clientAddressOf(request: Request): string | undefined {
  return clientAddresses.get(request);
}

function tooLargeResponse(limit: number, received?: number): Response {
  const size = received === undefined ? `more than ${limit}` : String(received);
  return jsonError(413, ERROR_CODES.imageTooLargeBytes, `Request body too large: ${size} bytes; the maximum is ${limit} bytes.`, { Connection: 'close' });
}

function formatHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

export interface NodeListenerOptions {
  readonly handler: FetchHandler;
  /** Hard cap on a request body; default 40 MiB. */
  readonly maxBodyBytes?: number;
  /** Deadline for receiving a request body, from the request's start; default 60 s. */
  readonly bodyTimeoutMs?: number;
  /** Told about handler exceptions and write failures (default: ignore). */
  readonly onError?: (error: unknown) => void;
  /** Base URL for a request without a usable Host header (default http://localhost). */
  readonly origin?: () => string;
  /** The server is shutting down: answers say `Connection: close` (startServer's close()). */
  readonly isClosing?: () => boolean;
  /** Called after each answer while closing (startServer drops the idle connection). */
  readonly onFinishWhileClosing?: () => void;
}

/**
 * The request listener of a node:http server that answers with a fetch-style handler: the body cap,
 * the Request/Response conversion and the back-pressure described at the top. startServer uses it;
 * the library exports it (`tracelab/handler` toNodeListener) for servers of the user's own.
 */
export function createNodeListener(options: NodeListenerOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const handler = options.handler;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  const origin = options.origin ?? ((): string => 'http://localhost');
  const isClosing = options.isClosing ?? ((): boolean => false);
  const report = (e: unknown): void => {
    try {
      options.onError?.(e);
    } catch {
      // a failing reporter must not take the server down
    }
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const aborter = new AbortController();
    const abort = (): void => {
      if (!aborter.signal.aborted) aborter.abort(new DOMException('The client disconnected', 'AbortError'));
    };
    res.on('close', () => {
      if (!res.writableFinished) abort();
    });
    req.on('error', abort);

    const method = (req.method ?? 'GET').toUpperCase();
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const declared = req.headers['content-length'];
    if (hasBody && declared !== undefined && /^\d+$/.test(declared) && Number(declared) > maxBody) {
      await writeResponse(tooLargeResponse(maxBody, Number(declared)), req, res, method, true);
      return;
    }

    const headers = new Headers();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      // hop-by-hop headers do not belong to the Request; undici refuses some of them
      if (/^(connection|keep-alive|transfer-encoding|upgrade|expect|host)$/i.test(name)) continue;
      try {
        headers.append(name, req.rawHeaders[i + 1]!);
      } catch {
        // a header value fetch refuses: drop it rather than fail the request
      }
    }
    const hostHeader = req.headers.host;
    const base = hostHeader !== undefined && /^[A-Za-z0-9.\-:[\]]+$/.test(hostHeader) ? `http://${hostHeader}` : origin();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', base);
    } catch {
      await writeResponse(jsonError(400, ERROR_CODES.generic, 'Malformed request target'), req, res, method, true);
      return;
    }

    let tooLarge = false;
    let timedOut = false;
    let body: ReadableStream<Uint8Array> | undefined;
    let bodyTimer: NodeJS.Timeout | undefined;
    if (hasBody) {
      let received = 0;
      const iterator = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
      let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
      body = new ReadableStream<Uint8Array>({
        start(controller) {
          stream = controller;
        },
        async pull(controller) {
          try {
            const { done, value } = await iterator.next();
            if (timedOut) return; // the stream is errored already
            if (done) {
              controller.close();
              return;
            }
            received += value.byteLength;
            if (received > maxBody) {
              tooLarge = true;
              req.pause();
              controller.error(new BodyTooLargeError(maxBody));
              return;
            }
            controller.enqueue(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
          } catch (e) {
            if (!timedOut) controller.error(e);
          }
        },
        cancel() {
          req.pause();
        },
      });
      bodyTimer = setTimeout(() => {
        if (req.complete || tooLarge) return;
        timedOut = true;
        req.pause();
        stream?.error(new BodyTimeoutError(bodyTimeoutMs));
      }, bodyTimeoutMs);
      const stopTimer = (): void => clearTimeout(bodyTimer);
      req.on('end', stopTimer);
      res.on('close', stopTimer);
    }

    const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: aborter.signal };
    if (body !== undefined) {
      init.body = body;
      init.duplex = 'half';
    }
    const request = new Request(url, init);
    if (req.socket.remoteAddress !== undefined) clientAddresses.set(request, req.socket.remoteAddress);

    let response: Response;
    try {
      response = await handler(request);
      if (!(response instanceof Response)) throw new TypeError('the handler did not return a Response');
    } catch (e) {
      if (tooLarge) response = tooLargeResponse(maxBody);
      else if (timedOut) response = bodyTimeoutResponse(bodyTimeoutMs);
      else if (aborter.signal.aborted) {
        res.destroy();
        return;
      } else {
        report(e);
        response = jsonError(500, ERROR_CODES.generic, INTERNAL_ERROR, { Connection: 'close' });
      }
    }
    if (tooLarge || timedOut) {
      await response.body?.cancel().catch(() => undefined);
      response = tooLarge ? tooLargeResponse(maxBody) : bodyTimeoutResponse(bodyTimeoutMs);
    }
    if (tooLarge) await lingerOnUpload(req);
    // A body the handler left unread (an early 429 or 4xx) must not stall keep-alive. With a declared
    // length within the cap, the rest is read and dropped after the answer, so the client finishes
    // its upload and reads the answer (cutting the socket mid-upload gives it EPIPE instead of the
    // 429 its back-off needs); an unbounded or oversized upload closes the connection.
    const unread = hasBody && !req.complete;
    const drainable = unread && !tooLarge && !timedOut && declared !== undefined && /^\d+$/.test(declared) && Number(declared) <= maxBody;
    if (drainable) res.on('finish', () => drainUpload(req));
    await writeResponse(response, req, res, method, tooLarge || timedOut || (unread && !drainable));
  }

  /**
   * Reads and drops what is left of an upload refused as too large, for at most LINGER_MS and
   * LINGER_BYTES, before the answer closes the connection (a lingering close): a socket closed
   * with unread data sends RST, and a client still uploading then loses the 413 to ECONNRESET
   * (1 run in 3 of the 40-MiB test). Resolves when the upload ends, the client leaves, or a bound
   * is reached; the socket is then cut after the answer as before.
   */
  function lingerOnUpload(req: IncomingMessage): Promise<void> {
    if (req.complete || req.destroyed) return Promise.resolve();
    return new Promise<void>((resolve) => {
      let droppedBytes = 0;
      const finish = (): void => {
        clearTimeout(timer);
        req.off('readable', pump);
        req.off('end', finish);
        req.off('close', finish);
        resolve();
      };
      const pump = (): void => {
        for (let chunk: Buffer | null = req.read() as Buffer | null; chunk !== null; chunk = req.read() as Buffer | null) {
          droppedBytes += chunk.length;
          if (droppedBytes > LINGER_BYTES) return finish();
        }
      };
      const timer = setTimeout(finish, LINGER_MS);
      req.on('readable', pump);
      req.on('end', finish);
      req.on('close', finish);
      pump();
    });
  }

  /** Reads and drops the rest of an upload (bounded by its declared length), then keep-alive goes on. */
  function drainUpload(req: IncomingMessage): void {
    if (req.complete) return;
    // Only an upload still unfinished is cut: the socket may already carry the next request.
    const timer = setTimeout(() => {
      if (!req.complete) req.destroy();
    }, DRAIN_TIMEOUT_MS);
    req.on('end', () => clearTimeout(timer));
    req.on('close', () => clearTimeout(timer));
    // read() rather than resume(): the body's async iterator left a 'readable' listener, and with
    // one attached resume() does nothing, so the upload would stall.
    const pump = (): void => {
      while (req.read() !== null) {
        // dropped
      }
    };
    req.on('readable', pump);
    pump();
  }

  async function writeResponse(response: Response, req: IncomingMessage, res: ServerResponse, method: string, closeAfter: boolean): Promise<void> {
    const headers: Record<string, string | string[]> = {};
    response.headers.forEach((value, name) => {
      if (name === 'set-cookie') return;
      headers[name] = value;
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) headers['set-cookie'] = cookies;
    if (closeAfter || isClosing()) headers['connection'] = 'close';
    headers['x-content-type-options'] = 'nosniff';
    const compressible = isCompressible(response);
    const gzip = compressible && response.body !== null && method !== 'HEAD' && acceptsGzip(req.headers['accept-encoding']);
    if (compressible) headers['vary'] = headers['vary'] ? `${String(headers['vary'])}, Accept-Encoding` : 'Accept-Encoding';
    let zipped: Buffer | undefined;
    if (gzip) {
      // As the real service answers: the same bytes, gzip-encoded for a client that asks for it.
      // Compressed whole before the status line goes out (these bodies are in memory already), so
      // an answer is never cut between its headers and its body by a slow compressor: a replica
      // that dies mid-answer then dies before the answer, and the call can be retried.
      try {
        zipped = await gzipAsync(new Uint8Array(await response.arrayBuffer()));
      } catch (e) {
        report(e);
        if (!res.destroyed) res.destroy();
        return;
      }
      headers['content-length'] = String(zipped.length);
      headers['content-encoding'] = 'gzip';
    }
    if (res.destroyed) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    res.writeHead(response.status, response.statusText || undefined, headers);
    res.on('finish', () => {
      if (isClosing()) setImmediate(() => options.onFinishWhileClosing?.());
    });
    if (closeAfter) {
      res.on('finish', () => {
        // stop reading whatever is left of the upload
        req.destroy();
      });
    }
    if (response.body === null || method === 'HEAD') {
      await response.body?.cancel().catch(() => undefined);
      await new Promise<void>((resolve) => res.end(resolve));
      return;
    }
    if (zipped) {
      await new Promise<void>((resolve) => res.end(zipped, () => resolve()));
      return;
    }
    const reader = response.body.getReader();
    const onClose = (): void => {
      reader.cancel().catch(() => undefined);
    };
    res.on('close', onClose);
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (res.destroyed) return;
        if (!res.write(value)) {
          await new Promise<void>((resolve) => {
            const done = (): void => {
              res.off('drain', done);
              res.off('close', done);
              resolve();
            };
            res.on('drain', done);
            res.on('close', done);
          });
        }
      }
      if (!res.destroyed) await new Promise<void>((resolve) => res.end(resolve));
    } catch (e) {
      // the body failed mid-way (or the client left): the status is already sent, so cut it short
      if (!res.destroyed) report(e);
      res.destroy();
    } finally {
      res.off('close', onClose);
    }
  }

  return (req, res) => {
    handle(req, res).catch((e: unknown) => {
      report(e);
      if (!res.headersSent) {
        res.writeHead(500, { 'Content-Type': 'application/json', 'X-Content-Type-Options': 'nosniff', Connection: 'close' });
        res.end(JSON.stringify({ error: { status: 500, code: ERROR_CODES.generic, message: INTERNAL_ERROR } }));
      } else res.destroy();
    });
  };
}

export function startServer(options: StartServerOptions): Promise<RunningServer> {
  const handler = options.handler;
  const host = options.host ?? DEFAULT_HOST;
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const graceMs = options.graceMs ?? 5000;
  const report = (e: unknown): void => {
    try {
      options.onError?.(e);
    } catch {
      // a failing reporter must not take the server down
    }
  };
  const sockets = new Set<Socket>();
  /** Connections with a request in flight; close() cuts the others at once. */
  const busy = new Set<Socket>();
  let origin = '';
  /** Set by close(): answers say `Connection: close` and finished connections are dropped. */
  let closing = false;

  const listener = createNodeListener({
    handler,
    maxBodyBytes: maxBody,
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
    onError: report,
    origin: () => origin,
    isClosing: () => closing,
    onFinishWhileClosing: () => server.closeIdleConnections(),
  });
  const server = createServer((req, res) => {
    const socket = req.socket;
    busy.add(socket);
    res.on('close', () => busy.delete(socket));
    listener(req, res);
  });
  // A handler may block the event loop for seconds (`serve` with TRACELAB_THREADS=0 traces on this
  // thread). With Node's 5-s keep-alive default, an idle socket's timer could fire right after such
  // a block, before the request a client had already sent on it is read — the client then sees
  // ECONNRESET (seen under load). Idle sockets now live well beyond any single trace.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    // malformed HTTP: answer 400 when still possible, never throw
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  return new Promise<RunningServer>((resolve, reject) => {
    const onError = (e: unknown): void => reject(e);
    server.once('error', onError);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off('error', onError);
      server.on('error', report);
      const port = (server.address() as AddressInfo).port;
      origin = `http://${formatHost(host)}:${port}`;
      let closed: Promise<void> | undefined;
      resolve({
        url: origin,
        port,
        close() {
          closing = true;
          closed ??= new Promise<void>((done) => {
            const timer = setTimeout(() => {
              server.closeAllConnections();
              for (const s of sockets) s.destroy();
            }, graceMs);
            timer.unref();
            server.close(() => {
              clearTimeout(timer);
              done();
            });
            server.closeIdleConnections();
            // Also connections that never carried a request (clients open spare ones, e.g. undici
            // after an aborted fetch): Node does not count them as idle, and they hold close() open.
            for (const s of sockets) if (!busy.has(s)) s.destroy();
          });
          return closed;
        },
      });
    });
  });
}

const gzipAsync = promisify(gzipCallback);

/**
 * Whether an Accept-Encoding header takes gzip: a "gzip", "x-gzip" or "*" coding whose q is not 0
 * (RFC 9110 §12.5.3).
 */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of value.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== 'x-gzip' && coding !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}

/**
 * The answers the real service may gzip (the reference §1, from its OpenAPI response headers):
 * SVG, EPS and DXF bodies. PDF and PNG are compressed already; JSON stays plain, as there.
 */
function isCompressible(response: Response): boolean {
  if (response.headers.has('content-encoding') || response.status === 204 || response.status === 304) return false;
  const type = (response.headers.get('content-type') ?? '').toLowerCase();
  return /^(image\/svg\+xml|application\/postscript|application\/dxf)\b/.test(type);
}

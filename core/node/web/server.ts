import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type ErrorCode, isChannel, LOCAL_PATH_CHANNELS, toWireError, type WireError } from '../../contract';
import { type Log, silentLog } from '../../ports/log';
import type { App } from '../app/create-app';
import { PAGE_POLICY } from './page-policy';
import { notBuiltPage, StaticFiles } from './static-files';

/** Browser mode listens on the loopback interface only: no other machine can reach it. */
export const WEB_HOST = '127.0.0.1';

/** 24 MiB uploads travel as base64 inside JSON: a third more, and some room. */
const DEFAULT_MAX_BODY_BYTES = 40 * 1024 * 1024;
/** A page that stops reading its event stream is dropped past this much unsent data (it reconnects). */
const MAX_SSE_BACKLOG_BYTES = 16 * 1024 * 1024;

export const HTTP_STATUS: Readonly<Record<ErrorCode, number>> = {
  bad_input: 400,
  unauthorized: 401,
  forbidden: 403,
  unknown_channel: 404,
  not_found: 404,
  method_not_allowed: 405,
  too_large: 413,
  unsupported_media_type: 415,
  bad_host: 421,
  user_error: 422,
  internal: 500,
};

const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // The page's address carries the token: never send it on as a Referer.
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;

export interface WebServerOptions {
  app: Pick<App, 'root' | 'invoke' | 'events'>;
  /** 0 (the default) lets the system choose a free port. */
  port?: number;
  /** The built renderer (index.html and its assets); without it a page says the renderer is not built. */
  staticDir?: string | null;
  /** The session token; a fresh random one (32 bytes, hex) unless a test sets it. */
  token?: string;
  maxBodyBytes?: number;
  /** Comment lines on the event stream that keep idle connections open (default 15 s). */
  heartbeatMs?: number;
  log?: Log;
}

export interface WebServer {
  /** The address to open, token included: `http://127.0.0.1:<port>/?token=<token>`. */
  url: string;
  host: typeof WEB_HOST;
  port: number;
  token: string;
  /** Ends the event streams and every connection, and stops listening. The app stays open. */
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly wire: WireError,
    readonly headers: Record<string, string> = {},
  ) {
    super(wire.message);
  }
}

const refuse = (code: ErrorCode, message: string, headers?: Record<string, string>) =>
  new Refusal({ code, message }, headers);

/**
 * Answers that cannot change (frozen: the library or the leaderboard while the index is unchanged)
 * are serialized once; the next request for the same answer sends the same bytes.
 */
const frozenAnswers = new WeakMap<object, Buffer>();

function okBody(value: unknown): Buffer {
  const frozen = typeof value === 'object' && value !== null && Object.isFrozen(value);
  const known = frozen ? frozenAnswers.get(value) : undefined;
  if (known) return known;
  const bytes = Buffer.from(JSON.stringify({ ok: true, value }));
  if (frozen) frozenAnswers.set(value, bytes);
  return bytes;
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(text.length),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

function sendError(res: ServerResponse, wire: WireError, headers: Record<string, string> = {}): void {
  sendJson(res, HTTP_STATUS[wire.code], { ok: false, error: wire }, headers);
}

/**
 * The host of browser mode: the renderer's files, the contract's channels as `POST /rpc/<channel>`
 * and its pushed events as a Server-Sent Events stream at `GET /events`, on 127.0.0.1 only.
 *
 * Every request passes, in order: the Host header must name this server (a page on another name
 * that resolves to 127.0.0.1, DNS rebinding, gets 421); an Origin header, when there is one, must
 * be this server's (403); /rpc and /events also refuse what the browser marks as coming from
 * another site (Sec-Fetch-Site, 403), and need the session token
 * (401), /rpc takes only POST with `Content-Type: application/json` (405, 415) and a body under
 * the limit (413). The page's files need no token: they hold no data.
 */
export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const log = options.log ?? silentLog;
  const token = options.token ?? randomBytes(32).toString('hex');
  const tokenBytes = Buffer.from(token);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const heartbeatMs = options.heartbeatMs ?? 15_000;
  const files = new StaticFiles(options.staticDir);
  const streams = new Set<ServerResponse>();
  let port = 0;
  let allowedHosts = new Set<string>();
  let allowedOrigins = new Set<string>();

  const tokenMatches = (given: string | null | undefined): boolean => {
    if (!given) return false;
    const bytes = Buffer.from(given);
    return bytes.length === tokenBytes.length && timingSafeEqual(bytes, tokenBytes);
  };

  const bearer = (req: IncomingMessage): string | null =>
    /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;

  /** Host and Origin: the checks every request passes, the page's files included. */
  const checkSender = (req: IncomingMessage): void => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts.has(host)) {
      throw refuse('bad_host', `this server answers only to 127.0.0.1:${port} and localhost:${port}, not to "${host}"`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !allowedOrigins.has(origin.toLowerCase())) {
      throw refuse('forbidden', `requests from the page at ${origin} are refused`);
    }
  };

  /**
   * Calls and the event stream come only from the page itself (or from no page at all). A link from
   * elsewhere to the page is fine: the page holds no data.
   */
  const checkSite = (req: IncomingMessage): void => {
    const site = req.headers['sec-fetch-site'];
    if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
      throw refuse('forbidden', `requests from other sites (${site}) are refused`);
    }
  };

  const readBody = (req: IncomingMessage): Promise<string> =>
    new Promise((resolve, reject) => {
      const declared = Number(req.headers['content-length'] ?? Number.NaN);
      if (Number.isFinite(declared) && declared > maxBody) {
        reject(refuse('too_large', `the body is larger than ${maxBody} bytes`, { Connection: 'close' }));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let over = false;
      req.on('data', (chunk: Buffer) => {
        if (over) return;
        size += chunk.length;
        if (size > maxBody) {
          over = true;
          chunks.length = 0;
          reject(refuse('too_large', `the body is larger than ${maxBody} bytes`, { Connection: 'close' }));
          return;
        }
        chunks.push(chunk);
      });
      req.on('end', () => {
        if (!over) resolve(Buffer.concat(chunks).toString('utf8'));
      });
      req.on('error', (error) => {
        if (!over) reject(error);
      });
    });

  const rpc = async (req: IncomingMessage, res: ServerResponse, name: string): Promise<void> => {
    checkSite(req);
    if (!tokenMatches(bearer(req))) {
      throw refuse('unauthorized', 'a session token is needed (Authorization: Bearer <token>)', {
        'WWW-Authenticate': 'Bearer',
      });
    }
    if (req.method !== 'POST') throw refuse('method_not_allowed', 'channels are called with POST', { Allow: 'POST' });
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json')
      throw refuse('unsupported_media_type', 'the body must be JSON (Content-Type: application/json)');
    if (!isChannel(name)) throw refuse('unknown_channel', `there is no channel "${name}"`);
    if (LOCAL_PATH_CHANNELS.includes(name)) {
      throw refuse(
        'forbidden',
        `${name} takes a path on this computer and is not served to a browser; upload the file instead`,
      );
    }
    const text = await readBody(req);
    let input: unknown = {};
    if (text.trim() !== '') {
      try {
        input = JSON.parse(text);
      } catch {
        throw refuse('bad_input', 'the body is not valid JSON');
      }
    }
    try {
      const value = await options.app.invoke(name, input);
      sendJson(res, 200, okBody(value));
    } catch (error) {
      const wire = toWireError(error);
      if (wire.code === 'internal') {
        log.error(`${name} failed`, { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      }
      sendError(res, wire);
    }
  };

  const events = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    checkSite(req);
    // EventSource cannot set headers, so the stream also takes the token from its address.
    if (!tokenMatches(bearer(req) ?? url.searchParams.get('token'))) {
      throw refuse('unauthorized', 'a session token is needed (?token=<token> or Authorization: Bearer <token>)');
    }
    if (req.method !== 'GET') throw refuse('method_not_allowed', 'the event stream is read with GET', { Allow: 'GET' });
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    req.socket.setNoDelay(true);
    res.write('retry: 2000\n: connected\n\n');
    streams.add(res);
    const unsubscribe = options.app.events.onAny((event) => {
      if (res.writableLength > MAX_SSE_BACKLOG_BYTES) {
        log.warn('an event stream fell too far behind and was closed');
        res.end();
        return;
      }
      res.write(`event: ${event.event}\ndata: ${JSON.stringify(event.payload)}\n\n`);
    });
    const heartbeat = setInterval(() => res.write(': ping\n\n'), heartbeatMs);
    heartbeat.unref();
    res.on('close', () => {
      unsubscribe();
      clearInterval(heartbeat);
      streams.delete(res);
    });
  };

  const page = (req: IncomingMessage, res: ServerResponse, url: URL): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw refuse('method_not_allowed', 'pages are read with GET', { Allow: 'GET, HEAD' });
    }
    let body: Buffer;
    let type: string;
    let cache = 'no-store';
    if (files.available) {
      const file = files.lookup(url.pathname);
      if (!file) throw refuse('not_found', `nothing at ${url.pathname}`);
      ({ body, type, cache } = file);
    } else if (url.pathname === '/' || url.pathname === '/index.html') {
      body = Buffer.from(notBuiltPage(options.app.root, options.staticDir));
      type = 'text/html; charset=utf-8';
    } else {
      throw refuse('not_found', `nothing at ${url.pathname} (the renderer is not built)`);
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': type,
      'Content-Length': String(body.length),
      'Cache-Control': cache,
      ...(type.startsWith('text/html') ? { 'Content-Security-Policy': PAGE_POLICY } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    checkSender(req);
    const url = new URL(req.url ?? '/', `http://${WEB_HOST}:${port}`);
    if (url.pathname === '/rpc' || url.pathname.startsWith('/rpc/')) {
      let name: string;
      try {
        name = decodeURIComponent(url.pathname.slice('/rpc/'.length));
      } catch {
        name = url.pathname;
      }
      await rpc(req, res, name);
    } else if (url.pathname === '/events') {
      events(req, res, url);
    } else {
      page(req, res, url);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (error instanceof Refusal) {
        if (!res.headersSent) sendError(res, error.wire, error.headers);
        return;
      }
      log.error('browser mode could not answer a request', {
        error: error instanceof Error ? (error.stack ?? error.message) : String(error),
      });
      if (!res.headersSent) sendError(res, toWireError(error));
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host: WEB_HOST, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  allowedHosts = new Set([`${WEB_HOST}:${port}`, `localhost:${port}`]);
  allowedOrigins = new Set([`http://${WEB_HOST}:${port}`, `http://localhost:${port}`]);

  let closing: Promise<void> | null = null;
  return {
    url: `http://${WEB_HOST}:${port}/?token=${token}`,
    host: WEB_HOST,
    port,
    token,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: unknown;
}

/**
 * One HTTP request with full control of the headers (fetch forbids setting Host, and browsers'
 * Origin and Sec-Fetch-* headers, which is exactly what the security tests need to forge).
 */
export function raw(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  // An empty Host means none at all (HTTP/1.0 style); node would otherwise fill in the right one.
  const headers = { ...options.headers };
  const setHost = headers.Host !== '';
  if (!setHost) delete headers.Host;
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/', headers, setHost },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface SseEvent {
  event: string;
  data: unknown;
}

export interface EventStream {
  status: number;
  events: SseEvent[];
  /** Resolves with the first event (already received or still to come) that `match` accepts. */
  next(match: (event: SseEvent) => boolean, what: string, timeoutMs?: number): Promise<SseEvent>;
  close(): void;
}

/**
 * Reads a Server-Sent Events stream the way EventSource does (event/data lines, blank line ends an
 * event, `:` lines are comments). Resolves once the response has started.
 */
export function openEventStream(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    const waiters = new Set<() => void>();
    const req = request(
      { host: '127.0.0.1', port, path, headers: { Host: `127.0.0.1:${port}`, ...headers } },
      (res) => {
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            let event = 'message';
            const data: string[] = [];
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) continue;
              if (line.startsWith('event: ')) event = line.slice(7);
              else if (line.startsWith('data: ')) data.push(line.slice(6));
            }
            if (data.length > 0) events.push({ event, data: JSON.parse(data.join('\n')) });
            for (const wake of waiters) wake();
          }
        });
        res.on('error', () => {});
        const stream: EventStream = {
          status: res.statusCode ?? 0,
          events,
          next: (match, what, timeoutMs = 10_000) =>
            new Promise((found, fail) => {
              const check = () => {
                const hit = events.find(match);
                if (!hit) return;
                waiters.delete(check);
                clearTimeout(timer);
                found(hit);
              };
              const timer = setTimeout(() => {
                waiters.delete(check);
                fail(
                  new Error(`timed out waiting for ${what}; got ${events.map((e) => e.event).join(', ') || 'nothing'}`),
                );
              }, timeoutMs);
              waiters.add(check);
              check();
            }),
          close: () => req.destroy(),
        };
        resolve(stream);
      },
    );
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error);
    });
    req.end();
  });
}

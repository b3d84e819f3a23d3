import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible embeddings endpoint on 127.0.0.1: `POST /v1/embeddings` with `{model,
 * input: string | string[]}`, answered `{object: 'list', data: [{object: 'embedding', index,
 * embedding}], model, usage: {prompt_tokens, total_tokens}}` as OpenAI, Ollama and llama.cpp server
 * answer it. An embedding is a bag of words: each lowercased word adds 1 to one of `DIMENSIONS`
 * places chosen by its hash, so texts sharing words point the same way. Tokens are characters / 4,
 * rounded up. Every request is recorded; `fail(status)` makes the next answers errors.
 */

export const DIMENSIONS = 64;

/** The fake's embedding of a text (exported so a test can work out what the endpoint answers). */
export function fakeEmbedding(text: string): number[] {
  const v = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const place = createHash('sha256').update(word).digest().readUInt32BE(0) % DIMENSIONS;
    v[place] = (v[place] as number) + 1;
  }
  return v;
}

export interface FakeEmbeddingsRequest {
  n: number;
  path: string;
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: a request body is whatever the client sent; tests read it freely
  body: any;
}

export class FakeEmbeddings {
  readonly requests: FakeEmbeddingsRequest[] = [];
  private failures: number[] = [];
  private server: Server | null = null;
  private url = '';

  /** Starts on a random port; returns the API root (`http://127.0.0.1:<port>/v1`). */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `fake: ${String(error)}` } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    return this.url;
  }

  get baseURL(): string {
    return this.url;
  }

  /** The next `times` requests get `status` (an error body, as the API sends one). */
  fail(status: number, times = 1): this {
    for (let i = 0; i < times; i++) this.failures.push(status);
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = '';
    req.setEncoding('utf8');
    for await (const chunk of req) raw += chunk;
    let body: unknown = null;
    try {
      body = JSON.parse(raw);
    } catch {
      body = raw;
    }
    const record: FakeEmbeddingsRequest = {
      n: this.requests.length + 1,
      path: req.url ?? '',
      headers: req.headers,
      body,
    };
    this.requests.push(record);
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.method !== 'POST' || record.path !== '/v1/embeddings')
      return send(404, { error: { message: `no route ${req.method} ${record.path}` } });
    const failure = this.failures.shift();
    if (failure !== undefined) return send(failure, { error: { message: `fake: failing with ${failure}` } });
    const b = body as { model?: unknown; input?: unknown };
    const input = typeof b.input === 'string' ? [b.input] : b.input;
    if (typeof b.model !== 'string' || !Array.isArray(input) || !input.every((t) => typeof t === 'string'))
      return send(400, { error: { message: 'fake: give a model and input (a string or strings)' } });
    const tokens = input.reduce((s: number, t: string) => s + Math.ceil(t.length / 4), 0);
    send(200, {
      object: 'list',
      data: input.map((t: string, index: number) => ({ object: 'embedding', index, embedding: fakeEmbedding(t) })),
      model: b.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }
}

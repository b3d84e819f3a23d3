import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake OpenAI-compatible chat server (as Ollama, llama.cpp server, LM Studio or vLLM expose) on
 * 127.0.0.1: `POST /v1/chat/completions`, non-streaming. Tokens are characters / 4 rounded up; a prompt
 * whose leading messages were seen before reports them as `prompt_tokens_details.cached_tokens`, as a
 * server with prefix caching does. Steps are scripted like the fake Anthropic server's.
 */

export type FakeChatStep =
  | { kind: 'answer'; content: unknown }
  /** `content` sent as it is (e.g. text that is not JSON). */
  | { kind: 'raw'; content: string }
  /** Cut off: half the JSON, finish_reason `length`. */
  | { kind: 'length'; content: unknown }
  | { kind: 'error'; status: number; message: string; retryAfterSeconds?: number }
  | { kind: 'hang' };

export interface FakeChatRequest {
  n: number;
  path: string;
  headers: IncomingMessage['headers'];
  // biome-ignore lint/suspicious/noExplicitAny: a request body is whatever the client sent; tests read it freely
  body: any;
  at: number;
}

export interface FakeOpenAiOptions {
  responder?: (request: FakeChatRequest) => FakeChatStep;
  latencyMs?: number | (() => number);
}

const tokens = (text: string) => Math.ceil(text.length / 4);

export class FakeOpenAi {
  readonly requests: FakeChatRequest[] = [];
  private readonly queue: FakeChatStep[] = [];
  private readonly seen = new Set<string>();
  private server: Server | null = null;
  private url = '';

  constructor(private readonly options: FakeOpenAiOptions = {}) {}

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

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  script(...steps: FakeChatStep[]): this {
    this.queue.push(...steps);
    return this;
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
    const record: FakeChatRequest = {
      n: this.requests.length + 1,
      path: req.url ?? '',
      headers: req.headers,
      body,
      at: Date.now(),
    };
    this.requests.push(record);
    const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(payload));
    };
    if (req.method !== 'POST' || record.path !== '/v1/chat/completions') {
      return send(404, { error: { message: `no route ${req.method} ${record.path}` } });
    }
    const step = this.queue.shift() ?? this.options.responder?.(record);
    if (!step) return send(400, { error: { message: `fake: nothing scripted for request #${record.n}` } });
    const latency = typeof this.options.latencyMs === 'function' ? this.options.latencyMs() : this.options.latencyMs;
    if (latency && latency > 0) await new Promise((r) => setTimeout(r, latency));

    if (step.kind === 'hang') return;
    if (step.kind === 'error') {
      const headers: Record<string, string> =
        step.retryAfterSeconds === undefined ? {} : { 'retry-after': String(step.retryAfterSeconds) };
      return send(step.status, { error: { message: step.message, type: 'server_error' } }, headers);
    }
    const b = record.body as { model: string; messages: { role: string; content: string }[] };
    // Prompt tokens, and the leading messages already seen (a prefix cache at message granularity).
    let prompt = 0;
    let cached = 0;
    let prefix = b.model;
    let stillCached = true;
    for (const m of b.messages) {
      prefix += `\u0000${m.role}\u0000${m.content}`;
      const t = tokens(m.content);
      prompt += t;
      if (stillCached && this.seen.has(prefix)) cached += t;
      else stillCached = false;
      this.seen.add(prefix);
    }
    let content: string;
    let finish = 'stop';
    if (step.kind === 'raw') content = step.content;
    else if (step.kind === 'length') {
      const full = JSON.stringify(step.content);
      content = full.slice(0, Math.ceil(full.length / 2));
      finish = 'length';
    } else content = JSON.stringify(step.content);
    send(200, {
      id: `chatcmpl-fake${record.n}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: b.model,
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finish }],
      usage: {
        prompt_tokens: prompt,
        completion_tokens: tokens(content),
        total_tokens: prompt + tokens(content),
        prompt_tokens_details: { cached_tokens: cached },
      },
    });
  }
}

import { describe, expect, it } from 'vitest';
import { anthropicParams, cacheBreakpoints } from '../../core/node/llm/anthropic';
import type { LlmTransportRequest } from '../../core/llm/structured-call';

/** Where the Anthropic adapter puts its cache breakpoints, for the model's minimum prefix. */

const words = (n: number) => 'word '.repeat(n).trim();
// At three characters a token (the adapter's generous count), 'word ' is about 1.7 tokens.
const request = (over: Partial<LlmTransportRequest> = {}): LlmTransportRequest => ({
  system: '',
  systemParts: [words(1500), words(300)],
  messages: Array.from({ length: 50 }, (_, i) => ({ role: 'user' as const, content: `m${i} ${words(60)}` })),
  stablePrefix: 49,
  jsonSchema: { type: 'object', properties: {} },
  toolName: 'answer',
  toolDescription: 'The answer.',
  model: 'claude-opus-4-6',
  maxTokens: 100,
  ...over,
});

describe('cache breakpoints', () => {
  it('marks the shared part, the persona and the transcript when each reaches the minimum, and spends a spare slot on the lookback', () => {
    const r = request({ system: '' });
    r.system = (r.systemParts ?? []).join('\n\n');
    expect(cacheBreakpoints(r, 1024)).toEqual({ systemParts: [0, 1], messages: [28, 48] });
    const params = anthropicParams(r, 1024);
    const marked = JSON.stringify(params).match(/cache_control/g) ?? [];
    expect(marked).toHaveLength(4);
    // The parts are sent with the blank line that joins them, so the model reads `system` unchanged.
    expect((params.system as { text: string }[]).map((b) => b.text).join('')).toBe(r.system);
  });

  it('leaves unmarked every prefix under the minimum, so no slot goes to a prefix that cannot be cached', () => {
    const r = request({ systemParts: [words(100), words(100)], stablePrefix: 10 });
    r.system = (r.systemParts ?? []).join('\n\n');
    expect(cacheBreakpoints(r, 4096)).toEqual({ systemParts: [], messages: [] });
    // The whole system reaches Sonnet's 1,024 with the transcript only.
    expect(cacheBreakpoints(r, 1024)).toEqual({ systemParts: [], messages: [9] });
  });

  it('marks nothing in the messages of a one-off ask (stablePrefix 0)', () => {
    const r = request({ stablePrefix: 0 });
    r.system = (r.systemParts ?? []).join('\n\n');
    expect(cacheBreakpoints(r, 2048)).toEqual({ systemParts: [0, 1], messages: [] });
  });
});

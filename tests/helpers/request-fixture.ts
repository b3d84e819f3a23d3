import { jsonSchemaOf } from '../../core/llm/prices';
import type { LlmRequest } from '../../core/ports/llm';

const today = new Date().toISOString().slice(0, 10);

/** A captured request as a fixture: what the model reads, with today's date made stable. */
export function requestFixture(request: LlmRequest<unknown>): string {
  const kept = {
    system: request.system,
    messages: request.messages,
    schemaName: request.schemaName,
    schema: jsonSchemaOf(request.schema as never),
    tier: request.tier,
    maxTokens: request.maxTokens,
  };
  return `${JSON.stringify(kept, null, 2).replaceAll(today, 'YYYY-MM-DD')}\n`;
}

/** Every word a request puts before the model: its system prompt and its messages. */
export const requestWords = (r: LlmRequest<unknown>): string =>
  [r.system, ...r.messages.map((m) => m.content)].join('\n');

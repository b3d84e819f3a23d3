import { readBrief } from '../../core/crux/live/brief';
import { simulateAnalysis, simulateMove } from '../../core/sim/crux-simulator';
import type { FakeRequest, FakeStep } from './fake-anthropic';

/** The text of a Messages API content value (a string or text blocks). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((b) => (b && typeof b === 'object' && 'text' in b ? String(b.text) : '')).join('');
  return '';
}

/**
 * Answers the fake Anthropic server's requests the way the offline simulator would: it reads the
 * turn brief from the last message and returns the simulated move or analysis as the tool input.
 * Debates against the fake then exercise the real SDK, the adapter and the engine end to end.
 */
export function simulatorResponder(seed: number): (request: FakeRequest) => FakeStep {
  return (request) => {
    const messages = (request.body?.messages ?? []) as { role: 'user' | 'assistant'; content: unknown }[];
    // A re-ask appends the refused answer and the reason after the brief: look back for it.
    let brief: ReturnType<typeof readBrief> = null;
    for (let i = messages.length; i > 0 && !brief; i--) {
      brief = readBrief(messages.slice(0, i).map((m) => ({ role: m.role, content: textOf(m.content) })));
    }
    if (brief?.kind === 'crux_turn') return { kind: 'answer', input: simulateMove(seed, brief) };
    if (brief?.kind === 'crux_analysis') return { kind: 'answer', input: simulateAnalysis(seed, brief) };
    return { kind: 'error', status: 400, type: 'invalid_request_error', message: 'no crux brief in the request' };
  };
}

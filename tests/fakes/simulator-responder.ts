import { readBrief } from '../../core/crux/live/brief';
import { simulateAnalysis, simulateMove } from '../../core/sim/crux-simulator';
import type { FakeRequest, FakeStep } from './fake-anthropic';

/**
 * Answers the fake Anthropic server's requests the way the offline simulator would. The adapter sends
 * the turn brief in the `x-crucible-brief` header when asked to (`sendBriefHeader`, tests and
 * benchmarks only); debates against the fake then exercise the real SDK, the adapter and the engine
 * end to end.
 */
export function simulatorResponder(seed: number): (request: FakeRequest) => FakeStep {
  return (request) => {
    const header = request.headers['x-crucible-brief'];
    const brief = typeof header === 'string' ? readBrief({ brief: JSON.parse(Buffer.from(header, 'base64').toString('utf8')) }) : null;
    if (brief?.kind === 'crux_turn') return { kind: 'answer', input: simulateMove(seed, brief) };
    if (brief?.kind === 'crux_analysis') return { kind: 'answer', input: simulateAnalysis(seed, brief) };
    return { kind: 'error', status: 400, type: 'invalid_request_error', message: 'no crux brief with the request' };
  };
}

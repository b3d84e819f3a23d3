import { readBrief } from '../../core/crux/live/brief';
import type { EvaluationBrief } from '../../core/evaluation/live/requests';
import { simulateAnswer } from '../../core/evaluation/simulator';
import { simulateAnalysis, simulateMove } from '../../core/sim/crux-simulator';
import type { FakeRequest, FakeStep } from './fake-anthropic';

/**
 * Answers the fake Anthropic server's requests the way the offline simulator would. The adapter sends
 * the turn brief in the `x-crucible-brief` header when asked to (`sendBriefHeader`, tests and
 * benchmarks only); debates against the fake then exercise the real SDK, the adapter and the engine
 * end to end.
 */
/** The brief a request carries in its `x-crucible-brief` header, or null. */
export function briefOfRequest(request: FakeRequest): unknown {
  const header = request.headers['x-crucible-brief'];
  return typeof header === 'string' ? JSON.parse(Buffer.from(header, 'base64').toString('utf8')) : null;
}

export function simulatorResponder(seed: number): (request: FakeRequest) => FakeStep {
  return (request) => {
    const raw = briefOfRequest(request);
    const brief = readBrief({ brief: raw });
    if (brief?.kind === 'crux_turn') return { kind: 'answer', input: simulateMove(seed, brief) };
    if (brief?.kind === 'crux_analysis') return { kind: 'answer', input: simulateAnalysis(seed, brief) };
    const evaluation = raw as Partial<EvaluationBrief> | null;
    if (evaluation?.kind === 'evaluation_ask' && evaluation.ask && evaluation.state) {
      return {
        kind: 'answer',
        input: (simulateAnswer(seed, evaluation.ask, evaluation.state) as { answer?: unknown }).answer,
      };
    }
    return { kind: 'error', status: 400, type: 'invalid_request_error', message: 'no brief with the request' };
  };
}

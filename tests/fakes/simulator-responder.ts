import { type LlmBrief, LlmError } from '../../core/ports/llm';
import { simulatorRegistry } from '../../core/sim/registry';
import { allSimulators } from '../../core/sim/simulators';
import { answerToolOf, type FakeRequest, type FakeStep } from './fake-anthropic';

/**
 * Answers the fake Anthropic server's requests the way the offline simulator would. The adapter sends
 * the request's brief in the `x-crucible-brief` header when asked to (`sendBriefHeader`, tests and
 * benchmarks only); runs against the fake then exercise the real SDK, the adapter and the engine end
 * to end, answered by the same simulators as the simulated provider.
 */
/** The brief a request carries in its `x-crucible-brief` header, or null. */
export function briefOfRequest(request: FakeRequest): unknown {
  const header = request.headers['x-crucible-brief'];
  return typeof header === 'string' ? JSON.parse(Buffer.from(header, 'base64').toString('utf8')) : null;
}

export function simulatorResponder(seed: number): (request: FakeRequest) => FakeStep {
  const registry = simulatorRegistry(allSimulators());
  return (request) => {
    const brief = (briefOfRequest(request) as LlmBrief | null) ?? undefined;
    try {
      return { kind: 'answer', input: registry.answer(seed, brief, String(answerToolOf(request))) };
    } catch (error) {
      if (!(error instanceof LlmError)) throw error;
      return { kind: 'error', status: 400, type: 'invalid_request_error', message: error.message };
    }
  };
}

import { afterAll, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { providerFor } from '../debates/providers';
import { councilEstimate } from './council-estimate';

// A council task's cost is said before it runs: the simulator's is nothing, a model's is priced from
// the model table without a key, and a provider that cannot run says why (the form's Start waits).
const { root, cleanup } = tempWorkspace('crucible-council-estimate-');
afterAll(() => cleanup());

describe('the cost of a council task', () => {
  it('is the plan priced for the provider, with the call limit as the worst case', () => {
    const before = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      const simulated = councilEstimate(root, 'simulated', providerFor);
      const anthropic = councilEstimate(root, 'anthropic', providerFor);
      expect({
        simulated: [simulated.calls, simulated.worstCalls, simulated.usd, simulated.worstUsd, simulated.cannotRun],
        anthropic: [anthropic.calls, anthropic.worstCalls, anthropic.cannotRun !== null],
        priced: anthropic.usd > 0 && anthropic.worstUsd > anthropic.usd * 5,
      }).toEqual({
        simulated: [6, 50, 0, 0, null],
        anthropic: [6, 50, true],
        priced: true,
      });
    } finally {
      if (before !== undefined) process.env.ANTHROPIC_API_KEY = before;
    }
  });
});

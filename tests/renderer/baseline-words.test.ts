import { describe, expect, it } from 'vitest';
import type { BaselineComparisonView } from '../../core/contract';
import {
  baselineCostWords,
  baselineOfferWords,
  baselineSideWords,
} from '../../renderer/src/views/debate/baseline-words';

// The baseline card's sentences: both costs, and how many debaters ended where they stood alone.

const single = (side: 'YES' | 'NO' | 'UNCERTAIN') => ({
  side,
  confidence: 0.7,
  crux: 'Will it pay back?',
  reason: 'r',
});

const comparison: BaselineComparisonView = {
  createdAt: '2026-03-01T10:00:00.000Z',
  debateCrux: 'Will it pay back within 5 years?',
  agents: [
    { agent: 'ana', single: single('YES'), error: null, debate: { side: 'YES', confidence: 0.8 } },
    { agent: 'ben', single: single('NO'), error: null, debate: { side: 'UNCERTAIN', confidence: 0.5 } },
    { agent: 'cy', single: null, error: 'the model call failed', debate: { side: 'NO', confidence: 0.6 } },
  ],
  cost: { single: { llmCalls: 3, costUsd: 0.0123 }, debate: { llmCalls: 46, costUsd: 0.41 } },
};

describe('the baseline card', () => {
  it('says both costs and how many debaters moved from where they stood alone', () => {
    expect([baselineCostWords(comparison), baselineSideWords(comparison)]).toEqual([
      'The single pass took 3 calls and $0.0123; the debate 46 calls and $0.4100 (15.3× the calls).',
      '1 of 2 debaters ended on the side they took alone; 1 moved.',
    ]);
    const nothing = { ...comparison, agents: comparison.agents.map((a) => ({ ...a, debate: null })) };
    expect(baselineSideWords(nothing)).toBeNull();
  });
});

describe('the offer of a single pass', () => {
  it('says its calls and its likely and worst cost before anything is asked, or that it is free', () => {
    const estimate = {
      calls: 3,
      usd: 0.0042,
      worstCalls: 3,
      worstUsd: 0.0117,
      basis: 'one call per agent',
      cannotRun: null,
    };
    expect([
      baselineOfferWords(estimate),
      baselineOfferWords({ ...estimate, calls: 1, usd: 0, worstUsd: 0, basis: 'the simulator costs nothing' }),
    ]).toEqual([
      'Each debater asked once, alone: 3 calls, likely $0.0042, at worst $0.0117 (one call per agent).',
      'Each debater asked once, alone: 1 call, free (the simulator costs nothing).',
    ]);
  });
});

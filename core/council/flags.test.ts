import { describe, expect, it } from 'vitest';
import type { ProposalOutput } from './answers';
import { flagsOf } from './flags';

const base: ProposalOutput = {
  goal: 'Note the resume conditions',
  actions: [{ tool: 'write_note', args: { path: 'ideas/a/notes/n.md', content: 'x' } }],
  valueJustification: { truth: { text: 'one two three four five six seven eight', strength: 0.5 } },
  expectedOutcomes: ['ideas/a/notes/n.md exists'],
  risks: [{ risk: 'drift', mitigation: 'names its source', severity: 'low' }],
};

describe('gaming flags', () => {
  it('are none for a specific, declared, risk-aware proposal', () => {
    expect(flagsOf(base, 'medium', [])).toEqual([]);
  });

  it('are all four, in the page order, for a vague, undeclared, riskless repeat of a rejected action', () => {
    const gamed: ProposalOutput = {
      ...base,
      valueJustification: {
        truth: { text: 'one two three four five six seven eight', strength: 0.5 },
        efficiency: { text: 'one two three four five six seven', strength: 0.9 },
      },
      expectedOutcomes: ['A note exists'],
      risks: [],
    };
    const history = [{ tool: 'write_note', target: 'ideas/a/notes/n.md', outcome: 'rejected' as const }];
    expect(flagsOf(gamed, 'medium', history)).toEqual([
      'GENERIC_JUSTIFICATION',
      'MISSING_RISK',
      'UNDECLARED_EFFECT',
      'REPEATS_FAILED',
    ]);
  });

  it('spare reads: no risk owed at low stakes, no effect to declare, and a repeat of a success is no repeat of a failure', () => {
    const read: ProposalOutput = {
      ...base,
      actions: [{ tool: 'read_idea', args: { idea: 'a' } }],
      expectedOutcomes: [],
      risks: [],
    };
    expect(flagsOf(read, 'low', [{ tool: 'read_idea', target: 'ideas/a', outcome: 'recorded' }])).toEqual([]);
    expect(flagsOf(read, 'low', [{ tool: 'read_idea', target: 'ideas/a', outcome: 'failed' }])).toEqual([
      'REPEATS_FAILED',
    ]);
  });
});

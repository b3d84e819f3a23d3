import { describe, expect, it } from 'vitest';
import type { CouncilAction } from './actions';
import type { ProposalOutput, ReviewOutput, Vote } from './answers';
import { CouncilInputError } from './errors';
import type { CouncilInput } from './inputs';
import { need, step } from './lifecycle';
import { type CouncilState, councilHeaderSchema, currentProposal, initCouncil, lastVersion } from './state';

const ACTIONS: Record<'low' | 'medium' | 'high', CouncilAction> = {
  low: { tool: 'read_idea', args: { idea: 'a' } },
  medium: { tool: 'set_stage', args: { idea: 'a', stage: 'RESEARCH' } },
  high: { tool: 'delete_file', args: { path: 'ideas/a/notes/n.md' } },
};

const proposal = (stakes: keyof typeof ACTIONS, flagged = false): ProposalOutput => ({
  goal: `a ${stakes} change`,
  actions: [ACTIONS[stakes]],
  valueJustification: { truth: { text: 'a justification of eight words or more here', strength: 0.6 } },
  expectedOutcomes: flagged ? [] : ['ideas/a/notes/n.md and ideas/a change'],
  risks: [{ risk: 'r', mitigation: 'm', severity: 'low' }],
});
const review = (decision: Vote): ReviewOutput => ({
  decision,
  rationale: 'why',
  concerns: [],
  values: { safety: 0.5 },
});

function start(config: Record<string, number> = {}): CouncilState {
  return initCouncil(councilHeaderSchema.parse({ task: 'a task', idea: 'a', config }));
}

/** Answers what the council asks with `votes` (in order), then runs and checks whatever is approved. */
function feed(state: CouncilState, inputs: CouncilInput[]): CouncilState {
  let s = state;
  for (const input of inputs) s = step(s, input).state;
  return s;
}

const reviews = (a: Vote, b: Vote, first: 'verifier' | 'executor' = 'verifier'): CouncilInput[] => [
  { kind: 'review', agent: first, output: review(a) },
  { kind: 'review', agent: first === 'verifier' ? 'integrator' : 'verifier', output: review(b) },
];

describe('the council lifecycle', () => {
  it('approves low stakes with 2 of 3 (the proposer counts) but sends the same votes on medium stakes to discussion', () => {
    const low = feed(start(), [
      { kind: 'proposal', output: proposal('low') },
      ...reviews('reject', 'approve_with_concerns'),
    ]);
    const medium = feed(start(), [
      { kind: 'proposal', output: proposal('medium') },
      ...reviews('reject', 'approve_with_concerns'),
    ]);
    expect([need(low), need(medium), currentProposal(medium)?.ladder]).toEqual([
      { kind: 'execute', proposal: 'p1', action: 0 },
      { kind: 'ask', ask: { role: 'revision', agent: 'executor', proposal: 'p1', version: 1 } },
      1,
    ]);
  });

  it('sends a flagged medium-stakes proposal to the researcher even when all three approve', () => {
    const s = feed(start(), [{ kind: 'proposal', output: proposal('medium', true) }, ...reviews('approve', 'approve')]);
    expect([need(s), lastVersion(currentProposal(s) as never).flags]).toEqual([
      { kind: 'researcher', proposal: 'p1', reason: 'flags' },
      ['UNDECLARED_EFFECT'],
    ]);
  });

  it('refuses an answer the council did not ask for, saying what it waits for', () => {
    const s = feed(start(), [{ kind: 'proposal', output: proposal('low') }]);
    expect(() => step(s, { kind: 'review', agent: 'integrator', output: review('approve') })).toThrow(
      new CouncilInputError('expected a review by the verifier of p1, got a review by the integrator'),
    );
    const waiting = feed(start(), [{ kind: 'proposal', output: proposal('high') }, ...reviews('approve', 'approve')]);
    expect(() => step(waiting, { kind: 'researcher', proposal: 'p2', decision: 'approve', note: '' })).toThrow(
      "the researcher's decision names p2, but p1 is the one waiting",
    );
  });

  it('hands an undecided proposal to the researcher once the task has spent its calls', () => {
    const s = feed(start({ maxCalls: 3 }), [
      { kind: 'proposal', output: proposal('medium') },
      ...reviews('reject', 'reject'),
    ]);
    expect([need(s), s.limit, currentProposal(s)?.ladder, currentProposal(s)?.tiebreak]).toEqual([
      { kind: 'researcher', proposal: 'p1', reason: 'limit' },
      '3 model calls (the limit is 3)',
      4,
      // truth 0.6·0.9 against safety 0.5·0.9 (verifier) + 0.5·0.5 (integrator).
      { proposal: 0.54, objection: 0.7 },
    ]);
  });

  it('gives a high-stakes compromise to the researcher however far the tiebreak favours it, and a low one whose compromise turns high', () => {
    // The compromise (the integrator's) is strongly justified; the one rejecter invokes little.
    const strong: ProposalOutput = {
      ...proposal('high'),
      valueJustification: {
        coherence: { text: 'a justification of eight words or more here', strength: 1 },
        cooperation: { text: 'a justification of eight words or more here', strength: 1 },
        transparency: { text: 'a justification of eight words or more here', strength: 1 },
      },
    };
    const weak = (decision: Vote): ReviewOutput => ({ ...review(decision), values: { safety: 0.1 } });
    const toCompromise = (first: 'low' | 'high'): CouncilInput[] => [
      { kind: 'proposal', output: proposal(first) },
      ...reviews('reject', 'reject'),
      { kind: 'compromise', output: first === 'high' ? strong : { ...strong, actions: [ACTIONS.low, ACTIONS.high] } },
      { kind: 'review', agent: 'executor', output: weak('approve') },
      { kind: 'review', agent: 'verifier', output: weak('reject') },
    ];
    const high = feed(start({ discussionRounds: 0 }), toCompromise('high'));
    const turned = feed(start({ discussionRounds: 0 }), toCompromise('low'));
    const seen = (s: CouncilState) => {
      const p = currentProposal(s);
      return [need(s), p?.ladder, p?.decision, p?.tiebreak && p.tiebreak.proposal - p.tiebreak.objection > 2];
    };
    expect([seen(high), seen(turned)]).toEqual([
      [{ kind: 'researcher', proposal: 'p1', reason: 'ladder' }, 4, 'awaiting_researcher', true],
      [{ kind: 'researcher', proposal: 'p1', reason: 'ladder' }, 4, 'awaiting_researcher', true],
    ]);
  });

  it('never executes anything unapproved, nor anything high-stakes the researcher did not approve, on any path', () => {
    // Every path the votes can take: random votes, versions of random stakes and random researcher
    // decisions, over many seeded runs; at each execution, the approval it rests on is checked.
    let seed = 7;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)] as T;
    const stakes = ['low', 'medium', 'high'] as const;
    const seen = { executions: 0, highExecutions: 0, researcher: 0 };
    for (let run = 0; run < 400; run++) {
      let s = start({ discussionRounds: Math.floor(rand() * 4) });
      let researcherApproved = new Set<string>();
      for (let guard = 0; guard < 200; guard++) {
        const n = need(s);
        if (n.kind === 'done') break;
        let input: CouncilInput;
        if (n.kind === 'execute') {
          const p = currentProposal(s);
          if (!p) throw new Error('executing nothing');
          expect(p.decision).toBe('approved');
          if (lastVersion(p).stakes === 'high') {
            expect([p.decidedBy, researcherApproved.has(p.id)]).toEqual(['researcher', true]);
            seen.highExecutions++;
          }
          seen.executions++;
          input = {
            kind: 'executed',
            proposal: n.proposal,
            result: { action: n.action, ok: true, detail: '', changes: [] },
          };
        } else if (n.kind === 'check') input = { kind: 'checked', proposal: n.proposal, postconditions: [] };
        else if (n.kind === 'researcher') {
          seen.researcher++;
          const decision = pick(['approve', 'reject'] as const);
          if (decision === 'approve') researcherApproved.add(n.proposal);
          input = { kind: 'researcher', proposal: n.proposal, decision, note: '' };
        } else {
          const ask = n.ask;
          if (ask.role === 'proposal')
            input =
              s.proposals.length < 3
                ? { kind: 'proposal', output: proposal(pick(stakes), rand() < 0.2) }
                : { kind: 'finish', call: false };
          else if (ask.role === 'review')
            input = {
              kind: 'review',
              agent: ask.agent,
              output: review(pick(['approve', 'approve_with_concerns', 'reject', 'reject'] as const)),
            };
          else if (ask.role === 'revision' || ask.role === 'compromise')
            input = { kind: ask.role, output: proposal(pick(stakes)) };
          else if (ask.role === 'outcome') input = { kind: 'outcome', output: { confirmed: true, notes: '' } };
          else input = { kind: 'episode', output: { keyLearnings: [], valuesServed: [], weightAdjustments: [] } };
        }
        s = step(s, input).state;
      }
      expect(s.phase).toBe('done');
      researcherApproved = new Set();
    }
    // The walk must have met every case it claims to cover.
    expect(seen.executions).toBeGreaterThan(100);
    expect(seen.highExecutions).toBeGreaterThan(10);
    expect(seen.researcher).toBeGreaterThan(50);
  });
});

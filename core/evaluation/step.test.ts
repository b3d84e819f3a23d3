import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import type { ArbiterAnswer, SynthesisAnswer } from './answers';
import { EvaluationInputError } from './errors';
import type { EvaluationInput } from './inputs';
import { replayEvaluation } from './replay';
import { defense, evaluator, header, narrative, redteam, ruling, script, synthesis } from './script-builder';
import type { EvaluationState } from './state';
import { createEvaluation } from './state';
import { advance, step } from './step';
import { SETUP } from './test-setup';

// Driving the machine input by input, the way a live engine will.

const PC = 'problem-clarity';
const ER = 'execution-risk';

function fresh(overrides: Partial<typeof SETUP> = {}): EvaluationState {
  return createEvaluation({ ...SETUP, ...overrides }, testTaxonomy());
}

function feed(state: EvaluationState, inputs: readonly EvaluationInput[]): EvaluationState {
  return inputs.reduce((s, input) => step(s, input).state, state);
}

const rule = (winner: ArbiterAnswer['winner'], scoreAdjustment = 0): ArbiterAnswer => ({
  winner,
  scoreAdjustment,
  firstPrinciplesBonus: false,
  fallacies: [],
  reasoning: 'because',
});
const settle = (criterion: string, score: number, confidence = 0.8): SynthesisAnswer['criteria'][number] => ({
  criterion,
  score,
  confidence,
  prevailingPosition: 'p',
  resolutionReasoning: 'r',
  openQuestions: [],
});

const nucleation: EvaluationInput[] = [
  { kind: 'start' },
  {
    kind: 'evaluator',
    category: 'problem',
    answer: { scores: [{ criterion: PC, score: 9, confidence: 0.6, reasoning: 'clear' }] },
  },
  {
    kind: 'evaluator',
    category: 'risk',
    answer: { scores: [{ criterion: ER, score: 1, confidence: 0.5, reasoning: 'risky' }] },
  },
];
const quietRound = (round: number): EvaluationInput[] => [
  { kind: 'redteam', persona: 'realist', round, answer: { challenges: [] } },
  { kind: 'redteam', persona: 'first-principles', round, answer: { challenges: [] } },
];
/** Round 1 up to the rulings: one challenge on each criterion. */
const toRulings: EvaluationInput[] = [
  ...nucleation,
  {
    kind: 'redteam',
    persona: 'skeptic',
    round: 1,
    answer: {
      challenges: [
        { criterion: PC, severity: 'MAJOR', challenge: 'Clarity is claimed, not shown' },
        { criterion: ER, severity: 'CRITICAL', challenge: 'Execution has no owner' },
      ],
    },
  },
  ...quietRound(1),
  { kind: 'defense', challengeId: 'r1c1', answer: { response: 'It is shown in the notes.' } },
  { kind: 'defense', challengeId: 'r1c2', answer: { response: 'The author owns it.' } },
];

function inputError(state: EvaluationState, input: EvaluationInput): string {
  try {
    step(state, input);
  } catch (e) {
    if (e instanceof EvaluationInputError) return e.message;
    throw e;
  }
  throw new Error('expected an EvaluationInputError');
}

describe('step', () => {
  it('starts nucleation: one ask per category, every phase change an event', () => {
    const out = step(fresh(), { kind: 'start' });
    expect({ events: out.events, effects: out.effects, phase: out.state.phase }).toEqual({
      events: [
        { type: 'evaluation_started', evaluationId: 'eval-1', mode: 'standard', scope: 'FULL', supersedes: null },
        {
          type: 'phase_changed',
          from: 'PENDING',
          to: 'EVALUATING',
          reason: 'nucleation: 2 evaluators score in parallel',
        },
      ],
      effects: [
        { kind: 'ask', role: 'evaluator', category: 'problem', criteria: [PC] },
        { kind: 'ask', role: 'evaluator', category: 'risk', criteria: [ER] },
      ],
      phase: 'EVALUATING',
    });
  });

  it('moves to the first round when the last evaluator answers, asking each red-teamer with the targets', () => {
    const before = feed(fresh(), nucleation.slice(0, 2));
    const out = step(before, nucleation[2] as EvaluationInput);
    const ask = (persona: string) => ({
      kind: 'ask',
      role: 'redteam',
      persona,
      round: 1,
      targets: [PC, ER],
      focus: null,
      suggestedCount: 2,
    });
    expect({ events: out.events, effects: out.effects }).toEqual({
      events: [
        { type: 'initial_scores', category: 'risk', scores: [{ criterion: ER, score: 1, confidence: 0.5 }] },
        { type: 'phase_changed', from: 'EVALUATING', to: 'DEBATING', reason: 'every criterion has its initial score' },
        {
          type: 'round_started',
          round: 1,
          personas: ['skeptic', 'realist', 'first-principles'],
          targets: [PC, ER],
          focus: null,
        },
      ],
      effects: [ask('skeptic'), ask('realist'), ask('first-principles')],
    });
    expect(out.state.snapshots).toEqual([{ [PC]: 9, [ER]: 1 }]);
  });

  it('never changes the state it is given, and every state is plain JSON', () => {
    let state = fresh();
    for (const input of toRulings) {
      const snapshot = JSON.stringify(state);
      const out = step(state, input);
      expect(JSON.stringify(state)).toBe(snapshot);
      expect(JSON.parse(JSON.stringify(out.state))).toEqual(out.state);
      state = out.state;
    }
    expect(state.awaiting.map((a) => `${a.role}`)).toEqual(['arbiter', 'arbiter']);
  });

  it('picks the round’s challenges in persona order, whatever order the answers arrive in', () => {
    const raise = (persona: 'skeptic' | 'realist' | 'first-principles', criterion: string): EvaluationInput => ({
      kind: 'redteam',
      persona,
      round: 1,
      answer: { challenges: [{ criterion, severity: 'MAJOR', challenge: `${persona} doubts ${criterion}` }] },
    });
    const upTo = feed(fresh(), nucleation);
    const inOrder = feed(upTo, [raise('skeptic', PC), raise('realist', ER), raise('first-principles', ER)]);
    const shuffled = feed(upTo, [raise('first-principles', ER), raise('realist', ER), raise('skeptic', PC)]);
    expect(shuffled.challenges).toEqual(inOrder.challenges);
    expect(shuffled.challenges.map((c) => `${c.id}:${c.persona}`)).toEqual([
      'r1c1:skeptic',
      'r1c2:realist',
      'r1c3:first-principles',
    ]);
    expect(shuffled.awaiting).toEqual(inOrder.awaiting);
  });

  it('clamps adjusted scores to 1..10, and a red-team win that cannot move the score stays unresolved', () => {
    const state = feed(fresh(), toRulings);
    const up = step(state, { kind: 'arbiter', challengeId: 'r1c1', answer: rule('EVALUATOR', 2) });
    const down = step(up.state, { kind: 'arbiter', challengeId: 'r1c2', answer: rule('RED_TEAM', -2) });
    expect([...up.events, ...down.events].filter((e) => e.type === 'ruling')).toEqual([
      {
        type: 'ruling',
        challengeId: 'r1c1',
        criterion: PC,
        winner: 'EVALUATOR',
        scoreAdjustment: 2,
        scoreBefore: 9,
        scoreAfter: 10,
        resolved: true,
        firstPrinciplesBonus: false,
      },
      {
        type: 'ruling',
        challengeId: 'r1c2',
        criterion: ER,
        winner: 'RED_TEAM',
        scoreAdjustment: -2,
        scoreBefore: 1,
        scoreAfter: 1,
        resolved: false,
        firstPrinciplesBonus: false,
      },
    ]);
    expect(down.effects).toEqual([{ kind: 'ask', role: 'synthesis', round: 1, touched: [PC, ER] }]);
    expect(down.state.phase).toBe('SYNTHESIZING');
  });

  it('lets the synthesis pick a position in play but never a middle value', () => {
    const ruled = feed(fresh(), [
      ...toRulings,
      { kind: 'arbiter', challengeId: 'r1c1', answer: rule('RED_TEAM', -2) },
      { kind: 'arbiter', challengeId: 'r1c2', answer: rule('EVALUATOR') },
    ]);
    const answer = (entries: SynthesisAnswer['criteria']): EvaluationInput => ({
      kind: 'synthesis',
      round: 1,
      answer: { criteria: entries, newInsights: [] },
    });
    // PC stood at 9 and the ruling put it at 7: either may win.
    expect(step(ruled, answer([settle(PC, 9), settle(ER, 1)])).state.scores[PC]?.score).toBe(9);
    expect(step(ruled, answer([settle(PC, 7), settle(ER, 1)])).state.scores[PC]?.score).toBe(7);
    expect(inputError(ruled, answer([settle(PC, 8), settle(ER, 1)]))).toBe(
      'synthesis: criteria[0].score: 8 for problem-clarity is not one of the positions in play (9, 7): the synthesis picks a winner, it does not average',
    );
    expect(inputError(ruled, answer([settle(PC, 7)]))).toBe(
      'synthesis: criteria: missing execution-risk, debated this round',
    );
  });

  it('rejects answers nobody asked for and answers that do not fit the ask', () => {
    const started = feed(fresh(), nucleation.slice(0, 1));
    expect(inputError(started, { kind: 'defense', challengeId: 'r1c1', answer: { response: 'x' } })).toBe(
      'defense arrives only in DEBATING, and the evaluation is EVALUATING',
    );
    expect(
      inputError(started, {
        kind: 'evaluator',
        category: 'problem',
        answer: { scores: [{ criterion: ER, score: 5, confidence: 0.5, reasoning: 'r' }] },
      }),
    ).toBe(
      'evaluator:problem: scores[0].criterion: "execution-risk" belongs to risk; this evaluator scores problem-clarity',
    );
    expect(
      inputError(started, {
        kind: 'evaluator',
        category: 'problem',
        answer: {
          scores: [
            { criterion: PC, score: 5, confidence: 0.5, reasoning: 'r' },
            { criterion: PC, score: 6, confidence: 0.5, reasoning: 'r' },
          ],
        },
      }),
    ).toBe('evaluator:problem: scores[1].criterion: "problem-clarity" is scored twice');
    expect(
      inputError(started, {
        kind: 'evaluator',
        category: 'problem',
        answer: { scores: [{ criterion: PC, score: 0, confidence: 0.5, reasoning: 'r' }] },
      }),
    ).toBe('evaluator:problem: scores[0].score: Too small: expected number to be >=1');
    const scored = feed(started, nucleation.slice(1, 2));
    expect(inputError(scored, nucleation[1] as EvaluationInput)).toBe(
      'evaluator:problem was not asked for (phase EVALUATING, round 0)',
    );

    const debating = feed(fresh(), nucleation);
    expect(
      inputError(debating, {
        kind: 'redteam',
        persona: 'skeptic',
        round: 1,
        answer: { challenges: [{ criterion: 'charm', severity: 'NOTE', challenge: 'c' }] },
      }),
    ).toBe('redteam:skeptic: challenges[0].criterion: unknown criterion "charm"');
    expect(inputError(debating, { kind: 'redteam', persona: 'skeptic', round: 2, answer: { challenges: [] } })).toBe(
      'redteam:skeptic for round 2 was not asked for (phase DEBATING, round 1)',
    );
    expect(inputError(debating, { kind: 'redteam', persona: 'competitor', round: 1, answer: { challenges: [] } })).toBe(
      'redteam:competitor for round 1 was not asked for (phase DEBATING, round 1)',
    );
    const ruling = feed(fresh(), toRulings);
    expect(inputError(ruling, { kind: 'arbiter', challengeId: 'r1c1', answer: rule('RED_TEAM', -3) })).toBe(
      'arbiter: scoreAdjustment: Too small: expected number to be >=-2',
    );
    expect(inputError(ruling, { kind: 'user_approved', at: 'yesterday' })).toBe('at: "yesterday" is not an ISO time');
  });

  it('keeps untouched criteria at their score, though their confidence may change', () => {
    const state = feed(fresh(), [
      ...nucleation,
      {
        kind: 'redteam',
        persona: 'skeptic',
        round: 1,
        answer: { challenges: [{ criterion: PC, severity: 'MINOR', challenge: 'c' }] },
      },
      ...quietRound(1),
      { kind: 'defense', challengeId: 'r1c1', answer: { response: 'd' } },
      { kind: 'arbiter', challengeId: 'r1c1', answer: rule('EVALUATOR') },
    ]);
    const input = (er: number): EvaluationInput => ({
      kind: 'synthesis',
      round: 1,
      answer: { criteria: [settle(PC, 9), settle(ER, er, 0.9)], newInsights: [] },
    });
    expect(inputError(state, input(2))).toBe(
      'synthesis: criteria[1].score: execution-risk was not debated this round, so its score stays 1 (only its confidence may change)',
    );
    expect(step(state, input(1)).state.scores[ER]).toEqual({
      score: 1,
      confidence: 0.9,
      reasoning: 'risky',
      openQuestions: [],
    });
  });

  it('moves the clock forward only, from the inputs’ times', () => {
    const state = feed(fresh({ startedAt: '2025-03-01T09:00:00.000Z' }), [
      { kind: 'start', at: '2025-03-01T09:00:05.000Z' },
      { ...(nucleation[1] as EvaluationInput), at: '2025-03-01T09:00:20.000Z' },
      { ...(nucleation[2] as EvaluationInput), at: '2025-03-01T09:00:10.000Z' },
    ]);
    expect(state.clock).toBe('2025-03-01T09:00:20.000Z');
  });

  it('advances in place and returns the same object', () => {
    const state = fresh();
    const out = advance(state, { kind: 'start' });
    expect(out.state).toBe(state);
    expect(state.phase).toBe('EVALUATING');
  });
});

describe('a whole run', () => {
  it('logs every phase change in order', () => {
    const run = replayEvaluation(
      script(
        header({ mode: 'quick' }),
        evaluator('problem', [[PC, 7, 0.6]]),
        evaluator('risk', [[ER, 5, 0.5]]),
        redteam('skeptic', [[PC, 'MAJOR', 'Nobody has described the problem']]),
        redteam('realist', []),
        defense(),
        ruling('EVALUATOR'),
        synthesis([[PC, 7, 0.8]]),
        narrative(),
      ),
      testTaxonomy(),
    );
    expect(run.events.flatMap((e) => (e.type === 'phase_changed' ? [`${e.from}→${e.to}`] : []))).toEqual([
      'PENDING→EVALUATING',
      'EVALUATING→DEBATING',
      'DEBATING→SYNTHESIZING',
      'SYNTHESIZING→REVIEWING',
      'REVIEWING→LOCKED',
    ]);
    expect(run.document.lockReason).toBe('MAX_ROUNDS');
    expect(() => step(run.state, { kind: 'user_approved' })).toThrow(
      'the evaluation is locked (MAX_ROUNDS): it takes no more input; reopen it instead',
    );
  });
});

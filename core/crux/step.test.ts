import { describe, expect, it } from 'vitest';
import type { AnalysisOutput } from './analysis';
import { DEFAULT_CONFIG, resolveConfig } from './config';
import { CruxInputError } from './errors';
import type { CruxInput } from './inputs';
import { buildResult } from './result';
import type { CruxState } from './state';
import { createState } from './state';
import { step } from './step';
import type { Move } from './vocabulary';

// Driving the state machine directly, the way a live engine will.

function start(config = resolveConfig({ earlyExitMinMessages: 2, budgets: { EVIDENCE: 1 } })): CruxState {
  return createState({
    topic: 'Four-day week',
    agents: [
      { id: 'ana', name: 'Ana' },
      { id: 'ben', name: 'Ben' },
    ],
    config,
  });
}

function feed(state: CruxState, inputs: CruxInput[]): CruxState {
  return inputs.reduce((s, input) => step(s, input).state, state);
}

const msg = (agent: string, move: Move, meta: Record<string, unknown> = {}): CruxInput => ({
  kind: 'message',
  thread: 't1',
  agent,
  move,
  content: `${agent} says ${move}`,
  meta,
});

const F = { metric: 'Output per employee', threshold: '> 5%', deadline: '2027' };
const toEvidence: CruxInput[] = [
  { kind: 'thread', id: 't1', topic: 'Output' },
  msg('ana', 'CLAIM'),
  msg('ben', 'PROPOSE_CRUX', { question: 'Does output rise?' }),
  msg('ana', 'COMMIT_POSITION', { side: 'YES', confidence: 0.8, horizon: '5y', falsifier: F }),
  msg('ben', 'COMMIT_POSITION', { side: 'NO', confidence: 0.6, horizon: '5y', falsifier: F }),
  msg('ana', 'STEELMAN', { steelmanTarget: 'ben' }),
  msg('ben', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
  msg('ben', 'STEELMAN', { steelmanTarget: 'ana' }),
  msg('ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
];

const output: AnalysisOutput = {
  question: 'Does output rise?',
  positions: {},
  resolutionCriteria: ['Output at 18 months', 'Firms keeping the week'],
  counterfactual: { ana: { wouldFlip: true, why: '' }, ben: { wouldFlip: true, why: '' } },
  confidence: 0.9,
};

describe('step', () => {
  it('never changes the state it is given and returns plain JSON', () => {
    const before = feed(start(), toEvidence.slice(0, 3));
    const snapshot = JSON.stringify(before);
    const out = step(before, msg('ana', 'COMMIT_POSITION', { side: 'YES', confidence: 0.8, horizon: '5y' }));
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(out.state).not.toBe(before);
    expect(JSON.parse(JSON.stringify(out.state))).toEqual(out.state);
    expect(out.state.threads[0]?.commitments.ana?.side).toBe('YES');
    expect(before.threads[0]?.commitments.ana).toBeUndefined();
  });

  it('emits typed events for an accepted message', () => {
    const state = feed(start(), toEvidence.slice(0, 1));
    expect(step(state, msg('ana', 'CLAIM')).events).toEqual([
      {
        type: 'message_posted',
        id: 'm1',
        thread: 't1',
        agent: 'ana',
        move: 'CLAIM',
        stage: 'DISCOVERY',
        content: 'ana says CLAIM',
        meta: {},
      },
    ]);
  });

  it('asks the driver for an analysis and converges when it arrives', () => {
    const locked = feed(start(), toEvidence);
    const asked = step(locked, msg('ana', 'PROVIDE_EVIDENCE'));
    expect(asked.effects).toEqual([{ kind: 'analyse', thread: 't1' }]);
    expect(asked.events.map((e) => e.type)).toEqual(['message_posted', 'crystallization_requested']);
    expect(asked.state.threads[0]).toMatchObject({ status: 'EVIDENCE', awaitingAnalysis: true });

    // While the analysis is out, the thread takes no more messages.
    const early = step(asked.state, msg('ben', 'PROVIDE_EVIDENCE'));
    expect(early.events).toEqual([
      {
        type: 'message_blocked',
        id: 'm10',
        thread: 't1',
        agent: 'ben',
        move: 'PROVIDE_EVIDENCE',
        reason: 'threadClosed',
        detail: 'thread t1 is being crystallized',
      },
    ]);

    const done = step(early.state, { kind: 'crystallize_output', thread: 't1', output });
    expect(done.effects).toEqual([]);
    expect(done.events.map((e) => e.type)).toEqual(['crystallized', 'thread_closed', 'primary_crux_changed']);
    expect(done.state.threads[0]).toMatchObject({ status: 'CONVERGED', awaitingAnalysis: false });
    expect(done.state.threads[0]?.crux?.positions).toEqual({
      ana: { side: 'YES', statement: 'ana says COMMIT_POSITION', confidence: 0.8, falsifier: F },
      ben: { side: 'NO', statement: 'ben says COMMIT_POSITION', confidence: 0.6, falsifier: F },
    });
    expect(buildResult(done.state).regime).toBe('polarized');

    expect(() => step(done.state, { kind: 'crystallize_output', thread: 't1', output })).toThrow(
      new CruxInputError('thread "t1" is not waiting for crystallization'),
    );
  });

  it('rejects analyses naming unknown agents and inputs naming unknown threads or agents', () => {
    const asked = step(feed(start(), toEvidence), msg('ana', 'PROVIDE_EVIDENCE')).state;
    const bad = { ...output, counterfactual: { zed: { wouldFlip: true, why: '' } } };
    expect(() => step(asked, { kind: 'crystallize_output', thread: 't1', output: bad })).toThrow(
      'unknown agent id "zed" in the analysis of "t1"',
    );
    expect(() => step(asked, { ...msg('ana', 'CLAIM'), thread: 'nope' } as CruxInput)).toThrow('unknown thread id "nope"');
    expect(() => step(asked, msg('zed', 'CLAIM'))).toThrow('unknown agent id "zed"');
    expect(() => step(asked, { kind: 'coalition_labels', labels: [{ members: ['zed'], label: 'x' }] })).toThrow(
      'unknown agent id "zed"',
    );
  });

  it('lets the moderator speak without touching budgets', () => {
    const state = feed(start(), toEvidence.slice(0, 2));
    const out = step(state, { kind: 'moderator_message', thread: 't1', content: 'Stay on the question.' });
    expect(out.events).toEqual([{ type: 'moderator_message', id: 'mod1', thread: 't1', content: 'Stay on the question.' }]);
    expect(out.state.threads[0]?.messages).toEqual({ DISCOVERY: 1, CRUX_LOCK: 0, EVIDENCE: 0 });
    expect(out.state.counters.messagesTotal).toBe(1);
  });

  it('lets an engine retire threads as STALE or MERGED, after which they take nothing', () => {
    const state = feed(start(), [
      toEvidence[0] as CruxInput,
      { kind: 'thread', id: 't2', topic: 'Other' },
      { kind: 'close_thread', thread: 't1', status: 'STALE' },
      { kind: 'close_thread', thread: 't2', status: 'MERGED' },
      msg('ana', 'CLAIM'),
      { ...msg('ana', 'CLAIM'), thread: 't2' } as CruxInput,
    ]);
    expect(state.transcript.map((e) => `${e.id} ${e.blockedReason}`)).toEqual(['m1 threadClosed', 'm2 threadClosed']);
    expect(buildResult(state).threads.map((t) => t.status)).toEqual(['STALE', 'MERGED']);
  });

  it('records a debate-level stop, and the result is partial while threads are open', () => {
    const out = step(feed(start(), toEvidence.slice(0, 2)), { kind: 'stop', reason: 'budget' });
    expect(out.events).toEqual([{ type: 'debate_stopped', reason: 'budget' }]);
    expect(out.state.stoppedBy).toBe('budget');
    expect(buildResult(out.state).regime).toBe('partial');
  });
});

describe('config', () => {
  it('has the documented defaults', () => {
    expect(DEFAULT_CONFIG).toEqual({
      budgets: { DISCOVERY: 8, CRUX_LOCK: 8, EVIDENCE: 14 },
      earlyExitMinMessages: 6,
      discoveryExtensions: 1,
      discoveryExtensionBudget: 4,
      lockRetryBudget: 4,
      maxLockAttempts: 3,
      steelmanRule: 'each-across',
      evidenceStability: { minMessages: 8, window: 6 },
      threadHardCap: 40,
      maxActiveThreads: 4,
      maxReplies: 2,
      coalitions: { minCruxes: 2, minPositions: 2, threshold: 0.7 },
      // Beyond the design page, from seed 000 (docs/crux-protocol.md, "Keeping debates honest").
      devilsAdvocateAfter: 20,
      stopRules: { noNewCrux: 50, coalitionsStable: 30 },
      // Seed 000's attention threshold (docs/crux-protocol.md, "Agenda, attention, merging and staleness").
      attentionThreshold: 0.6,
      // Turns before an idle thread goes stale, grown with the agents like the budgets.
      staleAfter: 40,
    });
  });

  it('merges partial overrides group by group', () => {
    expect(resolveConfig({ budgets: { EVIDENCE: 3 }, coalitions: { threshold: 0.5 }, maxReplies: 1 })).toEqual({
      ...DEFAULT_CONFIG,
      budgets: { DISCOVERY: 8, CRUX_LOCK: 8, EVIDENCE: 3 },
      coalitions: { minCruxes: 2, minPositions: 2, threshold: 0.5 },
      maxReplies: 1,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { replayScript } from './replay';
import type { ScriptObject } from './script-builder';
import {
  FAST_CONFIG,
  analysis,
  crystallize,
  debate,
  message as m,
  quickCrux,
  quickLock,
  script,
  thread,
} from './script-builder';

// Keeping debates honest: a devil's advocate when no crux is proposed in the first messages, and
// the two debate-wide stop rules, whose partial result says "Confidence: LOW".

const claims = (threadId: string, agents: string[], count: number) =>
  Array.from({ length: count }, (_, i) => m(threadId, agents[i % agents.length] as string, 'CLAIM'));

describe("the devil's advocate", () => {
  // Discovery has room for 30 messages; nobody proposes a crux in the first 20.
  const config = { budgets: { DISCOVERY: 30, EVIDENCE: 1 } };
  const DA = 'devils-advocate';
  const QUESTION = 'Does the policy raise output within 18 months?';

  it('joins when 20 messages pass with no crux proposed, frames one, and holds no position', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], config),
        thread('t1'),
        claims('t1', ['ana', 'ben'], 20),
        // m21: its proposal ends discovery (20 messages, two authors and more).
        m('t1', DA, 'PROPOSE_CRUX', { question: QUESTION }),
        // m22: refused, it takes no part in the lock.
        m('t1', DA, 'COMMIT_POSITION', { side: 'NO', confidence: 0.9, horizon: '5y' }),
        quickLock('t1', 'ana', 'ben'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
        // The crystallizer gives it a position all the same; the crux does not record it.
        crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'NO' }, [DA]: { side: 'NO' } })),
      ),
    );
    const t1 = run.result.threads[0];
    expect({
      joined: run.events.filter((e) => e.type === 'devils_advocate_joined'),
      announced: run.state.transcript.find((e) => e.author === null)?.content,
      proposal: run.state.transcript.find((e) => e.id === 'm21')?.accepted,
      commit: [run.state.transcript.find((e) => e.id === 'm22')?.blockedReason, run.state.transcript.find((e) => e.id === 'm22')?.blockedDetail],
      participants: t1?.participants,
      positions: Object.keys(t1?.crux?.positions ?? {}),
      // ana and ben are both covered: 2 of the 2 debaters, not 2 of 3.
      dcg: t1?.crux?.dcg,
      regime: run.result.regime,
    }).toEqual({
      joined: [{ type: 'devils_advocate_joined', agent: DA, afterMessages: 20, thread: 't1' }],
      announced:
        "No crux has been proposed in the first 20 messages. A devil's advocate (devils-advocate) joins the discovery: it argues the case nobody here holds and puts a yes/no question to you. It takes no side of its own.",
      proposal: true,
      commit: ['stageRestriction', "the devil's advocate takes part only in DISCOVERY, and t1 is in CRUX_LOCK"],
      participants: ['ana', 'ben', DA],
      positions: ['ana', 'ben'],
      dcg: { coverage: 1, polarity: 1, impact: 0.8, score: 0.8 },
      regime: 'polarized',
    });
  });

  it('does not join a debate whose crux was proposed in time', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { ...config, earlyExitMinMessages: 30 }),
        thread('t1'),
        claims('t1', ['ana', 'ben'], 4),
        m('t1', 'ben', 'PROPOSE_CRUX', { question: QUESTION }),
        claims('t1', ['ana', 'ben'], 20),
      ),
    );
    expect(run.state.agents.map((a) => a.id)).toEqual(['ana', 'ben']);
    expect(run.events.some((e) => e.type === 'devils_advocate_joined')).toBe(false);
  });
});

describe('the debate-wide stop rules', () => {
  it('stop a debate with no new crux in the last N messages: partial, Confidence: LOW, later lines unused', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { budgets: { DISCOVERY: 40 }, devilsAdvocateAfter: 0, stopRules: { noNewCrux: 10 } }),
        thread('t1'),
        claims('t1', ['ana', 'ben'], 12),
      ),
    );
    expect({
      stopped: run.events.filter((e) => e.type === 'debate_stopped'),
      messages: run.result.systemMetrics.messagesTotal,
      regime: run.result.regime,
      confidence: run.result.confidence,
    }).toEqual({
      stopped: [{ type: 'debate_stopped', reason: 'no new crux in the last 10 messages' }],
      messages: 10,
      regime: 'partial',
      confidence: 'LOW',
    });
  });

  it('stop a debate whose coalitions and irreducible cruxes have not moved, with no new thread, for N messages', () => {
    // t1 and t2 crystallize at messages 9 and 18 with ana and ben YES, cid NO: from then on ana and
    // ben are a coalition and both cruxes are irreducible. Six messages of t3 later the rule holds.
    const yesYesNo = analysis({ ana: { side: 'YES' }, ben: { side: 'YES' }, cid: { side: 'NO' } });
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cid'], { ...FAST_CONFIG, stopRules: { coalitionsStable: 6 } }),
        quickCrux('t1', 'ana', 'cid', yesYesNo),
        quickCrux('t2', 'ana', 'cid', yesYesNo),
        thread('t3'),
        claims('t3', ['ben', 'cid'], 8),
      ),
    );
    expect({
      coalitions: run.result.coalitions.map((c) => c.members),
      irreducible: run.result.irreducibleCruxes,
      stopped: run.events.filter((e) => e.type === 'debate_stopped'),
      messages: run.result.systemMetrics.messagesTotal,
      t3: [run.result.threads[2]?.status, run.result.threads[2]?.stages.discovery.messages],
      regime: run.result.regime,
      confidence: run.result.confidence,
    }).toEqual({
      coalitions: [['ana', 'ben']],
      irreducible: ['t1', 't2'],
      stopped: [{ type: 'debate_stopped', reason: 'coalitions stable for 6 messages, with no new thread' }],
      messages: 24,
      t3: ['DISCOVERY', 6],
      regime: 'partial',
      confidence: 'LOW',
    });
  });

  it('leave a debate that ends by itself as it was: no stop, no confidence flag', () => {
    const lines: ScriptObject[] = [
      ...quickCrux('t1', 'ana', 'ben', analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } })),
    ];
    const run = replayScript(script(debate(['ana', 'ben'], FAST_CONFIG), lines));
    expect([run.result.regime, 'confidence' in run.result, run.state.stoppedBy]).toEqual(['polarized', false, null]);
  });
});

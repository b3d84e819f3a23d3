import { describe, expect, it } from 'vitest';
import { ScriptError } from './errors';
import { replayScript, runReplay } from './replay';
import type { ScriptObject } from './script-builder';
import { FAST_CONFIG, analysis, debate, message as m, quickCrux, script, thread } from './script-builder';
import { renderTranscript } from './transcript-md';

// Self-correction: a crystallized crux challenged by an agent is re-extracted by the crystallizer,
// or marked NEEDS_CLARIFICATION; its history stays on the crux. The thread t1 crystallizes at m9 on
// a split (validated, primary); the challenge is m10.

const OLD_QUESTION = 'Does the policy raise output within 18 months?';
const NEW_QUESTION = 'Does output per employee rise by at least 5% within 18 months?';
const split = analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } });

const review = (extra: ScriptObject): ScriptObject => ({ type: 'crux_review', thread: 't1', ...extra });
const challenge = (reason: unknown = 'NOT_BINARY', threadId = 't1') =>
  m(threadId, 'ben', 'CHALLENGE_CRUX', { cruxChallenge: reason }, { content: 'It asks how much, not yes or no.' });

function replay(...lines: (ScriptObject | ScriptObject[])[]) {
  return replayScript(script(debate(['ana', 'ben'], FAST_CONFIG), quickCrux('t1', 'ana', 'ben', split), ...lines));
}

const firstReview = (outcome: string, note: string | null) => ({
  challenge: { messageId: 'm10', agent: 'ben', reason: 'NOT_BINARY' },
  outcome,
  note,
  before: { question: OLD_QUESTION, validated: true, validationFailures: [] },
});

describe('a challenged crux', () => {
  it('challenged as not binary, is re-extracted from the same thread and keeps its history', () => {
    const run = replay(challenge(), review({ output: { ...split, question: NEW_QUESTION } }));
    const t1 = run.result.threads[0];
    expect({
      regime: run.result.regime,
      primary: run.result.primaryCrux,
      status: t1?.status,
      question: t1?.crux?.question,
      validated: t1?.crux?.validated,
      history: t1?.crux?.history,
      messages: run.result.systemMetrics.messagesTotal,
      events: run.events.filter((e) => e.type === 'crux_challenged' || e.type === 'crux_reviewed').map((e) => e.type),
    }).toEqual({
      regime: 'polarized',
      primary: 't1',
      status: 'CONVERGED',
      question: NEW_QUESTION,
      validated: true,
      history: [firstReview('REEXTRACTED', null)],
      messages: 10,
      events: ['crux_challenged', 'crux_reviewed'],
    });
    const meta = {
      id: 'd',
      provider: 'replay',
      seed: null,
      status: 'completed',
      reason: null,
      notes: [],
      createdAt: 'now',
    };
    const text = renderTranscript(run.state, run.result, meta);
    expect(text).toContain(
      `History:\n- \`m10\` BEN challenged it as NOT_BINARY → re-extracted; it was “${OLD_QUESTION}” (validated)\n`,
    );
    expect(text).toContain(
      '- `m10` **BEN** · CHALLENGE_CRUX\n  It asks how much, not yes or no.\n  _challenges the crux: NOT_BINARY_',
    );
  });

  it('answered NEEDS_CLARIFICATION, stays as it was but is no longer irreducible', () => {
    const run = replay(challenge(), review({ needsClarification: 'Which output measure: revenue or units?' }));
    const crux = run.result.threads[0]?.crux;
    expect({
      regime: run.result.regime,
      primary: run.result.primaryCrux,
      irreducible: run.result.irreducibleCruxes,
      question: crux?.question,
      validated: crux?.validated,
      failures: crux?.validationFailures,
      history: crux?.history,
    }).toEqual({
      regime: 'inconclusive',
      primary: null,
      irreducible: [],
      question: OLD_QUESTION,
      validated: false,
      failures: ['NEEDS_CLARIFICATION'],
      history: [firstReview('NEEDS_CLARIFICATION', 'Which output measure: revenue or units?')],
    });
    // A later review that re-extracts it brings it back, and the history keeps both.
    const again = replay(
      challenge(),
      review({ needsClarification: 'Which output measure: revenue or units?' }),
      m('t1', 'ana', 'CHALLENGE_CRUX', { cruxChallenge: 'MIS_STATED' }, { content: 'Units, per employee.' }),
      review({ output: { ...split, question: NEW_QUESTION } }),
    );
    const back = again.result.threads[0]?.crux;
    expect({
      regime: again.result.regime,
      validated: back?.validated,
      history: back?.history?.map((r) => [
        r.challenge.messageId,
        r.challenge.reason,
        r.outcome,
        r.before.validationFailures,
      ]),
    }).toEqual({
      regime: 'polarized',
      validated: true,
      history: [
        ['m10', 'NOT_BINARY', 'NEEDS_CLARIFICATION', []],
        ['m11', 'MIS_STATED', 'REEXTRACTED', ['NEEDS_CLARIFICATION']],
      ],
    });
  });

  it('is refused where there is no crux to challenge, with a reason that is not one of the three, or after two reviews', () => {
    const run = replay(
      thread('t2'),
      challenge('NOT_BINARY', 't2'),
      challenge('TOO_LONG'),
      challenge(),
      review({ needsClarification: 'Which measure?' }),
      challenge('MIS_STATED'),
      review({ output: split }),
      challenge('NOT_DECISION_RELEVANT'),
    );
    const blocked = run.state.transcript
      .filter((e) => e.move === 'CHALLENGE_CRUX')
      .map((e) => [e.id, e.accepted, e.blockedReason ?? null, e.blockedDetail ?? null]);
    expect(blocked).toEqual([
      [
        'm10',
        false,
        'stageRestriction',
        'CHALLENGE_CRUX is not allowed in DISCOVERY: only a crystallized crux can be challenged',
      ],
      [
        'm11',
        false,
        'invalidMove',
        'CHALLENGE_CRUX needs meta.cruxChallenge: MIS_STATED, NOT_BINARY, NOT_DECISION_RELEVANT',
      ],
      ['m12', true, null, null],
      ['m13', true, null, null],
      ['m14', false, 'threadClosed', 'the crux of t1 was already reviewed 2 times'],
    ]);
  });

  it('with no crux_review line to answer it is a script error at the challenge; a review line names one answer', () => {
    const text = script(debate(['ana', 'ben'], FAST_CONFIG), quickCrux('t1', 'ana', 'ben', split), challenge());
    const lineOf = (t: string) => {
      try {
        runReplay(t);
      } catch (e) {
        if (e instanceof ScriptError) return e.message;
        throw e;
      }
      return null;
    };
    expect(lineOf(text)).toBe('line 13: the crux of thread "t1" was challenged but no crux_review line answers it');
    expect(lineOf(`${text}\n${JSON.stringify(review({ output: split, needsClarification: 'x' }))}`)).toMatch(
      /^line 14: .*either output \(the crux re-extracted\) or needsClarification, not both/,
    );
  });
});

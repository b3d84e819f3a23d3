import { describe, expect, it } from 'vitest';
import type { CruxEvent } from './events';
import { replayScript } from './replay';
import {
  commit,
  crystallize,
  analysis,
  debate,
  falsifier,
  message as m,
  quickDiscovery,
  quickLock,
  script,
  thread,
} from './script-builder';

// Every block reason, every move requirement and the order in which the checks run.

function blocked(events: CruxEvent[]) {
  return events.flatMap((e) => (e.type === 'message_blocked' ? [{ id: e.id, reason: e.reason, detail: e.detail }] : []));
}

function interventions(events: CruxEvent[]) {
  return events.flatMap((e) =>
    e.type === 'moderator_intervention' ? [{ id: e.id, kind: e.kind, ...(e.target ? { target: e.target } : {}) }] : [],
  );
}

describe('move requirements in CRUX_LOCK', () => {
  it('blocks malformed steelmans, grades, commits and falsifiers as invalidMove with a reason', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cal']),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'), // m1-m6, early exit
        m('t1', 'ana', 'STEELMAN', {}), // m7
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ana' }), // m8
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m9: nothing pending
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m10: accepted
        m('t1', 'cal', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m11: not the target
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'PENDING' }), // m12
        m('t1', 'ana', 'COMMIT_POSITION', { confidence: 0.5, horizon: '5y' }), // m13
        m('t1', 'ana', 'COMMIT_POSITION', { side: 'YES', confidence: 1.5, horizon: '5y' }), // m14
        m('t1', 'ana', 'COMMIT_POSITION', { side: 'YES', confidence: 0.5, horizon: '2y' }), // m15
        m('t1', 'ana', 'COMMIT_POSITION', { side: 'YES', confidence: 0.5, horizon: '5y', falsifier: 'soon' }), // m16
        m('t1', 'ana', 'COMMIT_POSITION', {
          side: 'YES',
          confidence: 0.5,
          horizon: '5y',
          falsifier: { metric: 5, threshold: '> 1', deadline: '2030' },
        }), // m17
        m('t1', 'ben', 'DECLARE_FALSIFIER', { falsifier: falsifier() }), // m18: no commitment yet
        m('t1', 'ben', 'DECLARE_FALSIFIER', {}), // m19
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'WRONG' }), // m20: accepted
      ),
    );
    expect(blocked(run.events)).toEqual([
      { id: 'm7', reason: 'invalidMove', detail: 'STEELMAN needs meta.steelmanTarget, an agent of the debate' },
      { id: 'm8', reason: 'invalidMove', detail: 'STEELMAN target must be another agent' },
      { id: 'm9', reason: 'invalidMove', detail: 'no PENDING steelman of ben to grade' },
      { id: 'm11', reason: 'invalidMove', detail: 'no PENDING steelman of cal to grade' },
      {
        id: 'm12',
        reason: 'invalidMove',
        detail: 'GRADE_STEELMAN needs meta.steelmanGrade: ACCURATE, INCOMPLETE or WRONG',
      },
      { id: 'm13', reason: 'invalidMove', detail: 'COMMIT_POSITION needs meta.side: YES, NO or UNCERTAIN' },
      { id: 'm14', reason: 'invalidMove', detail: 'COMMIT_POSITION needs meta.confidence in [0,1]' },
      { id: 'm15', reason: 'invalidMove', detail: 'COMMIT_POSITION needs meta.horizon: 1-3mo, 12-18mo, 5y, 10y+' },
      {
        id: 'm16',
        reason: 'invalidMove',
        detail: 'falsifier must be an object {metric, threshold, deadline, reasoning?}',
      },
      { id: 'm17', reason: 'invalidMove', detail: 'falsifier.metric must be a string' },
      { id: 'm18', reason: 'invalidMove', detail: 'DECLARE_FALSIFIER needs a COMMIT_POSITION in this thread first' },
      { id: 'm19', reason: 'invalidMove', detail: 'DECLARE_FALSIFIER needs meta.falsifier' },
    ]);
    const t1 = run.state.threads[0];
    expect(t1?.steelmans).toEqual([
      { from: 'ana', to: 'ben', grade: 'WRONG', attempts: 1, messageId: 'm10', openedAt: 10 },
    ]);
    // Blocked messages count toward nothing: two accepted lock messages.
    expect(run.result.threads[0]?.stages.cruxLock.messages).toBe(2);
    expect(run.result.systemMetrics.reasonsBlocked.invalidMove).toBe(12);
    expect(run.result.systemMetrics.messagesBlocked).toBe(12);
    expect(run.result.systemMetrics.messagesTotal).toBe(8);
  });

  it('lets the target grade the latest PENDING attempt aimed at it', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cal'], { budgets: { CRUX_LOCK: 20 } }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'cal' }), // m7
        m('t1', 'ben', 'STEELMAN', { steelmanTarget: 'cal' }), // m8
        m('t1', 'cal', 'GRADE_STEELMAN', { steelmanGrade: 'INCOMPLETE' }), // m9 grades ben's
        m('t1', 'cal', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m10 grades ana's
        m('t1', 'cal', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m11 nothing left
      ),
    );
    expect(run.state.threads[0]?.steelmans.map(({ from, to, grade }) => ({ from, to, grade }))).toEqual([
      { from: 'ana', to: 'cal', grade: 'ACCURATE' },
      { from: 'ben', to: 'cal', grade: 'INCOMPLETE' },
    ]);
    expect(blocked(run.events)).toEqual([
      { id: 'm11', reason: 'invalidMove', detail: 'no PENDING steelman of cal to grade' },
    ]);
  });
});

describe('move requirements in EVIDENCE', () => {
  it('blocks malformed evidence moves as invalidMove with a reason', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cal']),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        quickLock('t1', 'ana', 'ben'), // m7-m12, locked
        m('t1', 'ana', 'PROVIDE_EVIDENCE'), // m13 accepted
        m('t1', 'ben', 'CHALLENGE_EVIDENCE'), // m14
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm14' }), // m15: blocked target
        m('t1', 'ana', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm13' }), // m16: own message
        m('t1', 'ben', 'UPDATE_POSITION', { priorPosition: 'YES', newPosition: 'YES', topClaimChanged: true }), // m17
        m('t1', 'cal', 'UPDATE_POSITION', { priorPosition: 'NO', newPosition: 'YES', topClaimChanged: true }), // m18
        m('t1', 'ben', 'UPDATE_POSITION', { priorPosition: 'NO', newPosition: 'NO' }), // m19
        m('t1', 'ben', 'UPDATE_POSITION', { priorPosition: 'NO', newPosition: 'MAYBE', topClaimChanged: false }), // m20
        m('t1', 'ben', 'UPDATE_POSITION', {
          priorPosition: 'NO',
          newPosition: 'NO',
          topClaimChanged: false,
          confidence: 2,
        }), // m21
        m('t1', 'ana', 'CONCEDE', { topClaimChanged: false }), // m22
        m('t1', 'ana', 'CONCEDE', { concededProposition: '   ', topClaimChanged: false }), // m23
        m('t1', 'ana', 'CONCEDE', { concededProposition: 'Attrition matters' }), // m24
        m('t1', 'ana', 'CONCEDE', { concededProposition: 'Attrition matters', topClaimChanged: true }), // m25
        m('t1', 'ana', 'PROVIDE_EVIDENCE', { evidenceLink: 5 }), // m26
        m('t1', 'ana', 'PROPOSE_CRUX', {}), // m27
        m('t1', 'ana', 'PROPOSE_CRUX', { question: 'Is attrition the real issue' }), // m28
        m('t1', 'ana', 'PROVIDE_EVIDENCE', { targetFalsifierOf: 7 }), // m29
        m('t1', 'ana', 'PROPOSE_CRUX', { question: 'Is attrition the real issue?' }), // m30 accepted
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm13' }), // m31 accepted
      ),
    );
    const invalid = (id: string, detail: string) => ({ id, reason: 'invalidMove', detail });
    expect(blocked(run.events)).toEqual([
      invalid('m14', 'CHALLENGE_EVIDENCE needs replyTo'),
      invalid('m15', 'replyTo m14 is not an accepted agent message of this thread'),
      invalid('m16', 'CHALLENGE_EVIDENCE must answer another agent'),
      invalid('m17', 'priorPosition YES is not the current side NO'),
      invalid('m18', 'UPDATE_POSITION needs a position in this thread first'),
      invalid('m19', 'UPDATE_POSITION needs meta.topClaimChanged (boolean)'),
      invalid('m20', 'UPDATE_POSITION needs meta.newPosition'),
      invalid('m21', 'UPDATE_POSITION confidence must be in [0,1]'),
      invalid('m22', 'CONCEDE needs meta.concededProposition'),
      invalid('m23', 'CONCEDE needs meta.concededProposition'),
      invalid('m24', 'CONCEDE needs meta.topClaimChanged (boolean)'),
      invalid('m25', 'a CONCEDE that changes the top claim needs meta.priorPosition and meta.newPosition'),
      invalid('m26', 'evidenceLink must be a string'),
      invalid('m27', 'PROPOSE_CRUX needs meta.question'),
      invalid('m28', 'PROPOSE_CRUX question must end with "?"'),
      invalid('m29', 'targetFalsifierOf must be an agent of the debate'),
    ]);
    // In EVIDENCE a proposal is only a candidate: the thread keeps its binary question.
    const t1 = run.state.threads[0];
    expect(t1?.candidateCruxes).toEqual([{ by: 'ana', question: 'Is attrition the real issue?', messageId: 'm30' }]);
    expect(t1?.binaryQuestion).toBe('Does the policy raise output within 18 months?');
    expect(t1?.messages.EVIDENCE).toBe(3);
  });

  it('requires CHALLENGE_EVIDENCE to answer a message of the same thread', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        thread('t2'),
        m('t2', 'ana', 'CLAIM'), // m1
        quickDiscovery('t1', 'ana', 'ben'), // m2-m7
        quickLock('t1', 'ana', 'ben'), // m8-m13
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm1' }), // m14
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm99' }), // m15
      ),
    );
    expect(blocked(run.events)).toEqual([
      { id: 'm14', reason: 'invalidMove', detail: 'replyTo m1 is not an accepted agent message of this thread' },
      { id: 'm15', reason: 'invalidMove', detail: 'replyTo m99 is not an accepted agent message of this thread' },
    ]);
  });
});

describe('threadClosed, stageRestriction and replyLimit', () => {
  it('blocks moves outside their stage', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m1 DISCOVERY
        m('t1', 'ana', 'PROVIDE_EVIDENCE'), // m2 DISCOVERY
        quickDiscovery('t1', 'ana', 'ben'), // m3-m8
        m('t1', 'ana', 'CLAIM'), // m9 CRUX_LOCK
        m('t1', 'ana', 'PROPOSE_CRUX', { question: 'Why?' }), // m10 CRUX_LOCK
        quickLock('t1', 'ana', 'ben'), // m11-m16
        m('t1', 'ana', 'COMMIT_POSITION', { side: 'YES', confidence: 0.5, horizon: '5y' }), // m17 EVIDENCE
        m('t1', 'ana', 'CLARIFY'), // m18 EVIDENCE
      ),
    );
    expect(blocked(run.events).map(({ id, reason, detail }) => `${id} ${reason}: ${detail}`)).toEqual([
      'm1 stageRestriction: STEELMAN is not allowed in DISCOVERY',
      'm2 stageRestriction: PROVIDE_EVIDENCE is not allowed in DISCOVERY',
      'm9 stageRestriction: CLAIM is not allowed in CRUX_LOCK',
      'm10 stageRestriction: PROPOSE_CRUX is not allowed in CRUX_LOCK',
      'm17 stageRestriction: COMMIT_POSITION is not allowed in EVIDENCE',
      'm18 stageRestriction: CLARIFY is not allowed in EVIDENCE',
    ]);
  });

  it('counts only accepted direct replies toward the limit of 2', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        m('t1', 'ana', 'CLAIM'), // m1
        m('t1', 'ben', 'CHALLENGE', {}, { replyTo: 'm1' }), // m2
        m('t1', 'ben', 'STEELMAN', { steelmanTarget: 'ana' }, { replyTo: 'm1' }), // m3 blocked: stage
        m('t1', 'ana', 'CLARIFY', {}, { replyTo: 'm1' }), // m4: second accepted reply
        m('t1', 'ben', 'CHALLENGE', {}, { replyTo: 'm1' }), // m5: third
        m('t1', 'ben', 'STEELMAN', {}, { replyTo: 'm1' }), // m6: stage comes before replies
        m('t1', 'ben', 'CHALLENGE', {}, { replyTo: 'm2' }), // m7
      ),
    );
    expect(blocked(run.events).map(({ id, reason }) => `${id} ${reason}`)).toEqual([
      'm3 stageRestriction',
      'm5 replyLimit',
      'm6 stageRestriction',
    ]);
    expect(run.state.replyCounts).toEqual({ m1: 2, m2: 1 });
  });

  it('honours a configured reply limit and checks it before the move itself', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { maxReplies: 1 }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        quickLock('t1', 'ana', 'ben'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'), // m13
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm13' }), // m14
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm13' }), // m15 replyLimit
        m('t1', 'ana', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm13' }), // m16 replyLimit, though also its own
      ),
    );
    expect(blocked(run.events).map(({ id, reason }) => `${id} ${reason}`)).toEqual(['m15 replyLimit', 'm16 replyLimit']);
  });

  it('blocks every message to a closed thread, before any other check', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { budgets: { DISCOVERY: 2 }, discoveryExtensions: 0 }),
        thread('t1'),
        m('t1', 'ana', 'CLAIM'),
        m('t1', 'ben', 'CLAIM'), // m2: budget out, no question → FAILED_DISCOVERY
        m('t1', 'ana', 'CLAIM'), // m3
        m('t1', 'ana', 'STEELMAN', {}, { replyTo: 'm1' }), // m4: wrong stage too, still threadClosed
      ),
    );
    expect(run.result.threads[0]?.status).toBe('FAILED_DISCOVERY');
    expect(blocked(run.events)).toEqual([
      { id: 'm3', reason: 'threadClosed', detail: 'thread t1 is FAILED_DISCOVERY' },
      { id: 'm4', reason: 'threadClosed', detail: 'thread t1 is FAILED_DISCOVERY' },
    ]);
  });

  it('blocks messages to a CONVERGED thread', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { budgets: { EVIDENCE: 1 } }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        quickLock('t1', 'ana', 'ben'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'), // m13 → crystallized
        m('t1', 'ben', 'PROVIDE_EVIDENCE'), // m14
        crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } })),
      ),
    );
    expect(blocked(run.events)).toEqual([{ id: 'm14', reason: 'threadClosed', detail: 'thread t1 is CONVERGED' }]);
  });
});

describe('steelmanRequired', () => {
  it('holds decided challengers to an ACCURATE steelman of an opposite author, in this thread, by current sides', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cal', 'dan']),
        thread('t1'),
        thread('t2'),
        // Its own question: two open threads on one question would be merged (./thread-merge.ts).
        quickDiscovery('t2', 'ana', 'cal', 'Do the pilot firms keep the policy after a year?'), // m1-m6
        m('t2', 'cal', 'STEELMAN', { steelmanTarget: 'ana' }), // m7 (in t2 only)
        m('t2', 'ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m8
        quickDiscovery('t1', 'ana', 'ben'), // m9-m14
        commit('t1', 'ana', 'YES'), // m15
        commit('t1', 'ben', 'NO'), // m16
        commit('t1', 'cal', 'UNCERTAIN'), // m17
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m18
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m19
        m('t1', 'ben', 'STEELMAN', { steelmanTarget: 'ana' }), // m20
        m('t1', 'ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m21 → locked
        m('t1', 'ana', 'PROVIDE_EVIDENCE'), // m22
        m('t1', 'cal', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm22' }), // m23 UNCERTAIN: free
        m('t1', 'cal', 'UPDATE_POSITION', { priorPosition: 'UNCERTAIN', newPosition: 'NO', topClaimChanged: false }), // m24
        m('t1', 'cal', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm22' }), // m25 now NO: blocked
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm22' }), // m26 has the steelman
        m('t1', 'ana', 'PROVIDE_EVIDENCE'), // m27
        m('t1', 'dan', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm27' }), // m28 uncommitted: free
        m('t1', 'ben', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm24' }), // m29 same side as cal now
      ),
    );
    expect(run.result.threads.map((t) => t.status)).toEqual(['EVIDENCE', 'CRUX_LOCK']);
    expect(blocked(run.events)).toEqual([
      { id: 'm25', reason: 'steelmanRequired', detail: 'cal needs an ACCURATE steelman of ana first' },
    ]);
    expect(run.result.threads[0]?.stages.evidence.messages).toBe(7);
  });

  it('stops a NO agent that has only steelmanned a different YES agent', () => {
    // each-across lets a lock hold with a→b, d→e, b→a, e→d: ana never steelmanned eve.
    const pairs: [string, string][] = [
      ['ana', 'ben'],
      ['dan', 'eve'],
      ['ben', 'ana'],
      ['eve', 'dan'],
    ];
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'dan', 'eve'], { budgets: { CRUX_LOCK: 20 } }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'), // m1-m6
        commit('t1', 'ana', 'YES'), // m7
        commit('t1', 'dan', 'YES'), // m8
        commit('t1', 'ben', 'NO'), // m9
        commit('t1', 'eve', 'NO'), // m10
        pairs.flatMap(([from, to]) => [
          m('t1', from, 'STEELMAN', { steelmanTarget: to }),
          m('t1', to, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
        ]), // m11-m18, locked on m18
        m('t1', 'eve', 'PROVIDE_EVIDENCE'), // m19
        m('t1', 'ana', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm19' }), // m20 blocked
        m('t1', 'dan', 'CHALLENGE_EVIDENCE', {}, { replyTo: 'm19' }), // m21 fine
      ),
    );
    expect(run.result.threads[0]?.status).toBe('EVIDENCE');
    expect(blocked(run.events).map(({ id, reason }) => `${id} ${reason}`)).toEqual(['m20 steelmanRequired']);
  });
});

describe('vagueFalsifier', () => {
  it('blocks vague falsifiers on commits and declarations and asks that agent for a concrete one', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        commit('t1', 'ana', 'YES', { falsifier: { metric: 'Output', threshold: 'might fall', deadline: '2027' } }), // m7
        commit('t1', 'ana', 'YES', { falsifier: undefined }), // m8 accepted, no falsifier
        m('t1', 'ana', 'DECLARE_FALSIFIER', { falsifier: { metric: 'Output', threshold: 'doubles', deadline: '2027' } }), // m9
        m('t1', 'ana', 'DECLARE_FALSIFIER', { falsifier: { metric: 'Output', threshold: '> 3', deadline: '   ' } }), // m10
        m('t1', 'ana', 'DECLARE_FALSIFIER', { falsifier: { metric: 'Output', threshold: '> 3' } }), // m11 missing deadline
        m('t1', 'ana', 'DECLARE_FALSIFIER', { falsifier: { metric: 'Output', threshold: '≥ 3', deadline: '2027' } }), // m12
      ),
    );
    expect(blocked(run.events).map(({ id, reason }) => `${id} ${reason}`)).toEqual([
      'm7 vagueFalsifier',
      'm9 vagueFalsifier',
      'm10 vagueFalsifier',
      'm11 vagueFalsifier',
    ]);
    expect(interventions(run.events)).toEqual([
      { id: 'mod1', kind: 'FALSIFIER_REQUEST', target: 'ana' },
      { id: 'mod2', kind: 'FALSIFIER_REQUEST', target: 'ana' },
      { id: 'mod3', kind: 'FALSIFIER_REQUEST', target: 'ana' },
      { id: 'mod4', kind: 'FALSIFIER_REQUEST', target: 'ana' },
    ]);
    expect(run.state.threads[0]?.falsifiers).toEqual({ ana: { metric: 'Output', threshold: '≥ 3', deadline: '2027' } });
    expect(run.result.systemMetrics.moderatorInterventions.FALSIFIER_REQUEST).toBe(4);
  });
});

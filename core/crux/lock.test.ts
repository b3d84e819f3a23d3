import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from './config';
import type { CruxEvent } from './events';
import { lockFailures } from './lock';
import { replayScript } from './replay';
import { commit, debate, falsifier, message as m, quickDiscovery, quickLock, script, thread } from './script-builder';
import type { AgentProfile, SteelmanAttempt, ThreadState } from './state';
import { newThread } from './state';
import type { GivenGrade, Side } from './vocabulary';

const agents: AgentProfile[] = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id, name: id }));
const F = { metric: 'Output', threshold: '> 5%', deadline: '2027' };

/** A CRUX_LOCK thread with the given sides, falsifiers and graded steelmans (from→to:grade). */
function lockThread(sides: Record<string, Side>, withFalsifier: string[], steelmans: string[]): ThreadState {
  const t = newThread('t', 'topic', 'Q?', DEFAULT_CONFIG, 'script');
  t.status = 'CRUX_LOCK';
  for (const [id, side] of Object.entries(sides)) {
    t.commitments[id] = { side, confidence: 0.5, horizon: '5y', statement: '', messageId: 'm0' };
    t.stances[id] = { side, confidence: 0.5 };
  }
  for (const id of withFalsifier) t.falsifiers[id] = F;
  t.steelmans = steelmans.map((s, i): SteelmanAttempt => {
    const [pair = '', grade = 'PENDING'] = s.split(':');
    const [from = '', to = ''] = pair.split('->');
    return { from, to, grade: grade as GivenGrade, attempts: 1, messageId: `m${i}`, openedAt: i };
  });
  return t;
}

describe('lock criteria', () => {
  it('reports every failing criterion', () => {
    expect(lockFailures(lockThread({}, [], []), agents, 'each-across')).toEqual(['MIN_COMMITMENTS', 'NO_SPLIT']);
    expect(lockFailures(lockThread({ a: 'YES' }, ['a'], []), agents, 'each-across')).toEqual([
      'MIN_COMMITMENTS',
      'NO_SPLIT',
      'STEELMAN_GIVE:a',
      'STEELMAN_RECEIVE:a',
    ]);
    expect(lockFailures(lockThread({ a: 'YES', b: 'NO' }, [], []), agents, 'each-across')).toEqual([
      'STEELMAN_GIVE:a',
      'STEELMAN_GIVE:b',
      'STEELMAN_RECEIVE:a',
      'STEELMAN_RECEIVE:b',
      'FALSIFIER_MISSING:a',
      'FALSIFIER_MISSING:b',
    ]);
  });

  it('passes with a split, accurate steelmans both ways and falsifiers; UNCERTAIN agents need neither', () => {
    const t = lockThread({ a: 'YES', b: 'NO', c: 'UNCERTAIN' }, ['a', 'b'], ['a->b:ACCURATE', 'b->a:ACCURATE']);
    expect(lockFailures(t, agents, 'each-across')).toEqual([]);
    expect(lockFailures(t, agents, 'pairwise')).toEqual([]);
  });

  it('counts only ACCURATE steelmans of an agent on the opposite side', () => {
    const t = lockThread(
      { a: 'YES', b: 'NO', c: 'YES' },
      ['a', 'b', 'c'],
      ['a->b:INCOMPLETE', 'a->c:ACCURATE', 'b->a:ACCURATE', 'c->b:WRONG', 'b->c:PENDING'],
    );
    expect(lockFailures(t, agents, 'each-across')).toEqual([
      'STEELMAN_GIVE:a',
      'STEELMAN_GIVE:c',
      'STEELMAN_RECEIVE:b',
      'STEELMAN_RECEIVE:c',
    ]);
  });

  it('each-across is satisfied by some opposite agent, pairwise needs every opposite pair both ways', () => {
    const t = lockThread(
      { a: 'YES', d: 'YES', b: 'NO', e: 'NO' },
      ['a', 'b', 'd', 'e'],
      ['a->b:ACCURATE', 'd->e:ACCURATE', 'b->a:ACCURATE', 'e->d:ACCURATE'],
    );
    expect(lockFailures(t, agents, 'each-across')).toEqual([]);
    expect(lockFailures(t, agents, 'pairwise')).toEqual([
      'STEELMAN_PAIR:a->e',
      'STEELMAN_PAIR:b->d',
      'STEELMAN_PAIR:d->b',
      'STEELMAN_PAIR:e->a',
    ]);
  });

  it('judges sides as they are now, so NO_SPLIT stands beside MIN_COMMITMENTS', () => {
    const t = lockThread({ a: 'YES', b: 'NO' }, ['a', 'b'], ['a->b:ACCURATE', 'b->a:ACCURATE']);
    t.stances.b = { side: 'YES' };
    expect(lockFailures(t, agents, 'each-across')).toEqual([
      'NO_SPLIT',
      'STEELMAN_GIVE:a',
      'STEELMAN_GIVE:b',
      'STEELMAN_RECEIVE:a',
      'STEELMAN_RECEIVE:b',
    ]);
  });
});

function lockStory(events: CruxEvent[]): unknown[] {
  return events.flatMap((e): unknown[] => {
    if (e.type === 'lock_failed') return [{ failed: e.attempt, failures: e.failures }];
    if (e.type === 'lock_attempt' && e.ok) return [{ locked: e.attempt }];
    if (e.type === 'moderator_intervention') return [{ id: e.id, kind: e.kind, ...(e.target ? { target: e.target } : {}) }];
    if (e.type === 'thread_closed' || e.type === 'stage_transition') return [e.type === 'thread_closed' ? e.status : e.to];
    return [];
  });
}

describe('CRUX_LOCK attempts', () => {
  it('fails three times with targeted interventions and closes as FAILED_LOCK', () => {
    const clarify = (n: number, agent = 'ana') => Array.from({ length: n }, () => m('t1', agent, 'CLARIFY'));
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'), // m1-m6
        commit('t1', 'ana', 'YES'), // m7 (lock 1)
        clarify(7), // m8-m14 (lock 8): failure 1
        commit('t1', 'ben', 'NO', { horizon: '10y+', falsifier: undefined }), // m15: horizons differ
        clarify(3), // m16-m18 (lock 12): failure 2
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m19
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'WRONG' }), // m20
        m('t1', 'ben', 'DECLARE_FALSIFIER', { falsifier: falsifier() }), // m21
        clarify(1), // m22 (lock 16): failure 3
        clarify(1), // m23: closed
      ),
    );
    expect(lockStory(run.events)).toEqual([
      'CRUX_LOCK',
      { failed: 1, failures: ['MIN_COMMITMENTS', 'NO_SPLIT', 'STEELMAN_GIVE:ana', 'STEELMAN_RECEIVE:ana'] },
      { id: 'mod1', kind: 'COMMIT_REQUEST' },
      { id: 'mod2', kind: 'STEELMAN_REQUEST', target: 'ana' },
      { id: 'mod3', kind: 'HORIZON_ALIGNMENT' },
      {
        failed: 2,
        failures: [
          'STEELMAN_GIVE:ana',
          'STEELMAN_GIVE:ben',
          'STEELMAN_RECEIVE:ana',
          'STEELMAN_RECEIVE:ben',
          'FALSIFIER_MISSING:ben',
        ],
      },
      { id: 'mod4', kind: 'STEELMAN_REQUEST', target: 'ana' },
      { id: 'mod5', kind: 'FALSIFIER_REQUEST', target: 'ben' },
      { id: 'mod6', kind: 'BINARY_FRAMING' },
      { failed: 3, failures: ['STEELMAN_GIVE:ana', 'STEELMAN_GIVE:ben', 'STEELMAN_RECEIVE:ana', 'STEELMAN_RECEIVE:ben'] },
      'FAILED_LOCK',
    ]);
    const { threads, systemMetrics, regime } = run.result;
    expect(threads[0]).toMatchObject({
      status: 'FAILED_LOCK',
      stages: { discovery: { messages: 6 }, cruxLock: { messages: 16, lockAttempts: 3 }, evidence: { messages: 0 } },
      crux: null,
    });
    expect(new Set(threads[0]?.lockFailures)).toEqual(
      new Set(['STEELMAN_GIVE:ana', 'STEELMAN_GIVE:ben', 'STEELMAN_RECEIVE:ana', 'STEELMAN_RECEIVE:ben']),
    );
    expect(systemMetrics).toMatchObject({
      cruxLockAttempts: 3,
      cruxLockSuccesses: 0,
      cruxLockFailures: 3,
      horizonMismatches: 1,
      moderatorInterventions: {
        BINARY_FRAMING: 1,
        HORIZON_ALIGNMENT: 1,
        COMMIT_REQUEST: 1,
        STEELMAN_REQUEST: 2,
        FALSIFIER_REQUEST: 1,
      },
      reasonsBlocked: { threadClosed: 1 },
    });
    expect(regime).toBe('inconclusive');
  });

  it('frames the question on the second failure only, and honours the attempt and retry settings', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben'], { maxLockAttempts: 4, budgets: { CRUX_LOCK: 2 }, lockRetryBudget: 1 }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        Array.from({ length: 6 }, () => m('t1', 'ana', 'CLARIFY')), // failures at 2, 3, 4 and 5 messages
      ),
    );
    const failed = { failures: ['MIN_COMMITMENTS', 'NO_SPLIT'] };
    expect(lockStory(run.events)).toEqual([
      'CRUX_LOCK',
      { failed: 1, ...failed },
      { id: 'mod1', kind: 'COMMIT_REQUEST' },
      { failed: 2, ...failed },
      { id: 'mod2', kind: 'COMMIT_REQUEST' },
      { id: 'mod3', kind: 'BINARY_FRAMING' },
      { failed: 3, ...failed },
      { id: 'mod4', kind: 'COMMIT_REQUEST' },
      { failed: 4, ...failed },
      'FAILED_LOCK',
    ]);
    expect(run.result.threads[0]?.stages.cruxLock).toEqual({ messages: 5, lockAttempts: 4 });
  });

  it('checks the criteria before the budget, so a lock on the last budgeted message succeeds', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        m('t1', 'ana', 'CLARIFY'),
        m('t1', 'ben', 'CLARIFY'),
        quickLock('t1', 'ana', 'ben'), // lock messages 3-8
      ),
    );
    expect(lockStory(run.events)).toEqual(['CRUX_LOCK', { locked: 1 }, 'EVIDENCE']);
    const lockedEvent = run.events.find((e) => e.type === 'crux_locked');
    expect(lockedEvent).toEqual({
      type: 'crux_locked',
      thread: 't1',
      crux: {
        question: 'Does the policy raise output within 18 months?',
        attempt: 1,
        messageId: 'm14',
        commitments: {
          ana: { side: 'YES', confidence: 0.7, horizon: '5y', statement: '', messageId: 'm9' },
          ben: { side: 'NO', confidence: 0.7, horizon: '5y', statement: '', messageId: 'm10' },
        },
      },
    });
    expect(run.result.threads[0]).toMatchObject({
      status: 'EVIDENCE',
      lockFailures: [],
      stages: { cruxLock: { messages: 8, lockAttempts: 1 } },
    });
    expect(run.result.systemMetrics).toMatchObject({ cruxLockAttempts: 1, cruxLockSuccesses: 1, cruxLockFailures: 0 });
  });

  it('keeps a lock from passing under pairwise where each-across would pass', () => {
    const pairs: [string, string][] = [
      ['ana', 'ben'],
      ['dan', 'eve'],
      ['ben', 'ana'],
      ['eve', 'dan'],
    ];
    const lines = (rule: string) =>
      script(
        debate(['ana', 'ben', 'dan', 'eve'], { steelmanRule: rule, budgets: { CRUX_LOCK: 20 } }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        commit('t1', 'ana', 'YES'),
        commit('t1', 'dan', 'YES'),
        commit('t1', 'ben', 'NO'),
        commit('t1', 'eve', 'NO'),
        pairs.flatMap(([from, to]) => [
          m('t1', from, 'STEELMAN', { steelmanTarget: to }),
          m('t1', to, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
        ]),
      );
    expect(replayScript(lines('each-across')).result.threads[0]?.status).toBe('EVIDENCE');
    const pairwise = replayScript(lines('pairwise'));
    expect(pairwise.result.threads[0]).toMatchObject({ status: 'CRUX_LOCK', stages: { cruxLock: { lockAttempts: 0 } } });
  });

  it('a new steelman attempt replaces the graded one: ACCURATE must be earned again', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben']),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        commit('t1', 'ana', 'YES'), // m7
        commit('t1', 'ben', 'NO'), // m8
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m9
        m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m10
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben' }), // m11: retry, PENDING again
        m('t1', 'ben', 'STEELMAN', { steelmanTarget: 'ana' }), // m12
        m('t1', 'ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }), // m13: not enough, ana→ben pending
      ),
    );
    expect(run.result.threads[0]?.status).toBe('CRUX_LOCK');
    expect(run.state.threads[0]?.steelmans).toEqual([
      { from: 'ana', to: 'ben', grade: 'PENDING', attempts: 2, messageId: 'm11', openedAt: 11 },
      { from: 'ben', to: 'ana', grade: 'ACCURATE', attempts: 1, messageId: 'm12', openedAt: 12 },
    ]);
    expect(run.result.systemMetrics).toMatchObject({ steelmanAttempts: 3, steelmanRetries: 1 });
  });

  it('issues HORIZON_ALIGNMENT once per thread, when committed horizons first differ', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cal'], { budgets: { CRUX_LOCK: 20 } }),
        thread('t1'),
        quickDiscovery('t1', 'ana', 'ben'),
        commit('t1', 'ana', 'YES', { horizon: '5y' }),
        commit('t1', 'ben', 'NO', { horizon: '5y' }),
        commit('t1', 'cal', 'NO', { horizon: '1-3mo' }), // first mismatch
        commit('t1', 'ana', 'YES', { horizon: '10y+' }), // still mismatched: no second one
      ),
    );
    expect(lockStory(run.events)).toEqual(['CRUX_LOCK', { id: 'mod1', kind: 'HORIZON_ALIGNMENT' }]);
    expect(run.result.systemMetrics.horizonMismatches).toBe(1);
  });
});

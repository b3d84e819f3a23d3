import { describe, expect, it } from 'vitest';
import { type AgendaItem, agendaOf, updateAgenda } from './agenda';
import { resolveConfig } from './config';
import type { CruxRecord, CruxState, ThreadState } from './state';
import { createState, newThread } from './state';
import type { ThreadStatus } from './vocabulary';

// The agenda manager on hand-built states: which open question a discovery thread without a
// question of its own is given, by decision-relevance, then closeness to its topic, then order.

function debateOf(agents: string[]): CruxState {
  return createState({
    topic: 'A rooftop solar co-op',
    agents: agents.map((id) => ({ id, name: id })),
    config: resolveConfig({}),
  });
}

function add(
  state: CruxState,
  id: string,
  topic: string,
  status: ThreadStatus,
  question: string | null = null,
): ThreadState {
  const t = newThread(id, topic, question, state.config, 'script');
  t.status = status;
  state.threads.push(t);
  return t;
}

function crux(question: string, flips: Record<string, boolean>, validated: boolean): CruxRecord {
  return {
    question,
    positions: {},
    resolutionCriteria: [],
    counterfactual: Object.fromEntries(Object.entries(flips).map(([a, wouldFlip]) => [a, { wouldFlip, why: '' }])),
    commonGround: [],
    confidence: 0.8,
    dcg: { coverage: 0, polarity: 0, impact: 0, score: 0 },
    horizonByAgent: {},
    dominantHorizon: null,
    steelmanPairs: [],
    concessions: [],
    validated,
    validationFailures: validated ? [] : ['FEW_CRITERIA'],
  };
}

const LOANS = 'Will member loans cover 30% of the installation cost by 2027?';
const ROOFS = 'Will three school roofs be leased to the co-op by 2027?';
const TARIFF = 'Will the export tariff stay above 5p per kWh until 2028?';

const picks = (state: CruxState) =>
  Object.fromEntries(Object.entries(agendaOf(state)).map(([t, i]) => [t, [i.source, i.from, i.question, i.relevance]]));

describe('the agenda manager', () => {
  it('gives a thread with its own question that question, and one without the best open question', () => {
    const state = debateOf(['ana', 'ben', 'cy']);
    const t1 = add(state, 't1', 'Payback', 'EVIDENCE', 'Will the panels pay back within 8 years?');
    t1.stances = { ana: { side: 'YES' }, ben: { side: 'NO' }, cy: { side: 'UNCERTAIN' } };
    t1.candidateCruxes = [{ by: 'cy', question: ROOFS, messageId: 'm10' }];
    // A crux that did not validate, on which all three would change their minds: more relevant.
    const t2 = add(state, 't2', 'Tariffs', 'CONVERGED', TARIFF);
    t2.crux = crux(TARIFF, { ana: true, ben: true, cy: true }, false);
    state.crystallized = ['t2'];
    add(state, 't3', 'Financing the installation', 'DISCOVERY');
    add(state, 't4', 'Roofs', 'DISCOVERY');
    add(state, 't5', 'Anything else', 'DISCOVERY');
    expect(picks(state)).toEqual({
      t1: ['thread', 't1', 'Will the panels pay back within 8 years?', 0],
      // t3 picks first: the unvalidated crux (3 agents) beats the deeper one (2 hold a side in t1).
      t3: ['unsettled', 't2', TARIFF, 3],
      // t4 may not take the same question; the deeper crux is what is left.
      t4: ['deeper', 't1', ROOFS, 2],
      t5: ['topic', null, 'Anything else', 0],
    });
  });

  it('leaves out a question that matters to fewer than two agents, and one a thread already asks', () => {
    const state = debateOf(['ana', 'ben', 'cy']);
    const t1 = add(state, 't1', 'Payback', 'EVIDENCE', 'Will the panels pay back within 8 years?');
    // Only ana still holds a side: the deeper crux is decision-relevant to one agent.
    t1.stances = { ana: { side: 'YES' }, ben: { side: 'UNCERTAIN' } };
    t1.candidateCruxes = [{ by: 'ben', question: LOANS, messageId: 'm9' }];
    const stale = add(state, 't2', 'Roofs', 'STALE', ROOFS);
    stale.participants = ['ana', 'cy'];
    // Its question, in other words, is already argued in t3: it is not open any more.
    add(state, 't3', 'Schools', 'CRUX_LOCK', 'Will three school roofs be leased to the co-op before 2027?');
    add(state, 't4', 'Financing', 'DISCOVERY');
    expect(picks(state).t4).toEqual(['topic', null, 'Financing', 0]);

    // Once nobody argues it, the stale thread's question is open again, for the two who worked on it.
    (state.threads[2] as ThreadState).status = 'FAILED_LOCK';
    expect(picks(state).t4).toEqual(['stale', 't2', ROOFS, 2]);
  });

  it('records a pick only when it changes, and forgets the picks of closed threads', () => {
    const state = debateOf(['ana', 'ben']);
    const t1 = add(state, 't1', 'Payback', 'DISCOVERY');
    const ctx = { state, events: [] as { type: string }[], effects: [] };
    updateAgenda(ctx as never);
    updateAgenda(ctx as never);
    t1.binaryQuestion = 'Will the panels pay back within 8 years?';
    updateAgenda(ctx as never);
    t1.status = 'FAILED_DISCOVERY';
    updateAgenda(ctx as never);
    const sources = ctx.events.map((e) => (e as unknown as { item: AgendaItem }).item.source);
    expect({ sources, agenda: state.agenda }).toEqual({ sources: ['topic', 'thread'], agenda: {} });
  });
});

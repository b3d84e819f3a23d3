import { describe, expect, it } from 'vitest';
import type { CruxEvent } from './events';
import { replayScript } from './replay';
import type { ScriptObject } from './script-builder';
import {
  analysis,
  crystallize,
  debate,
  evidence,
  message as m,
  quickDiscovery,
  quickLock,
  script,
  thread,
} from './script-builder';

// EVIDENCE: crystallization on stability or budget, orbiting detection, position changes.

const done = crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } }));

function inEvidence(config: ScriptObject = {}): ScriptObject[] {
  return [debate(['ana', 'ben'], config), thread('t1'), ...quickDiscovery('t1', 'ana', 'ben'), ...quickLock('t1', 'ana', 'ben')];
}

function flip(agent: string, from: string, to: string, move: 'UPDATE_POSITION' | 'CONCEDE' = 'UPDATE_POSITION') {
  return move === 'UPDATE_POSITION'
    ? m('t1', agent, move, { priorPosition: from, newPosition: to, topClaimChanged: false })
    : m('t1', agent, move, {
        concededProposition: 'The pilots were biased',
        topClaimChanged: true,
        priorPosition: from,
        newPosition: to,
      });
}

function ending(events: CruxEvent[]) {
  return events.flatMap((e) => {
    if (e.type === 'crystallization_requested') return [`crystallize (${e.reason})`];
    if (e.type === 'moderator_intervention') return [`${e.id} ${e.kind}`];
    if (e.type === 'position_changed') return [`${e.messageId} ${e.agent} ${e.from}->${e.to}`];
    return [];
  });
}

describe('EVIDENCE stability', () => {
  it('crystallizes after 8 messages with no side change among the last 6', () => {
    const run = replayScript(script(inEvidence(), evidence('t1', 'ana', 'ben', 8), done));
    expect(ending(run.events)).toEqual(['crystallize (stability)']);
    expect(run.result.threads[0]).toMatchObject({ status: 'CONVERGED', stages: { evidence: { messages: 8 } } });
  });

  it('waits until a side change has left the window of 6 (the current message included)', () => {
    const run = replayScript(
      script(
        inEvidence(),
        evidence('t1', 'ana', 'ben', 3), // e1-e3: m13-m15
        flip('ben', 'NO', 'YES'), // e4: m16
        evidence('t1', 'ana', 'ben', 6), // e5-e10: stable once e4 drops out, at e10
        done,
      ),
    );
    expect(ending(run.events)).toEqual(['m16 ben NO->YES', 'crystallize (stability)']);
    expect(run.result.threads[0]?.stages.evidence.messages).toBe(10);
    // The crux takes ben's current side when the analysis omits him.
    expect(run.result.threads[0]?.crux?.positions.ben?.side).toBe('NO');
  });

  it('does not count an update that keeps the side as a change', () => {
    const run = replayScript(
      script(inEvidence(), evidence('t1', 'ana', 'ben', 7), flip('ben', 'NO', 'NO'), done),
    );
    expect(ending(run.events)).toEqual(['crystallize (stability)']);
    expect(run.result.threads[0]?.stages.evidence.messages).toBe(8);
  });

  it('counts a concession that changes the top claim as a side change, a cheap one as none', () => {
    const run = replayScript(
      script(
        inEvidence(),
        evidence('t1', 'ana', 'ben', 2), // e1-e2
        flip('ben', 'NO', 'YES', 'CONCEDE'), // e3: m15
        m('t1', 'ana', 'CONCEDE', { concededProposition: 'Attrition flatters the data', topClaimChanged: false }), // e4
        evidence('t1', 'ana', 'ben', 5), // e5-e9: window e4..e9 is clean at e9
        done,
      ),
    );
    expect(ending(run.events)).toEqual(['m15 ben NO->YES', 'crystallize (stability)']);
    expect(run.result.threads[0]?.stages.evidence.messages).toBe(9);
    expect(run.result.systemMetrics.cheapConcessions).toBe(1);
    expect(run.result.threads[0]?.crux?.concessions).toEqual([
      { agent: 'ben', proposition: 'The pilots were biased', topClaimChanged: true, messageId: 'm15' },
      { agent: 'ana', proposition: 'Attrition flatters the data', topClaimChanged: false, messageId: 'm16' },
    ]);
  });

  it('reads the stability thresholds from the config', () => {
    const run = replayScript(
      script(inEvidence({ evidenceStability: { minMessages: 3, window: 2 } }), evidence('t1', 'ana', 'ben', 1),
        flip('ben', 'NO', 'YES'), evidence('t1', 'ana', 'ben', 2), done),
    );
    expect(run.result.threads[0]?.stages.evidence.messages).toBe(4);
  });
});

describe('EVIDENCE budget', () => {
  it('crystallizes when the budget runs out even while sides keep moving', () => {
    const run = replayScript(
      script(
        inEvidence(),
        evidence('t1', 'ana', 'ben', 3), // e1-e3
        flip('ben', 'NO', 'YES'), // e4
        evidence('t1', 'ana', 'ben', 4), // e5-e8
        flip('ben', 'YES', 'NO'), // e9
        evidence('t1', 'ana', 'ben', 5), // e10-e14: budget
        m('t1', 'ana', 'PROVIDE_EVIDENCE'), // too late: closed
        done,
      ),
    );
    expect(ending(run.events)).toEqual(['m16 ben NO->YES', 'm21 ben YES->NO', 'crystallize (budget)']);
    expect(run.result.threads[0]).toMatchObject({ status: 'CONVERGED', stages: { evidence: { messages: 14 } } });
    expect(run.result.systemMetrics.reasonsBlocked.threadClosed).toBe(1);
  });
});

describe('orbiting', () => {
  const orbitConfig = { evidenceStability: { minMessages: 40 }, budgets: { EVIDENCE: 40 }, threadHardCap: 100 };
  const said = (content: string, agent = 'ana') => m('t1', agent, 'PROVIDE_EVIDENCE', {}, { content });

  it('asks for commitment when 8 messages recycle their keywords, at most once per 8 messages', () => {
    const repeat = (n: number) =>
      Array.from({ length: n }, (_, i) => said('Output data shows output gains', i % 2 ? 'ben' : 'ana'));
    const run = replayScript(
      script(
        inEvidence(orbitConfig),
        repeat(7), // e1-e7
        said('Output data shows output gains'), // e8: ratio 40/4 → COMMIT_REQUEST
        repeat(7), // e9-e15: too soon for another
        said('Output data shows output gains'), // e16 → second COMMIT_REQUEST
        repeat(3), // e17-e19
        m('t1', 'ben', 'CONCEDE', { concededProposition: 'Gains', topClaimChanged: false }, { content: 'Output data' }), // e20
        repeat(7), // e21-e27: every window of 8 still holds the concession
        said('Output data shows output gains'), // e28: window e21..e28 is clean again
      ),
    );
    expect(ending(run.events)).toEqual(['mod1 COMMIT_REQUEST', 'mod2 COMMIT_REQUEST', 'mod3 COMMIT_REQUEST']);
    const mods = run.state.transcript.filter((e) => e.author === null).map((e) => e.id);
    const before = (id: string) => run.state.transcript.findIndex((e) => e.id === id) - 1;
    // Each intervention follows the 8th, 16th and 28th EVIDENCE message (m20, m28, m40).
    expect(mods.map((id) => run.state.transcript[before(id)]?.id)).toEqual(['m20', 'm28', 'm40']);
    expect(run.result.systemMetrics.moderatorInterventions.COMMIT_REQUEST).toBe(3);
  });

  it('needs a repetition ratio above 2.0 and no PROPOSE_CRUX in the window', () => {
    const words = ['alpha', 'bravo', 'charlie', 'delta'];
    // 8 one-keyword messages over 4 distinct words: ratio exactly 2.0, not orbiting.
    const even = replayScript(script(inEvidence(orbitConfig), words.concat(words).map((w) => said(w))));
    expect(ending(even.events)).toEqual([]);
    // Over 3 distinct words the ratio is 8/3: orbiting.
    const three = ['alpha', 'bravo', 'charlie', 'alpha', 'bravo', 'charlie', 'alpha', 'bravo'];
    const uneven = replayScript(script(inEvidence(orbitConfig), three.map((w) => said(w))));
    expect(ending(uneven.events)).toEqual(['mod1 COMMIT_REQUEST']);
    // The same, with a deeper crux proposed inside the window: no intervention.
    const proposing = replayScript(
      script(
        inEvidence(orbitConfig),
        three.slice(0, 7).map((w) => said(w)),
        m('t1', 'ben', 'PROPOSE_CRUX', { question: 'Is alpha the issue?' }, { content: 'alpha' }),
      ),
    );
    expect(ending(proposing.events)).toEqual([]);
  });

  it('is not checked when the message crystallizes the thread', () => {
    const run = replayScript(
      script(inEvidence(), Array.from({ length: 8 }, () => said('Output data shows output gains')), done),
    );
    expect(ending(run.events)).toEqual(['crystallize (stability)']);
  });
});

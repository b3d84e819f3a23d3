import { describe, expect, it } from 'vitest';
import { replayScript, runReplay } from './replay';
import type { ScriptObject } from './script-builder';
import { analysis, commit, crystallize, debate, message as m, script, thread } from './script-builder';
import { renderTranscript } from './transcript-md';

// Two YES agents (ana, ben) and one NO agent (cy) lock a crux in 13 messages (m1–m13); the EVIDENCE
// stage then holds four messages (m14–m17) and the thread crystallizes as everyone's YES.
const CONFIG = { earlyExitMinMessages: 2, budgets: { CRUX_LOCK: 16, EVIDENCE: 4 } };

const LOCKED: ScriptObject[] = [
  thread('t1'),
  m('t1', 'ana', 'CLAIM'),
  m('t1', 'cy', 'PROPOSE_CRUX', { question: 'Does the policy raise output within 18 months?' }),
  commit('t1', 'ana', 'YES'),
  commit('t1', 'ben', 'YES'),
  commit('t1', 'cy', 'NO'),
  ...(['ana', 'ben'] as const).flatMap((yes) => [
    m('t1', yes, 'STEELMAN', { steelmanTarget: 'cy' }),
    m('t1', 'cy', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
    m('t1', 'cy', 'STEELMAN', { steelmanTarget: yes }),
    m('t1', yes, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
  ]),
];

const ALL_YES = crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'YES' }, cy: { side: 'YES' } }));
const TO_YES = { priorPosition: 'NO', newPosition: 'YES', topClaimChanged: true, confidence: 0.6 };

function replay(...evidence: ScriptObject[]) {
  return runReplay(script(debate(['ana', 'ben', 'cy'], CONFIG), LOCKED, evidence, ALL_YES));
}

/** How cy's move from NO to YES is recorded, apart from its basis. */
const cyChange = (at: string) => ({
  thread: 't1',
  messageId: at,
  agent: 'cy',
  move: 'UPDATE_POSITION',
  kind: 'side',
  from: { side: 'NO', confidence: 0.7 },
  to: { side: 'YES', confidence: 0.6 },
  majority: 'YES',
});

describe('conformity against real agreement', () => {
  it('a consensus reached after evidence aimed at the dissenter is not labelled conformity', () => {
    const r = replay(
      m(
        't1',
        'ana',
        'PROVIDE_EVIDENCE',
        { targetFalsifierOf: 'cy' },
        { content: 'The 2026 cohort beat your threshold.' },
      ),
      m('t1', 'cy', 'UPDATE_POSITION', TO_YES, { replyTo: 'm14', content: 'That cohort is what I asked for.' }),
      m('t1', 'ben', 'PROVIDE_EVIDENCE'),
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
    );
    expect({ regime: r.regime, conformity: r.conformity }).toEqual({
      regime: 'consensus',
      conformity: {
        changes: [{ ...cyChange('m15'), basis: 'argument', arguments: ['m14'] }],
        afterArgument: 1,
        majorityAdoptions: 0,
        unexplained: 0,
        majorityAdoptionRate: 0,
        dissent: { initial: 1, final: 0 },
        conformityThreads: [],
        label: null,
      },
    });
  });

  it('a consensus reached by following the majority with no new argument is labelled possibly conformity', () => {
    const r = replay(
      m('t1', 'cy', 'UPDATE_POSITION', TO_YES, { replyTo: 'm3', content: 'Most of you say yes; I will go along.' }),
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
      m('t1', 'ben', 'PROVIDE_EVIDENCE'),
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
    );
    expect({ regime: r.regime, conformity: r.conformity }).toEqual({
      regime: 'consensus',
      conformity: {
        changes: [{ ...cyChange('m14'), basis: 'majority', arguments: [] }],
        afterArgument: 0,
        majorityAdoptions: 1,
        unexplained: 0,
        majorityAdoptionRate: 1,
        dissent: { initial: 1, final: 0 },
        conformityThreads: ['t1'],
        label: 'possibly conformity',
      },
    });
  });

  it('counts an argument only when it is new to the agent and aimed at it: a reply, its falsifier or its name', () => {
    const bases = (...evidence: ScriptObject[]) =>
      replay(...evidence).conformity?.changes.map((c) => [c.messageId, c.basis, c.arguments]);
    // Evidence for everyone, not aimed at cy: the change still only follows the majority.
    expect(
      bases(
        m('t1', 'ana', 'PROVIDE_EVIDENCE', {}, { content: 'Output rose in the pilot.' }),
        m('t1', 'cy', 'UPDATE_POSITION', TO_YES),
        m('t1', 'ben', 'PROVIDE_EVIDENCE'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
      ),
    ).toEqual([['m15', 'majority', []]]);
    // Naming the agent (its id, as a whole word) aims the argument at it.
    expect(
      bases(
        m('t1', 'ben', 'PROVIDE_EVIDENCE', {}, { content: 'Cy, the sick-day data answers your doubt.' }),
        m('t1', 'cy', 'UPDATE_POSITION', TO_YES),
        m('t1', 'ben', 'PROVIDE_EVIDENCE'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
      ),
    ).toEqual([['m15', 'argument', ['m14']]]);
    // An argument aimed at cy before its commitment was already answered by it: not new.
    expect(
      runReplay(
        script(
          debate(['ana', 'ben', 'cy'], CONFIG),
          thread('t1'),
          m('t1', 'ana', 'CLAIM', {}, { content: 'cy is wrong about the pilots.' }),
          LOCKED.slice(2),
          m('t1', 'cy', 'UPDATE_POSITION', TO_YES),
          m('t1', 'ana', 'PROVIDE_EVIDENCE'),
          m('t1', 'ben', 'PROVIDE_EVIDENCE'),
          m('t1', 'ana', 'PROVIDE_EVIDENCE'),
          ALL_YES,
        ),
      ).conformity?.changes.map((c) => c.basis),
    ).toEqual(['majority']);
  });

  it('needs two other agents for a majority, reads confidence moves and cheap concessions by direction, and leaves the result alone when nothing moved', () => {
    // Two agents: the other one is a peer, so an unargued change is "none", not an adoption.
    const pair = runReplay(
      script(
        debate(['ana', 'cy'], CONFIG),
        thread('t1'),
        m('t1', 'ana', 'CLAIM'),
        m('t1', 'cy', 'PROPOSE_CRUX', { question: 'Does the policy raise output within 18 months?' }),
        commit('t1', 'ana', 'YES'),
        commit('t1', 'cy', 'NO'),
        m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'cy' }),
        m('t1', 'cy', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
        m('t1', 'cy', 'STEELMAN', { steelmanTarget: 'ana' }),
        m('t1', 'ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
        m('t1', 'cy', 'UPDATE_POSITION', TO_YES),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
        crystallize('t1', analysis({ ana: { side: 'YES' }, cy: { side: 'YES' } })),
      ),
    );
    expect([pair.regime, pair.conformity?.changes.map((c) => [c.basis, c.majority]), pair.conformity?.label]).toEqual([
      'consensus',
      [['none', null]],
      null,
    ]);

    const moves = replay(
      // cy less sure of its NO (toward the majority), ben surer of its YES (with it), then cy
      // concedes a point while still the lone NO, then ana, in the majority, less sure (against it).
      m('t1', 'cy', 'UPDATE_POSITION', {
        priorPosition: 'NO',
        newPosition: 'NO',
        topClaimChanged: false,
        confidence: 0.5,
      }),
      m('t1', 'ben', 'UPDATE_POSITION', {
        priorPosition: 'YES',
        newPosition: 'YES',
        topClaimChanged: false,
        confidence: 0.9,
      }),
      m('t1', 'cy', 'CONCEDE', { concededProposition: 'The pilot firms did keep output', topClaimChanged: false }),
      m('t1', 'ana', 'UPDATE_POSITION', {
        priorPosition: 'YES',
        newPosition: 'YES',
        topClaimChanged: false,
        confidence: 0.6,
      }),
    );
    expect(moves.conformity?.changes.map((c) => [c.agent, c.kind, c.basis, c.majority])).toEqual([
      ['cy', 'confidence', 'majority', 'YES'],
      ['ben', 'confidence', 'none', null],
      ['cy', 'concession', 'majority', 'YES'],
      ['ana', 'confidence', 'none', null],
    ]);

    const still = replay(
      m('t1', 'cy', 'UPDATE_POSITION', { priorPosition: 'NO', newPosition: 'NO', topClaimChanged: false }),
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
      m('t1', 'ben', 'PROVIDE_EVIDENCE'),
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
    );
    expect('conformity' in still).toBe(false);
  });

  it('the transcript says what moved each position and carries the label in its outcome', () => {
    const run = replayScript(
      script(
        debate(['ana', 'ben', 'cy'], CONFIG),
        LOCKED,
        m('t1', 'cy', 'UPDATE_POSITION', TO_YES),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
        m('t1', 'ben', 'PROVIDE_EVIDENCE'),
        m('t1', 'ana', 'PROVIDE_EVIDENCE'),
        ALL_YES,
      ),
    );
    const meta = {
      id: 'd1',
      provider: 'replay',
      seed: null,
      status: 'completed',
      reason: null,
      notes: [],
      createdAt: 'now',
    };
    const text = renderTranscript(run.state, run.result, meta);
    expect(text.slice(text.indexOf('## Outcome')).split('\n')).toEqual([
      '## Outcome',
      '',
      'Regime: **consensus** · **possibly conformity**',
      '',
      'Common ground:',
      '- Does the policy raise output within 18 months? _(crux)_',
      '',
      'Position changes: 1 (0 after a new argument aimed at the agent, 1 following the majority, 0 neither) · majority-adoption rate 100% · dissent: 1 in the smaller camp at the first commitments, 0 at the end',
      '- `m14` CY · UPDATE_POSITION: NO (0.7) → YES (0.6) · no new argument aimed at them; toward the majority (YES)',
      '',
      "**Possibly conformity**: the agreement in t1 came mostly from agents taking the majority's side without a new argument aimed at them.",
      '',
      '',
    ]);
  });
});

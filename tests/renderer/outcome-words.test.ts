import { describe, expect, it } from 'vitest';
import { replayScript } from '../../core/crux/replay';
import { analysis, commit, crystallize, debate, message as m, script, thread } from '../../core/crux/script-builder';
import { conformityWords } from '../../renderer/src/views/debate/outcome-words';

// The outcome card's sentence on how positions moved, read from real replayed results: two YES
// debaters and one NO who turns YES, once after evidence aimed at it and once with none.

function resultWhere(turn: ReturnType<typeof m>[]) {
  return replayScript(
    script(
      debate(['ana', 'ben', 'cy'], { earlyExitMinMessages: 2, budgets: { CRUX_LOCK: 16, EVIDENCE: 4 } }),
      thread('t1'),
      m('t1', 'ana', 'CLAIM'),
      m('t1', 'cy', 'PROPOSE_CRUX', { question: 'Does the policy raise output within 18 months?' }),
      commit('t1', 'ana', 'YES'),
      commit('t1', 'ben', 'YES'),
      commit('t1', 'cy', 'NO'),
      (['ana', 'ben'] as const).flatMap((yes) => [
        m('t1', yes, 'STEELMAN', { steelmanTarget: 'cy' }),
        m('t1', 'cy', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
        m('t1', 'cy', 'STEELMAN', { steelmanTarget: yes }),
        m('t1', yes, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
      ]),
      turn,
      crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'YES' }, cy: { side: 'YES' } })),
    ),
  ).result;
}

const toYes = { priorPosition: 'NO', newPosition: 'YES', topClaimChanged: true, confidence: 0.6 };

describe('conformityWords', () => {
  it('says nothing when no position moved, and leads with the label only when the agreement followed the majority', () => {
    const fill = [
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
      m('t1', 'ben', 'PROVIDE_EVIDENCE'),
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
    ];
    expect({
      still: conformityWords(resultWhere([...fill, m('t1', 'ben', 'PROVIDE_EVIDENCE')])),
      argued: conformityWords(
        resultWhere([
          m('t1', 'ana', 'PROVIDE_EVIDENCE', { targetFalsifierOf: 'cy' }),
          m('t1', 'cy', 'UPDATE_POSITION', toYes),
          ...fill.slice(1),
          m('t1', 'ana', 'PROVIDE_EVIDENCE'),
        ]),
      ),
      followed: conformityWords(resultWhere([m('t1', 'cy', 'UPDATE_POSITION', toYes), ...fill])),
    }).toEqual({
      still: null,
      argued:
        '1 position change: 1 after a new argument aimed at the debater, 0 only following the majority (0%), 0 neither. Dissent: 1 in the smaller camp at the first commitments, 0 at the end.',
      followed:
        'Possibly conformity: the agreement in t1 came mostly from debaters taking the majority’s side with no new argument aimed at them. 1 position change: 0 after a new argument aimed at the debater, 1 only following the majority (100%), 0 neither. Dissent: 1 in the smaller camp at the first commitments, 0 at the end.',
    });
  });
});

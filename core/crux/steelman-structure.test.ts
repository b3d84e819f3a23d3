import { describe, expect, it } from 'vitest';
import { checkMove } from './live/answer-checks';
import { replayScript } from './replay';
import { FAST_CONFIG, analysis, commit, crystallize, debate, message as m, script, thread } from './script-builder';

// A structured STEELMAN (claim, strongest reason, falsifier) and a grade that says what it missed.
// ana (YES) and ben (NO) lock t1; ana's first steelman of ben is graded INCOMPLETE with corrections,
// her second, structured again, ACCURATE. Scripts without the structure replay as they did.

const structure = (claim: string) => ({
  claimRepresented: claim,
  strongestReason: 'Pilot firms kept output flat while cutting hours.',
  falsifierRepresented: { metric: 'Output per employee', threshold: 'falls by 5%', deadline: '2027-12-31' },
});

function lock(...steelmans: object[]) {
  return replayScript(
    script(
      debate(['ana', 'ben'], FAST_CONFIG),
      thread('t1'),
      m('t1', 'ana', 'CLAIM'),
      m('t1', 'ben', 'PROPOSE_CRUX', { question: 'Does the policy raise output within 18 months?' }),
      commit('t1', 'ana', 'YES'),
      commit('t1', 'ben', 'NO'),
      ...(steelmans as never[]),
      m('t1', 'ben', 'STEELMAN', { steelmanTarget: 'ana' }),
      m('t1', 'ana', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
      m('t1', 'ana', 'PROVIDE_EVIDENCE'),
      crystallize('t1', analysis({ ana: { side: 'YES' }, ben: { side: 'NO' } })),
    ),
  );
}

describe('a structured steelman', () => {
  it('keeps the latest attempt’s claim, reason and falsifier, and the corrections of a short grade until a retry', () => {
    const run = lock(
      m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben', ...structure('Ben says the gains are a selection effect.') }),
      m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'INCOMPLETE', corrections: 'It leaves out the cost of overtime.' }),
    );
    const pairs = run.result.threads[0]?.crux?.steelmanPairs;
    // ana's attempt is graded INCOMPLETE and never retried here, so the lock waits for more; the
    // crux never forms. Its pair, as the thread keeps it, carries both the structure and the corrections.
    expect(pairs).toBeUndefined();
    expect(run.state.threads[0]?.steelmans[0]).toMatchObject({
      from: 'ana',
      to: 'ben',
      grade: 'INCOMPLETE',
      steelman: {
        claim: 'Ben says the gains are a selection effect.',
        strongestReason: 'Pilot firms kept output flat while cutting hours.',
        falsifier: { metric: 'Output per employee', threshold: 'falls by 5%', deadline: '2027-12-31' },
      },
      corrections: 'It leaves out the cost of overtime.',
    });

    const retried = lock(
      m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben', ...structure('Ben says the gains are a selection effect.') }),
      m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'INCOMPLETE', corrections: 'It leaves out the cost of overtime.' }),
      m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben', ...structure('Ben says the gains vanish once overtime is paid.') }),
      m('t1', 'ben', 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
    );
    expect(retried.result.threads[0]?.crux?.steelmanPairs).toEqual([
      {
        from: 'ana',
        to: 'ben',
        grade: 'ACCURATE',
        attempts: 2,
        steelman: {
          claim: 'Ben says the gains vanish once overtime is paid.',
          strongestReason: 'Pilot firms kept output flat while cutting hours.',
          falsifier: { metric: 'Output per employee', threshold: 'falls by 5%', deadline: '2027-12-31' },
        },
      },
      // ben's steelman of ana gave no structure: its pair reads as before.
      { from: 'ben', to: 'ana', grade: 'ACCURATE', attempts: 1 },
    ]);
  });

  it('refuses a structure given in part, naming the three fields', () => {
    const run = lock(m('t1', 'ana', 'STEELMAN', { steelmanTarget: 'ben', claimRepresented: 'Ben doubts it.' }));
    const refused = run.state.transcript.find((e) => e.move === 'STEELMAN' && !e.accepted);
    expect([refused?.blockedReason, refused?.blockedDetail]).toEqual([
      'invalidMove',
      'a structured STEELMAN needs all three: meta.claimRepresented, meta.strongestReason and meta.falsifierRepresented {metric, threshold, deadline}',
    ]);
  });

  it('is required of a live agent, as is the corrections of a grade short of ACCURATE', () => {
    const { state } = replayScript(script(debate(['ana', 'ben']), thread('t1')));
    const check = checkMove(state);
    expect(check({ move: 'STEELMAN', content: 'x', meta: { steelmanTarget: 'ben' } }).ok).toBe(false);
    expect(check({ move: 'STEELMAN', content: 'x', meta: { steelmanTarget: 'ben', ...structure('c') } }).ok).toBe(true);
    expect(check({ move: 'GRADE_STEELMAN', content: 'x', meta: { steelmanGrade: 'WRONG' } })).toEqual({
      ok: false,
      problems: ['a WRONG grade says what was missed: meta.corrections'],
    });
    expect(check({ move: 'GRADE_STEELMAN', content: 'x', meta: { steelmanGrade: 'ACCURATE' } }).ok).toBe(true);
  });
});

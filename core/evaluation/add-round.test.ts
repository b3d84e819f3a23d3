import { describe, expect, it } from 'vitest';
import { resumeEvaluation } from './drive';
import { replayEvaluation, replayPartial } from './replay';
import { control, defense, evaluator, header, narrative, redteam, ruling, script, synthesis } from './script-builder';
import { addRoundRefusal, step } from './step';
import { fourCriteria } from './test-setup';

// "Add round": an input like the researcher's approval, so the log that replays or resumes an
// evaluation grants the round again at the same point.

const taxonomy = fourCriteria();
const opening = [
  evaluator('problem', [
    ['alpha', 7, 0.9],
    ['beta', 6, 0.9],
  ]),
  evaluator('risk', [
    ['gamma', 6, 0.9],
    ['delta', 7, 0.9],
  ]),
];
const round = (criterion: string, text: string, grant = false) => [
  redteam('skeptic', [[criterion, 'MINOR', text]]),
  redteam('realist', []),
  defense(),
  ruling('EVALUATOR'),
  // Granted before the synthesis: the convergence check after it sees the higher limit.
  ...(grant ? [control('add_round')] : []),
  synthesis([[criterion, criterion === 'beta' || criterion === 'gamma' ? 6 : 7, 0.9]]),
];

describe('add_round', () => {
  it('lets a quick evaluation (one round) run a second, which the same answers without it cannot', () => {
    const granted = replayEvaluation(
      script(
        header({ mode: 'quick' }),
        opening,
        round('beta', 'Beta leans on one survey', true),
        round('gamma', 'Gamma ignores winter'),
        narrative(),
      ),
      taxonomy,
    );
    expect({
      rounds: granted.document.rounds,
      lockReason: granted.document.lockReason,
      limit: granted.state.roundLimit,
      added: granted.events.filter((e) => e.type === 'round_added'),
    }).toEqual({
      rounds: 2,
      // Two stable rounds, every confidence 0.9, nothing open, no new insight: it converges.
      lockReason: 'CONVERGENCE',
      limit: 2,
      added: [{ type: 'round_added', roundLimit: 2, phase: 'SYNTHESIZING' }],
    });
    expect(() =>
      replayEvaluation(
        script(
          header({ mode: 'quick' }),
          opening,
          round('beta', 'Beta leans on one survey'),
          round('gamma', 'Gamma ignores winter'),
          narrative(),
        ),
        taxonomy,
      ),
    ).toThrow('line 9: this redteam:skeptic answer was never asked for: the evaluation locked at line 14');
  });

  it('is folded from the input log like any input: a resume after it continues to the same document', () => {
    const full = replayEvaluation(
      script(
        header({ mode: 'quick' }),
        opening,
        round('beta', 'Beta leans on one survey', true),
        round('gamma', 'Gamma ignores winter'),
        narrative(),
      ),
      taxonomy,
    );
    const at = full.inputs.findIndex((i) => i.kind === 'add_round');
    const resumed = resumeEvaluation(full.initial, full.inputs.slice(0, at + 1));
    expect(resumed.state.roundLimit).toBe(2);
    let state = resumed.state;
    for (const input of full.inputs.slice(at + 1)) state = step(state, input).state;
    expect(state.document).toEqual(full.document);
  });

  it('is refused past five rounds, once the lock is decided, and to a dispute', () => {
    const deep = replayPartial(script(header({ mode: 'deep' }), opening), taxonomy).state;
    const reviewing = replayPartial(
      script(header({ mode: 'quick' }), opening, round('beta', 'Beta leans on one survey')),
      taxonomy,
    ).state;
    const quick = replayPartial(script(header({ mode: 'quick' }), opening), taxonomy).state;
    expect([
      addRoundRefusal(deep),
      addRoundRefusal(reviewing),
      addRoundRefusal({ ...quick, scope: 'TARGETED' }),
      addRoundRefusal(quick),
    ]).toEqual([
      'it may already run 5 rounds, the most any evaluation runs',
      'another round can be added only while the evaluation runs its rounds, and it is REVIEWING',
      'a dispute runs one targeted round; start a full evaluation instead',
      null,
    ]);
    expect(() => step(deep, { kind: 'add_round' })).toThrow(
      'add_round: it may already run 5 rounds, the most any evaluation runs',
    );
  });
});

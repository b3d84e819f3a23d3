import { describe, expect, it } from 'vitest';
import { testTaxonomy } from '../taxonomy/test-taxonomy';
import { ScriptError } from './errors';
import { replayEvaluation, runEvaluationReplay } from './replay';
import {
  answer,
  control,
  defense,
  evaluator,
  header,
  narrative,
  redteam,
  ruling,
  script,
  synthesis,
} from './script-builder';

// The script format and every way a script can be wrong, each reported at its line.

const PC = 'problem-clarity';
const ER = 'execution-risk';
const taxonomy = testTaxonomy();
const opening = [evaluator('problem', [[PC, 7, 0.6]]), evaluator('risk', [[ER, 5, 0.5]])];
const quickRound = [
  redteam('skeptic', [[PC, 'MAJOR', 'Nobody has described the problem']]),
  redteam('realist', []),
  defense(),
  ruling('EVALUATOR'),
  synthesis([[PC, 7, 0.8]]),
];
const quick = header({ mode: 'quick' });

function failure(text: string): string {
  try {
    runEvaluationReplay(text, taxonomy);
  } catch (e) {
    if (e instanceof ScriptError) return e.message;
    throw e;
  }
  throw new Error('expected a ScriptError');
}

describe('a valid script', () => {
  it('runs with blank lines, CRLF line ends and a final newline', () => {
    const lines = [quick, ...opening, ...quickRound, narrative()].map((l) => JSON.stringify(l));
    const plain = runEvaluationReplay(lines.join('\n'), taxonomy);
    expect(runEvaluationReplay(`${lines.join('\r\n\r\n')}\r\n`, taxonomy)).toEqual(plain);
    expect(plain.evaluationId).toBe('replay-idea-1');
    expect(plain.startedAt).toBe('1970-01-01T00:00:00.000Z');
  });

  it('answers each role from its own queue, in the order the machine asks', () => {
    // All defenses are asked at once, then each ruling after its defense: the queues keep that straight.
    const run = replayEvaluation(
      script(
        quick,
        opening,
        redteam('skeptic', [
          [PC, 'MAJOR', 'Nobody has described the problem'],
          [ER, 'MINOR', 'Hiring is slow'],
        ]),
        redteam('realist', []),
        defense('first defense'),
        ruling('RED_TEAM', -1),
        defense('second defense'),
        ruling('EVALUATOR'),
        synthesis([
          [PC, 6, 0.8],
          [ER, 5, 0.8],
        ]),
        narrative(),
      ),
      taxonomy,
    );
    expect(run.document.auditTrail.conflicts.map((c) => [c.id, c.defense, c.ruling?.winner])).toEqual([
      ['r1c1', 'first defense', 'RED_TEAM'],
      ['r1c2', 'second defense', 'EVALUATOR'],
    ]);
  });
});

describe('script errors', () => {
  it('reports malformed lines, blank lines counted', () => {
    expect(failure(`${script(quick)}\n\nnot json`)).toMatch(/^line 3: malformed JSON: /);
    expect(failure(`${script(quick)}\n[1]`)).toBe('line 2: schema violation: a line must be a JSON object');
    expect(failure(script(quick, { type: 'shout' }))).toBe(
      'line 2: schema violation at type: unknown line type "shout"',
    );
    expect(failure(script(opening))).toBe('line 1: the first line must be an evaluation line');
    expect(failure('')).toBe('line 1: empty script: the first line must be an evaluation line');
    expect(failure(script(quick, quick))).toBe('line 2: an evaluation line belongs only on the first line of a script');
    expect(failure(script({ ...quick, mode: 'eternal' }))).toMatch(/^line 1: schema violation at mode: /);
    expect(failure(script(header({ config: { maxRounds: 6 } })))).toBe(
      'line 1: schema violation at config.maxRounds: Too big: expected number to be <=5',
    );
    expect(failure(script(header({ config: { rounds: 2 } })))).toMatch(
      /^line 1: schema violation at config: Unrecognized key/,
    );
    expect(failure(script(header({ information: { asked: 1, answered: 2 } })))).toBe(
      'line 1: schema violation at information.answered: 2 answered but only 1 asked',
    );
    expect(failure(script(quick, { type: 'fail' }))).toMatch(/^line 2: schema violation at reason: /);
  });

  it('names the role and field of an answer that fails its schema', () => {
    expect(failure(script(quick, evaluator('problem', [[PC, 11, 0.6]])))).toBe(
      'line 2: evaluator:problem: scores[0].score: Too big: expected number to be <=10',
    );
    expect(failure(script(quick, opening, ruling('EVALUATOR', 3)))).toBe(
      'line 4: arbiter: scoreAdjustment: Too big: expected number to be <=2',
    );
    expect(failure(script(header({ config: { scoreAdjustmentRange: 3 } }), ruling('EVALUATOR', 3.5)))).toBe(
      'line 2: arbiter: scoreAdjustment: must be a whole number',
    );
    expect(failure(script(quick, answer('defense', { response: '  ' })))).toBe(
      'line 2: defense: response: must not be empty',
    );
    expect(failure(script(quick, redteam('skeptic', [[PC, 'HUGE', 'x']])))).toBe(
      'line 2: redteam:skeptic: challenges[0].severity: Invalid option: expected one of "CRITICAL"|"MAJOR"|"MINOR"|"NOTE"',
    );
    expect(failure(script(quick, narrative('PURSUE', { keyStrengths: 'many' })))).toBe(
      'line 2: narrative: keyStrengths: Invalid input: expected array, received string',
    );
  });

  it('rejects roles the evaluation does not have', () => {
    expect(failure(script(quick, answer('evaluator:finance', { scores: [] })))).toBe(
      'line 2: unknown role "evaluator:finance": the categories are problem, risk',
    );
    expect(failure(script(quick, redteam('competitor', [])))).toBe(
      'line 2: unknown role "redteam:competitor": the red team of a quick evaluation is redteam:skeptic, redteam:realist',
    );
    expect(failure(script(quick, answer('judge', {})))).toBe(
      'line 2: unknown role "judge": use evaluator:<category>, redteam:<persona>, defense, arbiter, synthesis or narrative',
    );
  });

  it('reports a missing answer at the line that created the need, naming the role', () => {
    expect(failure(script(quick, evaluator('problem', [[PC, 7, 0.6]])))).toBe(
      'line 1: no answer for evaluator:risk: the evaluation asks for the initial scores of risk and the script has no more evaluator:risk lines',
    );
    expect(failure(script(quick, opening, quickRound.slice(0, 4)))).toBe(
      'line 7: no answer for synthesis: the evaluation asks for the synthesis of round 1 and the script has no more synthesis lines',
    );
  });

  it('reports an answer the machine cannot apply at its own line', () => {
    expect(failure(script(quick, opening, quickRound.slice(0, 4), synthesis([[PC, 6, 0.8]])))).toBe(
      'line 8: synthesis: criteria[0].score: 6 for problem-clarity is not one of the positions in play (7): the synthesis picks a winner, it does not average',
    );
    expect(failure(script(quick, evaluator('problem', [[ER, 7, 0.6]]), evaluator('risk', [[ER, 5, 0.5]])))).toBe(
      'line 2: evaluator:problem: scores[0].criterion: "execution-risk" belongs to risk; this evaluator scores problem-clarity',
    );
    expect(failure(script(quick, control('user_approved'), opening))).toBe(
      'line 2: user_approved arrives only in DEBATING or SYNTHESIZING, and the evaluation is EVALUATING',
    );
  });

  it('reports answers and control lines that were never used', () => {
    expect(failure(script(quick, opening, quickRound, narrative(), synthesis([])))).toBe(
      'line 10: this synthesis answer was never asked for: the evaluation locked at line 9',
    );
    expect(failure(script(quick, opening, quickRound, narrative(), control('timeout')))).toBe(
      'line 10: this timeout line never took effect: the evaluation locked at line 9',
    );
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EvaluationBrief } from '../../core/evaluation/live/requests';
import { positionsInPlay } from '../../core/evaluation/step';
import type { FakeStep } from '../fakes/fake-anthropic';
import { SLIP_KINDS } from '../fakes/model-slips';
import { briefOfRequest } from '../fakes/simulator-responder';
import { misbehavingEvaluation } from '../helpers/misbehaving-runs';

/**
 * Evaluations against a fake server that answers like a model, slips included, through the real
 * SDK: criteria written as names are read as ids, what the protocol refuses is re-asked with its own
 * words, and no slip ends an evaluation with an exception.
 */

const corpus = join(__dirname, '..', 'fixtures', 'model-answers');
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(corpus, name), 'utf8'));

describe('an evaluation whose model slips', () => {
  it('repairs criteria by name, a surplus criterion, lower-case severities and prose, and re-asks an averaged synthesis', async () => {
    const once = new Set<string>();
    const first = (role: string) => {
      if (once.has(role)) return false;
      once.add(role);
      return true;
    };
    const run = await misbehavingEvaluation({
      mode: 'quick',
      seed: 4,
      rate: 0,
      respond: (request, simulated): FakeStep => {
        const brief = briefOfRequest(request) as EvaluationBrief | null;
        const ask = brief?.ask;
        if (!brief || !ask) return simulated;
        if (ask.role === 'evaluator' && ask.category === 'problem' && first('evaluator')) {
          return { kind: 'answer', input: fixture('evaluator-problem-title-case.json') };
        }
        if (ask.role === 'redteam' && ask.persona === 'skeptic' && first('redteam')) {
          return { kind: 'answer', input: fixture('redteam-lower-severity.json') };
        }
        if (ask.role === 'defense' && first('defense')) {
          return { kind: 'text', text: readFileSync(join(corpus, 'prose-around-json.txt'), 'utf8') };
        }
        if (ask.role === 'synthesis' && ask.touched.length > 0 && first('synthesis')) {
          // A score between the positions in play: an average, which the synthesis may not give.
          const criterion = ask.touched[0] as string;
          const positions = positionsInPlay(brief.state, ask.round, criterion);
          const between = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].find((n) => !positions.includes(n)) as number;
          const answer = fixture('synthesis-averaged.json') as { criteria: { criterion: string; score: number }[] };
          answer.criteria = answer.criteria.map((c) => ({ ...c, criterion, score: between }));
          return { kind: 'answer', input: answer };
        }
        return simulated;
      },
    });
    const repairs = run.calls.flatMap((c) => c.repairs ?? []);
    const synthesisReask = run.requests.find((r) =>
      String(r.body.messages.at(-1)?.content).startsWith('Your answer to `round_synthesis` was rejected'),
    );
    expect({
      ended: [run.ended, run.exception],
      repairs,
      synthesisReask: synthesisReask?.body.messages.at(-1)?.content,
    }).toEqual({
      ended: ['locked', null],
      repairs: expect.arrayContaining([
        'scores[0].criterion: "Problem Clarity" read as problem-clarity',
        'scores[2].criterion: "Target User Clarity" read as target-user-clarity',
        'scores[4].criterion: "Problem Uniqueness" read as problem-uniqueness',
        `scores[5]: "solution-clarity" is not this evaluator's; dropped`,
        'challenges[0].severity: "major" read as "MAJOR"',
        'challenges[1].severity: "Minor" read as "MINOR"',
        'challenges[0].criterion: "Problem Validation" read as problem-validation',
        '(answer): the answer was text, not a call of `defense`; the JSON object in it was read',
      ]),
      synthesisReask: expect.stringMatching(/is not one of the positions in play .*: the synthesis picks a winner/),
    });
    expect(once).toEqual(new Set(['evaluator', 'redteam', 'defense', 'synthesis']));
  });

  it('ends every evaluation, quick, standard and deep, itself when a fifth of the answers slip', {
    timeout: 60_000,
  }, async () => {
    const runs = [];
    for (const seed of [1, 2, 3]) {
      for (const mode of ['quick', 'standard', 'deep'] as const) {
        runs.push({ mode, seed, ...(await misbehavingEvaluation({ mode, seed, rate: 0.2 })) });
      }
    }
    const slips = new Set(runs.flatMap((r) => Object.keys(r.slips)));
    expect({
      unended: runs
        .filter((r) => r.exception !== null || !['locked', 'failed'].includes(r.ended) || r.reason === null)
        .map((r) => `${r.mode}, seed ${r.seed}: ${r.ended} ${r.exception ?? ''}`),
      everySlipMade: SLIP_KINDS.filter((k) => !slips.has(k)),
      reasked: runs.some((r) => r.reasks > 0),
    }).toEqual({ unended: [], everySlipMade: [], reasked: true });
  });
});

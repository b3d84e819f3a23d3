import { describe, expect, it } from 'vitest';
import { appPerTest, IDEA } from '../../../tests/helpers/app-harness';
import type { Channel, EvaluationDetail } from '../../contract';
import { MODE_SETTINGS, resolveConfig } from '../../evaluation';
import { planRound } from '../../evaluation/plan';
import { runCli } from '../cli/main';
import { runEstimate } from '../llm/cost-preview';

// "Prediction: about N more rounds" and what "Add round" would cost while an evaluation runs,
// through a real app: a standard
// simulated evaluation is stopped after its first round's convergence check; `evaluations:get`
// (what the live view shows) and `evaluations show` (the CLI) predict the rounds left from that
// check's unmet conditions, within the round limit; once it locks there is no prediction.

const answered = new Set<Channel>();
const t = appPerTest('crucible-eval-prediction-', answered);

describe('the rounds prediction', () => {
  it('is given while an evaluation runs its rounds, from its last convergence check, and not once it locks', async () => {
    // Slow simulated calls, so that the stop comes after round 1 and well before the lock.
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '40';
    const app = await t.boot();
    const { id } = await t.call(app, 'evaluations:start', { slug: IDEA, mode: 'standard', provider: 'simulated' });
    const get = () => t.call(app, 'evaluations:get', { id });
    let seen: EvaluationDetail = await get();
    const until = Date.now() + 60_000;
    while (seen.convergence.length === 0) {
      if (seen.status !== 'running' || Date.now() > until) throw new Error(`no round finished: ${seen.status}`);
      await new Promise((r) => setTimeout(r, 20));
      seen = await get();
    }
    // While it runs, what one more round ("Add round") would cost, priced for its provider.
    const round = runEstimate(
      t.root,
      planRound({
        mode: 'standard',
        config: resolveConfig('standard'),
        redTeam: MODE_SETTINGS.standard.personas.length,
      }),
      'simulated',
      undefined,
    );
    expect(seen.addRoundPreview).toEqual({
      calls: round.calls,
      usd: 0,
      worstCalls: round.worstCalls,
      worstUsd: 0,
      basis: round.basis,
    });
    expect(round.basis).toMatch(/^one more round: 3 red-team challenge lists, up to \d+ challenges defended and ruled/);
    await t.call(app, 'evaluations:cancel', { id });
    for (let i = 0; (await get()).status === 'running'; i++) {
      if (i > 500) throw new Error('the evaluation did not stop');
      await new Promise((r) => setTimeout(r, 20));
    }
    delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
    const paused = await get();
    expect([paused.status, paused.addRoundPreview]).toEqual(['paused', null]);
    const done = paused.convergence.length;
    const last = paused.convergence.at(-1);
    const prediction = paused.prediction;
    // The case: stopped after round 1 of 3, a score moved more than stability allows, and the other
    // unmet conditions have one check only (no trend yet).
    expect({
      done,
      limit: paused.roundLimit,
      stability: [
        last?.conditions.stability.met,
        last?.conditions.stability.roundsNeeded,
        last?.conditions.stability.maxDelta,
        last?.conditions.stability.rounds.at(-1)?.maxMove,
      ],
      unmet: Object.entries(last?.conditions ?? {})
        .filter(([, c]) => !(c as { met: boolean }).met)
        .map(([name]) => name)
        .sort(),
    }).toEqual({ done: 1, limit: 3, stability: [false, 2, 0.5, 1], unmet: ['confidence', 'saturation', 'stability'] });
    // Worked out from those numbers: 3 - 1 = 2 rounds left; stability has 0 stable rounds of the 2 it
    // needs, so 2 more; confidence and saturation have no trend yet, 1 each; the slowest (2) is within
    // the 2 left, so convergence, not the limit, is predicted.
    const expectedText =
      'about 2 more rounds to convergence (scores still moved in round 1: stability needs 2 stable rounds in a row)';
    expect(
      prediction && {
        more: prediction.more,
        atLimit: prediction.atLimit,
        left: prediction.left,
        needs: prediction.needs.map((n) => [n.condition, n.rounds]),
        text: prediction.text,
      },
    ).toEqual({
      more: 2,
      atLimit: false,
      left: 2,
      needs: [
        ['stability', 2],
        ['confidence', 1],
        ['saturation', 1],
      ],
      text: expectedText,
    });

    // The command line says the same of the same evaluation.
    let out = '';
    const code = await runCli(['evaluations', 'show', id, '--workspace', t.root], {
      out: (text) => (out += `${text}\n`),
      err: () => {},
      untilStopped: () => new Promise(() => {}),
    });
    expect(code).toBe(0);
    expect(out.split('\n').filter((l) => l.includes('Prediction:'))).toEqual([
      expect.stringMatching(new RegExp(`Prediction: ${expectedText.replace(/[()]/g, '\\$&')}$`)),
    ]);

    await t.call(app, 'evaluations:resume', { id });
    for (let i = 0; (await get()).status !== 'completed'; i++) {
      if (i > 1500) throw new Error('the evaluation did not lock');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect([(await get()).prediction, (await get()).addRoundPreview]).toEqual([null, null]);
  }, 120_000);
});

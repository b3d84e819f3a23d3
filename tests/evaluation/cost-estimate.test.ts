import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/node/app/create-app';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { type EstimateCase, estimatedRun, estimateWorkspace, IDEA } from '../helpers/estimate-runs';
import { cli } from '../helpers/run-cli';

// The cost preview against what runs then spend on the model-like fake (a small bench:estimate), and
// what it says without a key: the price from the model table, and that the provider cannot run.

let ws: ReturnType<typeof estimateWorkspace>;
const saved = { ...process.env };

describe('the cost preview', { timeout: 180_000 }, () => {
  beforeAll(() => {
    ws = estimateWorkspace();
    delete process.env.ANTHROPIC_API_KEY;
  });
  afterAll(() => {
    ws.cleanup();
    process.env = { ...saved };
  });

  const within = async (which: EstimateCase, seeds: number[]) => {
    const runs = [];
    for (const seed of seeds) runs.push(await estimatedRun(ws.root, which, seed, ws.agents));
    const actual = runs.reduce((s, r) => s + r.actualUsd, 0) / runs.length;
    const estimate = runs[0]?.estimateUsd ?? 0;
    return {
      ratio: estimate / actual >= 0.75 && estimate / actual <= 1.25,
      underWorst: runs.every((r) => r.actualUsd <= r.worstUsd),
      figures: { estimate, actual },
    };
  };

  it('comes within a quarter of what a debate of 5 and a quick evaluation spend, never under what they spend at worst', async () => {
    const debate = await within({ protocol: 'crux', agents: 5 }, [1, 2, 3, 4, 5]);
    const quick = await within({ protocol: 'evaluation', mode: 'quick' }, [1]);
    expect(
      { debate: [debate.ratio, debate.underWorst], quick: [quick.ratio, quick.underWorst] },
      JSON.stringify({ debate, quick }),
    ).toEqual({
      debate: [true, true],
      quick: [true, true],
    });
  });

  it('prices Anthropic from the model table without a key, and says the provider cannot run', async () => {
    const workspace = Workspace.open(ws.root);
    try {
      const e = new EvaluationService(workspace).estimate(IDEA, { mode: 'quick', provider: 'anthropic' });
      expect({ priced: e.usd > 0 && e.worstUsd >= e.usd, cannotRun: e.cannotRun }).toEqual({
        priced: true,
        cannotRun: expect.stringContaining('needs an API key'),
      });
    } finally {
      workspace.close();
    }
    const app = await createApp({ workspaceRoot: ws.root, watch: false });
    try {
      const debate = await app.client.invoke('debates:estimate', {
        ideaSlug: IDEA,
        agents: ws.agents(4),
        provider: 'anthropic',
      });
      const simulated = await app.client.invoke('debates:estimate', {
        ideaSlug: IDEA,
        agents: ws.agents(4),
        provider: 'simulated',
      });
      expect({
        usd: debate.usd > 0,
        worst: debate.worstUsd >= debate.usd,
        cannotRun: debate.cannotRun,
        simulated: [simulated.usd, simulated.cannotRun],
      }).toEqual({
        usd: true,
        worst: true,
        cannotRun: expect.stringContaining('needs an API key'),
        simulated: [0, null],
      });
      // Calls grow with the agents: the old estimate was 56 calls whatever their number.
      const two = await app.client.invoke('debates:estimate', {
        ideaSlug: IDEA,
        agents: ws.agents(2),
        provider: 'anthropic',
      });
      expect(debate.calls).toBeGreaterThan(two.calls);
    } finally {
      await app.close();
    }
  });

  it('is printed by evaluate --estimate and debate --estimate, likely and at worst, starting nothing', () => {
    const env = { ANTHROPIC_API_KEY: '' };
    const evaluate = cli(
      ['evaluate', IDEA, '--workspace', ws.root, '--mode', 'quick', '--provider', 'anthropic', '--estimate'],
      { env },
    );
    const debate = cli(
      [
        'debate',
        '--workspace',
        ws.root,
        '--idea',
        IDEA,
        '--agents',
        ws.agents(3).join(','),
        '--provider',
        'anthropic',
        '--estimate',
      ],
      { env },
    );
    for (const run of [evaluate, debate]) {
      expect({ code: run.code, line: run.stdout }).toEqual({
        code: 0,
        line: expect.stringMatching(/likely \$0\.\d{4} \(about \d+ calls\), at worst \$\d+\.\d{4}/),
      });
    }
  });
});

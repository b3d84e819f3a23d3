import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proposalText } from '../../core/arena/similarity';
import { readArenaLogs } from '../../core/node/arena/arena-logs';
import { FakeEmbeddings, fakeEmbedding } from '../fakes/fake-embeddings';
import { cliAsync } from '../helpers/run-cli-async';
import { readme, tempWorkspace, writeFile } from '../helpers/temp-workspace';

// The embedding measure: after each revision round the current proposals go to an OpenAI-compatible
// embeddings endpoint (here a fake on 127.0.0.1), and the round's score is the mean over pairs of the
// cosine of their embeddings, named `embedding`. The endpoint is kept in the arena's setup.

let ws: { root: string; cleanup: () => void };
const fake = new FakeEmbeddings();
beforeAll(async () => {
  ws = tempWorkspace('crucible-embedding-');
  writeFile(ws.root, 'ideas/solar-coop/README.md', readme('A community solar co-op'));
  await fake.start();
});
afterAll(async () => {
  await fake.close();
  ws.cleanup();
});

/** Cosine, written out again, and the mean over every pair of a round's texts. */
function meanCosine(texts: string[]): number {
  const v = texts.map(fakeEmbedding);
  const cos = (a: number[], b: number[]) => {
    const dot = a.reduce((s, x, i) => s + x * (b[i] as number), 0);
    const norm = (x: number[]) => Math.sqrt(x.reduce((s, y) => s + y * y, 0));
    return dot / (norm(a) * norm(b));
  };
  const scores: number[] = [];
  for (let i = 0; i < v.length; i++)
    for (let j = i + 1; j < v.length; j++) scores.push(Math.max(0, cos(v[i] as number[], v[j] as number[])));
  return scores.reduce((s, x) => s + x, 0) / scores.length;
}

const arena = (extra: string[], env: Record<string, string> = {}) =>
  cliAsync(
    [
      'arena',
      '--workspace',
      ws.root,
      '--idea',
      'solar-coop',
      '--agents',
      'investor,historian,regulator',
      '--judge',
      'judge',
      '--similarity',
      'embedding',
      '--seed',
      '2',
      '--json',
      ...extra,
    ],
    { env },
  );

describe('the embedding measure', { timeout: 120_000 }, () => {
  it('scores each revision round by the mean cosine of the proposals’ embeddings, and names it', async () => {
    const run = await arena(['--embeddings-url', fake.baseURL, '--embeddings-model', 'fake-embed-1']);
    expect(run.stderr).toBe('');
    const report = JSON.parse(run.stdout) as {
      id: string;
      status: string;
      log: string;
      summary: { convergence: { round: number; score: number; measure: string }[] };
    };
    const log = readFileSync(join(ws.root, report.log), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const header = (log[0] as { header: { setup: { embedding: unknown } } }).header;
    const calls = log.filter(
      (r) => r.type === 'llm_call' && (r.call as { provider: string }).provider === 'embeddings',
    ) as { call: { model: string; usage: { inputTokens: number } } }[];
    const state = readArenaLogs(ws.root).arenas.find((a) => a.id === report.id)?.state;
    const round3 = ['investor', 'historian', 'regulator'].map((a) => {
      const p = state?.proposals[a]?.find((v) => v.round === 3);
      return p ? proposalText(p) : '';
    });
    const inputs = fake.requests.map((r) => r.body.input as string[]);

    expect({
      status: report.status,
      setup: header.setup.embedding,
      asked: fake.requests.map((r) => [r.path, r.body.model, (r.body.input as string[]).length]),
      firstInput: inputs[0],
      convergence: report.summary.convergence,
      metered: calls.map((c) => [c.call.model, c.call.usage.inputTokens]),
    }).toEqual({
      status: 'completed',
      setup: { url: fake.baseURL, model: 'fake-embed-1' },
      asked: inputs.map(() => ['/v1/embeddings', 'fake-embed-1', 3]),
      firstInput: round3,
      convergence: inputs.map((texts, i) => ({
        round: 3 + i,
        score: Math.round(meanCosine(texts) * 1e4) / 1e4,
        measure: 'embedding',
      })),
      metered: inputs.map((texts) => ['fake-embed-1', texts.reduce((s, t) => s + Math.ceil(t.length / 4), 0)]),
    });
    expect(inputs.length).toBeGreaterThan(0);
  });

  it('fails the arena, naming the measure, when the endpoint keeps failing; refuses to start without one', async () => {
    fake.fail(500, 3);
    const failed = await arena([], { CRUCIBLE_EMBEDDINGS_URL: fake.baseURL });
    const report = JSON.parse(failed.stdout) as { status: string; summary: { stopped: { reason: string } } };
    const missing = await arena([], { CRUCIBLE_EMBEDDINGS_URL: '' });
    expect({
      failed: [failed.code, report.status, report.summary.stopped.reason],
      missing: [missing.code, missing.stderr.trim()],
    }).toEqual({
      failed: [1, 'failed', expect.stringMatching(/^the embedding similarity of round 3 failed: .*answered 500/)],
      missing: [
        1,
        'error: --similarity embedding needs an OpenAI-compatible embeddings endpoint: --embeddings-url URL (or CRUCIBLE_EMBEDDINGS_URL)',
      ],
    });
  });
});

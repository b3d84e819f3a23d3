import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runEvaluationReplay } from '../../core/evaluation';
import { appRoot } from '../../core/node/app-root';
import { ClassificationService } from '../../core/node/evaluations/classification-service';
import { DevelopmentService } from '../../core/node/evaluations/development-service';
import { EvaluationService } from '../../core/node/evaluations/evaluation-service';
import { developmentProgress } from '../../core/node/evaluations/information';
import { listIdeas } from '../../core/node/sqlite/index-sql';
import { loadTaxonomy } from '../../core/node/taxonomy-loader';
import { Workspace } from '../../core/node/workspace/workspace';
import { type Provider, providerFor } from '../../core/node/debates/providers';
import { createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { FakeAnthropic } from '../fakes/fake-anthropic';
import { simulatorResponder } from '../fakes/simulator-responder';
import { parseDebateLog } from '../../core/engine/log-reader';
import { LlmError } from '../../core/ports/llm';
import { nodeEntry } from '../helpers/node-entry';
import { cli } from '../helpers/run-cli';
import { eventually, tempWorkspace } from '../helpers/temp-workspace';

const IDEA = 'llm-judge-calibration';
let root: string;
let cleanup: () => void;
let ws: Workspace;

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-eval-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  ws = Workspace.open(root);
  ws.sync();
});
afterEach(() => {
  ws.close();
  cleanup();
});

describe('evaluating an idea in a workspace (simulator)', () => {
  it('locks a synthesis, goes stale when the README changes, and a dispute leaves the locked record untouched', async () => {
    const service = new EvaluationService(ws);
    const first = await service.evaluate(IDEA, { mode: 'standard', provider: 'simulated', seed: 4 });
    expect(first.document).toMatchObject({ locked: true, mode: 'standard', scope: 'FULL', supersedes: null });
    expect(first.document.scores).toHaveLength(30);
    expect(first.written).toEqual([`ideas/${IDEA}/synthesis.md`, `ideas/${IDEA}/evaluation.md`, `ideas/${IDEA}/redteam.md`]);
    const synthesis = readFileSync(join(root, 'ideas', IDEA, 'synthesis.md'), 'utf8');
    expect(synthesis).toContain(`overallScore: ${first.document.composites.overallScore}`);
    expect(synthesis).toContain(`contentHashAtEvaluation: "${first.document.contentHashAtEvaluation}"`);
    // The evaluation saw the idea's development questions: its completeness is the file's answered share.
    const progress = developmentProgress(readFileSync(join(root, 'ideas', IDEA, 'development.md'), 'utf8'));
    expect(first.document.information).toEqual(progress);
    expect(progress.asked).toBeGreaterThan(progress.answered);

    const board = () => service.leaderboard().find((r) => r.slug === IDEA);
    expect(board()).toMatchObject({ rank: 1, overallScore: first.document.composites.overallScore, stale: false, evaluationId: first.document.evaluationId });
    expect(Object.keys(board()?.categoryScores ?? {})).toEqual(['problem', 'solution', 'feasibility', 'fit', 'market', 'risk']);

    appendFileSync(join(root, 'ideas', IDEA, 'README.md'), '\nA new paragraph with material information.\n');
    ws.sync();
    expect(listIdeas(ws.db).find((i) => i.slug === IDEA)?.stale).toBe(true);
    expect(board()?.stale).toBe(true);

    const recordBefore = readFileSync(join(root, first.recordPath), 'utf8');
    const reason = 'Three labs lost months to miscalibrated judges; the severity is far higher than scored.';
    const disputed = await service.dispute(IDEA, 'problem-severity', reason, { seed: 4 });
    expect(disputed.document).toMatchObject({ scope: 'TARGETED', supersedes: first.document.evaluationId, dispute: { criterion: 'problem-severity', reason } });
    const newRounds = disputed.document.auditTrail.roundSummaries.filter((r) => !r.inherited);
    expect(newRounds).toHaveLength(1);
    expect(new Set(disputed.document.auditTrail.conflicts.filter((c) => c.round === newRounds[0]?.round).map((c) => c.criterion))).toEqual(new Set(['problem-severity']));
    expect(readFileSync(join(root, first.recordPath), 'utf8')).toBe(recordBefore);
    expect(board()?.evaluationId).toBe(disputed.document.evaluationId);

    // Agents ranked by the arbiter's rulings in the current evaluation: every ruling counted once
    // on each side, the superseded evaluation left out.
    const ratings = service.personaRatings();
    const rulings = disputed.document.auditTrail.conflicts.filter((c) => c.ruling);
    const sum = (role: string, key: 'exchanges' | 'wins' | 'losses' | 'draws') => ratings.filter((r) => r.role === role).reduce((n, r) => n + r[key], 0);
    expect([sum('red-team', 'exchanges'), sum('evaluator', 'exchanges')]).toEqual([rulings.length, rulings.length]);
    expect(sum('red-team', 'wins')).toBe(rulings.filter((c) => c.ruling?.winner === 'RED_TEAM').length);
    expect(sum('red-team', 'wins')).toBe(sum('evaluator', 'losses'));
    expect(ratings.map((r) => r.winRate)).toEqual([...ratings.map((r) => r.winRate)].sort((a, b) => b - a));
  });

  it('refuses a dispute whose reason is shorter than 50 characters, and keeps a hand-edited synthesis.md', async () => {
    const service = new EvaluationService(ws);
    await service.evaluate(IDEA, { mode: 'quick', provider: 'simulated' });
    await expect(service.dispute(IDEA, 'problem-severity', 'Too low.')).rejects.toThrow(/50/);
    writeFileSync(join(root, 'ideas', IDEA, 'synthesis.md'), 'my own notes on the synthesis\n');
    const again = await service.evaluate(IDEA, { mode: 'quick', provider: 'simulated' });
    expect(readFileSync(join(root, 'ideas', IDEA, 'synthesis.md'), 'utf8')).toBe('my own notes on the synthesis\n');
    expect(again.conflicts).toEqual([expect.stringMatching(new RegExp(`^ideas/${IDEA}/synthesis\\.conflict-\\d{8}T\\d{6}Z\\.md$`))]);
  });
});

describe('an interrupted evaluation', () => {
  it('resumes from its checkpoint after the process is killed, and locks where an uninterrupted one does', async () => {
    const reference = await new EvaluationService(ws).evaluate(IDEA, { mode: 'standard', provider: 'simulated', seed: 9 });
    const child = spawn(
      process.execPath,
      [...nodeEntry(join(appRoot(), 'core/node/cli/main.ts')), 'evaluate', IDEA, '--workspace', root, '--mode', 'standard', '--seed', '9'],
      { env: { ...process.env, CRUCIBLE_SIMULATED_LATENCY_MS: '30' }, stdio: 'ignore' },
    );
    const folder = join(root, 'ideas', IDEA, 'evaluations');
    const progress = await eventually(() => {
      // The reference's log stays beside its record; the running one has no record yet.
      const names = readdirSync(folder);
      const name = names.find((f) => f.endsWith('.run.jsonl') && !names.includes(f.replace('.run.jsonl', '.json')));
      return name && readFileSync(join(folder, name), 'utf8').split('\n').length > 25 ? name : null;
    }, 'the evaluation to be under way', 20_000);
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const id = progress.replace('.run.jsonl', '');

    const run = cli(['evaluate', '--resume', id, '--workspace', root, '--json']);
    expect(run.stderr).toBe('');
    const resumed = JSON.parse(run.stdout);
    const essentials = (d: typeof reference.document) => ({ scores: d.scores, categories: d.categories, composites: d.composites, lockReason: d.lockReason, rounds: d.rounds, conflicts: d.auditTrail.conflicts });
    expect(essentials({ ...resumed, composites: { ...resumed.composites } })).toEqual(essentials(reference.document));
    expect(resumed.evaluationId).toBe(id);
    // The record and script are kept beside the run's log, which stays as the run's history.
    expect(readdirSync(folder)).toEqual(expect.arrayContaining([`${id}.json`, `${id}.jsonl`, `${id}.run.jsonl`]));
  });
});

describe('hard limits', () => {
  it('locks with TIMEOUT when the time limit passes mid-evaluation', async () => {
    const slow = (): Provider => {
      const simulated = providerFor('simulated', root, 1);
      return {
        ...simulated,
        llm: {
          provider: 'simulated',
          call: async (request) => {
            await new Promise((r) => setTimeout(r, 40));
            return simulated.llm.call(request);
          },
        },
      };
    };
    const run = await new EvaluationService(ws, slow).evaluate(IDEA, { mode: 'deep', provider: 'simulated', timeLimitMs: 600 });
    expect(run.document.lockReason).toBe('TIMEOUT');
    expect(run.document.rounds).toBeGreaterThanOrEqual(1);
  });
});

/** The simulated provider, with red-team calls failing with whatever `fail` gives for their persona. */
function redTeamFailing(fail: (persona: string | undefined) => Error | null): () => Provider {
  return () => {
    const simulated = providerFor('simulated', root, 1);
    return {
      ...simulated,
      llm: {
        provider: 'simulated',
        call: (request) => {
          const ask = (request.brief as { ask?: { role?: string; persona?: string } }).ask;
          const error = ask?.role === 'redteam' ? fail(ask.persona) : null;
          return error ? Promise.reject(error) : simulated.llm.call(request);
        },
      },
    };
  };
}

describe('a failed evaluation', () => {
  it('fails visibly when the model keeps failing, and --resume retries it from the start (FAILED → PENDING)', async () => {
    let broken = true;
    const flaky = redTeamFailing(() => (broken ? new Error('upstream is down') : null));
    const service = new EvaluationService(ws, flaky);
    await expect(service.evaluate(IDEA, { mode: 'quick', provider: 'simulated' })).rejects.toThrow(/the evaluation failed: redteam failed: upstream is down/);
    const folder = join(root, 'ideas', IDEA, 'evaluations');
    const id = (readdirSync(folder).find((f) => f.endsWith('.run.jsonl')) as string).replace('.run.jsonl', '');
    broken = false;
    const retried = await service.resume(id);
    expect(retried.document).toMatchObject({ evaluationId: id, locked: true, lockReason: 'MAX_ROUNDS' });
  });
});

describe('a red-team persona that keeps failing', () => {
  it('is degraded and left out, and the evaluation locks on the others; the log says who and why', async () => {
    let failing: string | null = null;
    const flaky = redTeamFailing((persona) => {
      // The first persona asked is the one whose model is down, after its own re-asks.
      failing ??= persona ?? null;
      return persona === failing ? new LlmError('server_error', 'upstream is down') : null;
    });
    const run = await new EvaluationService(ws, flaky).evaluate(IDEA, { mode: 'standard', provider: 'simulated' });
    const folder = join(root, 'ideas', IDEA, 'evaluations');
    const log = parseDebateLog(readFileSync(join(folder, `${run.document.evaluationId}.run.jsonl`), 'utf8')).records;
    const challengers = new Set(run.document.auditTrail.conflicts.map((c) => c.persona as string));
    expect({
      locked: run.document.locked,
      degraded: log.flatMap((r) => (r.type === 'agent_degraded' ? [r.agent] : [])),
      // Asked twice (each with the provider's own retries), then never again.
      failures: log.filter((r) => r.type === 'turn_failed').length,
      challengedByIt: challengers.has(String(failing)),
      challengedByOthers: challengers.size > 0,
      ended: log.at(-1),
    }).toEqual({
      locked: true,
      degraded: [`redteam:${failing}`],
      failures: 2,
      challengedByIt: false,
      challengedByOthers: true,
      ended: expect.objectContaining({ type: 'status', status: 'completed' }),
    });
  });
});

describe('the development agent', () => {
  it('asks about the gaps, records answers in development.md, and the evaluation counts them', async () => {
    const before = developmentProgress(readFileSync(join(root, 'ideas', IDEA, 'development.md'), 'utf8'));
    const dev = new DevelopmentService(ws);
    const asked = await dev.develop(IDEA, { provider: 'simulated' });
    expect(asked.added).toEqual([before.asked + 1, before.asked + 2, before.asked + 3]);
    expect(asked.questions.slice(-3).every((q) => q.answer === null && q.question.startsWith('[simulated]'))).toBe(true);
    // A second session does not ask the same gaps again.
    const again = await dev.develop(IDEA, { provider: 'simulated' });
    expect(again.questions.slice(-3).map((q) => q.gap)).not.toEqual(asked.questions.slice(-3).map((q) => q.gap));
    dev.answer(IDEA, before.asked + 1, 'Three labs told me they threshold on judge confidence today.');
    const run = await new EvaluationService(ws).evaluate(IDEA, { mode: 'quick', provider: 'simulated' });
    expect(run.document.information).toEqual({ asked: before.asked + 6, answered: before.answered + 1 });
    expect(ws.db.prepare('SELECT count(*) AS n FROM development_log WHERE answer IS NOT NULL').get()).toEqual({ n: 1 });
  });
});

describe('the classification agent', () => {
  it('writes type, tags and new relationships into the frontmatter, keeping the researcher\'s own', async () => {
    cpSync(join(appRoot(), 'ideas', 'dataset-diff-tool'), join(root, 'ideas', 'dataset-diff-tool'), { recursive: true });
    const readmePath = join(root, 'ideas', IDEA, 'README.md');
    // The researcher's tags as a block list, and a link of their own.
    const original = readFileSync(readmePath, 'utf8');
    const edited = original
      .replace(/^tags: .*$/m, 'tags:\n  - ai\n  - my-own-tag')
      .replace(/^relationships: .*$/m, 'relationships:\n  - target: dataset-diff-tool\n    type: inspired_by\n    strength: 0.3\n    reason: "Mine."');
    writeFileSync(readmePath, edited);
    ws.sync();
    const result = await new ClassificationService(ws).classify(IDEA, { provider: 'simulated' });
    const idea = listIdeas(ws.db).find((i) => i.slug === IDEA);
    expect(ws.errors()).toEqual([]);
    expect(idea?.tags.slice(0, 2)).toEqual(['ai', 'my-own-tag']);
    expect(result.freeTags).toContain('my-own-tag');
    expect(result.classification.relationships[0]).toEqual({ target: 'dataset-diff-tool', type: 'inspired_by', strength: 0.3, reason: 'Mine.' });
    const after = readFileSync(readmePath, 'utf8');
    // Only the frontmatter lines it owns changed: the body is byte for byte the researcher's.
    expect(after.slice(after.indexOf('\n---\n'))).toBe(edited.slice(edited.indexOf('\n---\n')));
  });
});

describe('npm run cli -- evaluate --replay', () => {
  it('prints the final synthesis document of a script, and exits 2 naming the line of a bad one', () => {
    const fixture = join(import.meta.dirname, 'fixtures', 'standard-replay.jsonl');
    const run = cli(['evaluate', '--replay', fixture, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(runEvaluationReplay(readFileSync(fixture, 'utf8'), loadTaxonomy(null)));
    const bad = join(tmpdir(), `eval-bad-${process.pid}.jsonl`);
    writeFileSync(bad, `${readFileSync(fixture, 'utf8').split('\n')[0]}\n{"type":"answer","role":"evaluator:problem","answer":{"scores":"many"}}\n`);
    const failed = cli(['evaluate', '--replay', bad, '--json']);
    expect([failed.code, failed.stderr]).toEqual([2, expect.stringMatching(/^error: .*: line 2: evaluator:problem: scores/)]);
  });
});

describe('an evaluation on the Anthropic adapter against the fake server', () => {
  it('locks through the real SDK, every call metered, and stops with BUDGET when the money runs out', async () => {
    const fake = new FakeAnthropic({ responder: simulatorResponder(2) });
    await fake.start();
    try {
      const models = loadModelsConfig(null);
      const provider = (): Provider => ({
        llm: createAnthropicLlm({ apiKey: 'test-key', baseURL: fake.baseURL, prices: models, maxRetries: 1, sendBriefHeader: true }),
        estimate: () => 0,
        likely: () => 0,
      });
      const run = await new EvaluationService(ws, provider).evaluate(IDEA, { mode: 'quick', provider: 'anthropic', baseline: true });
      expect(run.document).toMatchObject({ locked: true, lockReason: 'MAX_ROUNDS', mode: 'quick' });
      // Nucleation asks the six evaluators, then the red team, defences, rulings, synthesis, narrative.
      const tools = fake.requests.map((r) => r.body.tool_choice?.name);
      expect(tools.slice(0, 6)).toEqual(Array(6).fill('criterion_scores'));
      expect(new Set(tools)).toEqual(new Set(['criterion_scores', 'challenges', 'defense', 'ruling', 'round_synthesis', 'narrative']));
      // The idea's own text is in every request, and no request carries the brief in its prompt.
      expect(fake.requests.every((r) => JSON.stringify([r.body.system, r.body.messages]).includes('LLM judges'))).toBe(true);
      // (The brief's protocol field, bare or as JSON quoted inside a prompt.)
      expect(fake.requests.some((r) => /protocol\\*":\\*"evaluation/.test(JSON.stringify(r.body)))).toBe(false);
      // The single-pass baseline: six more calls, cheaper than the debate, and every score the debate
      // moved names the rulings that moved it.
      const b = run.baseline;
      expect(b?.criteria).toHaveLength(30);
      expect(b && b.baselineCostUsd > 0 && b.debateCostUsd > b.baselineCostUsd).toBe(true);
      expect(b?.debateCostUsd).toBeCloseTo(run.costUsd, 3);
      expect(b?.criteria.filter((c) => c.delta !== 0).every((c) => c.changedBy.length > 0)).toBe(true);
      expect(fake.requests.filter((r) => r.body.tool_choice?.name === 'criterion_scores')).toHaveLength(12);

      const costly = (): Provider => ({ ...provider(), estimate: () => 0.05 });
      const capped = await new EvaluationService(ws, costly).evaluate(IDEA, { mode: 'standard', provider: 'anthropic', budgetUsd: 0.34 });
      expect(capped.document.lockReason).toBe('BUDGET');
    } finally {
      await fake.close();
    }
  });
});

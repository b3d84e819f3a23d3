import { appendFileSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { appRoot } from '../app-root';
import { type Provider, type ProviderFactory, providerFor } from '../debates/providers';
import { evaluationLogPath, readEvaluationLog } from '../evaluations/evaluation-log';
import { finalSynthesisDocumentSchema } from '../../evaluation';
import { redTeamTarget, undefended } from '../../pipeline/gate';
import { ideaEvaluationState } from '../sqlite/evaluation-record-queries';
import { Workspace } from '../workspace/workspace';
import { lockEstimate, stepEstimates } from './pipeline-estimates';
import { readEntries } from './pipeline-log-file';
import { PipelineService } from './pipeline-service';
import { writePipelineSettings } from './pipeline-settings-file';

// The pipeline's budget on a real workspace, with a provider that charges: the simulator's answers,
// each call billed a cent, priced beforehand from the model table as the provider it stands in for.

const IDEA = 'community-solar-coop';
const CENT = 0.01;
/** Sample ideas whose quick simulated evaluation, red-teamed, leaves a CRITICAL challenge standing, or none. */
const STOOD = 'llm-judge-calibration';
const DEFENDED = 'dataset-diff-tool';

/** The simulator's answers under the anthropic name, every call costing a cent: money moves, no key needed. */
const charging: ProviderFactory = (_name, root, seed) => {
  const simulated = providerFor('simulated', root, seed);
  const provider: Provider = {
    llm: {
      provider: 'anthropic',
      call: async (request) => {
        const result = await simulated.llm.call(request);
        return { ...result, calls: result.calls.map((c) => ({ ...c, costUsd: CENT })) };
      },
    },
    estimate: () => CENT,
    likely: () => CENT,
  };
  return provider;
};

describe('the pipeline within its daily budget', () => {
  let root = '';
  let cleanup = () => {};
  let ws: Workspace;
  let day = new Date('2026-03-05T09:00:00');
  const service = () => new PipelineService(ws, { providers: charging, now: () => day });

  beforeEach(() => {
    ({ root, cleanup } = tempWorkspace('crucible-pipeline-budget-'));
    cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
    ws = Workspace.open(root);
    ws.sync();
    day = new Date('2026-03-05T09:00:00');
  });
  afterEach(() => {
    ws.close();
    cleanup();
  });

  it('records its log entries as the app’s own writes, so the watcher does not take them for an edit', async () => {
    const pipeline = service();
    pipeline.run([IDEA]);
    await pipeline.idle();
    expect(readEntries(root, IDEA).map((e) => e.event)).toEqual(['enrolled']);
    expect(ws.isOwnWrite(`ideas/${IDEA}/pipeline.md`)).toBe(true);
    await pipeline.close();
  });

  it('ends with the reason, and no unhandled rejection, when the index fails as it takes its lease', async () => {
    writePipelineSettings(root, { steps: { develop: true } });
    const errors: string[] = [];
    const log = { info() {}, warn() {}, error: (m: string) => void errors.push(m) };
    const pipeline = new PipelineService(ws, { providers: charging, now: () => day, log });
    pipeline.run([IDEA]);
    // Not another process holding the lease (a refusal) but the index itself failing, before the
    // loop's first claim (it waits a turn).
    ws.db.close();
    await pipeline.idle();
    expect(errors).toEqual([
      'the pipeline could not take its lease in the index (The database connection is not open)',
    ]);
    expect(readEntries(root, IDEA).map((e) => e.event)).toEqual(['enrolled']);
    await pipeline.close();
  });

  it('leaves no step running when its start cannot be logged, and says why in its status', async () => {
    writePipelineSettings(root, { steps: { develop: true }, provider: 'anthropic' });
    const log = join(root, 'ideas', IDEA, 'pipeline.md');
    let enrolled = false;
    // Once enrolled, the log loses its header (as if the researcher's own note took its place, entries
    // kept): the idea is still enrolled, but the develop step's `started` entry is refused.
    const pipeline = new PipelineService(ws, {
      providers: charging,
      now: () => day,
      onChange: (slug) => {
        if (slug !== IDEA || enrolled) return;
        enrolled = true;
        const entries = readFileSync(log, 'utf8')
          .split('\n')
          .filter((line) => line.startsWith('- '));
        writeFileSync(log, `# My notes on the pipeline\n\n${entries.join('\n')}\n`);
      },
    });
    pipeline.run([IDEA]);
    await pipeline.idle();
    const status = pipeline.status();
    expect({ current: status.current, problems: status.problems }).toEqual({
      current: null,
      problems: [
        `the pipeline stopped: a step could not be logged (ideas/${IDEA}/pipeline.md is not a pipeline log (its first line does not start with "# Pipeline log:"): the pipeline does not write into a note of yours; rename that file and the pipeline goes on with this idea)`,
      ],
    });
    await pipeline.close();
  });

  it('refuses a step that would pass the budget, says so once a day, and counts what each step spent', async () => {
    const estimates = stepEstimates(ws, 'anthropic', 'quick', charging);
    // Enough for the development call at its worst, and a cent of it really spent; not for an evaluation.
    const budget = estimates.develop.worstUsd + CENT;
    expect(estimates.evaluate.usd).toBeGreaterThan(estimates.develop.worstUsd);
    writePipelineSettings(root, {
      steps: { develop: true, evaluate: true, classify: true },
      dailyBudgetUsd: budget,
      provider: 'anthropic',
    });
    const pipeline = service();
    pipeline.run([IDEA]);
    await pipeline.idle();
    let status = pipeline.status();
    expect(status.spentTodayUsd).toBeCloseTo(CENT, 10);
    expect(status.refused.map((r) => r.message)).toEqual([
      `refused: today's pipeline spend is $0.0100 of its daily budget of $${budget.toFixed(4)}; evaluate of "${status.ideas[0]?.title}" would likely cost $${estimates.evaluate.usd.toFixed(4)}. It waits for tomorrow (local time) or a larger dailyBudgetUsd in pipeline.md.`,
    ]);
    const steps = () => readEntries(root, IDEA).map((e) => `${e.step}:${e.event}:${e.costUsd}`);
    expect(steps()).toEqual(['capture:enrolled:0', 'develop:started:0', 'develop:done:0.01', 'evaluate:refused:0']);

    // Asked again the same day: nothing new runs, and the refusal is not logged twice.
    pipeline.resume();
    await pipeline.idle();
    expect(steps()).toHaveLength(4);

    // The next day the budget is whole again; the evaluation runs with the day's budget as its own.
    day = new Date('2026-03-06T09:00:00');
    writePipelineSettings(root, { dailyBudgetUsd: estimates.evaluate.usd + 1 });
    pipeline.resume();
    await pipeline.idle();
    status = pipeline.status();
    const entries = readEntries(root, IDEA);
    const evaluation = entries.find((e) => e.step === 'evaluate' && e.event === 'done');
    expect(evaluation?.costUsd).toBeGreaterThan(0);
    const header = readEvaluationLog(root, evaluationLogPath(IDEA, evaluation?.evaluationId as string)).run;
    expect(header.budgetUsd).toBeCloseTo(estimates.evaluate.usd + 1, 10);
    expect(entries.at(-1)).toMatchObject({ step: 'classify', event: 'done', costUsd: CENT, day: '2026-03-06' });
    // Each day's spend is its own; the entries add up to it.
    const spentOn6 = entries.filter((e) => e.day === '2026-03-06').reduce((s, e) => s + e.costUsd, 0);
    expect(status.spentTodayUsd).toBeCloseTo(spentOn6, 10);
    expect(status.spentTodayUsd).toBeLessThanOrEqual(status.settings.dailyBudgetUsd);
    await pipeline.close();
  }, 60_000);

  it('counts an evaluation’s spend once across a hold and its approval, and prices the approval as its narrative call', async () => {
    // The diff tool's quick evaluation (20 calls) raises CRITICAL challenges: held at its review
    // after 19 calls, only its narrative call is left once approved.
    const CHALLENGED = 'dataset-diff-tool';
    cpSync(join(appRoot(), 'ideas', CHALLENGED), join(root, 'ideas', CHALLENGED), { recursive: true });
    ws.sync();
    writePipelineSettings(root, { steps: { evaluate: true }, dailyBudgetUsd: 5, provider: 'anthropic' });
    const pipeline = service();
    pipeline.run([CHALLENGED]);
    await pipeline.idle();
    const held = readEntries(root, CHALLENGED).at(-1);
    expect(held).toMatchObject({ event: 'held', costUsd: expect.closeTo(19 * CENT, 10) });
    expect(held?.limit).toBeUndefined();
    const id = held?.evaluationId as string;

    // What is left of the day fits the narrative call at its worst, though not a whole evaluation.
    const lock = lockEstimate(ws, 'anthropic', 'quick', charging);
    const estimates = stepEstimates(ws, 'anthropic', 'quick', charging);
    expect(lock.calls).toBe(1);
    expect(lock.worstUsd).toBeLessThan(estimates.evaluate.usd);
    writePipelineSettings(root, { dailyBudgetUsd: 19 * CENT + lock.worstUsd });
    pipeline.approve(CHALLENGED, id);
    const due = pipeline.status();
    expect(due.refused).toEqual([]);
    expect(due.queue.map((q) => [q.kind, q.lock, q.estimate?.worstUsd])).toEqual([
      ['resume', 'narrative', lock.worstUsd],
    ]);
    await pipeline.idle();
    const entries = readEntries(root, CHALLENGED).filter((e) => e.evaluationId === id);
    expect(entries.map((e) => [e.event, Math.round(e.costUsd / CENT)])).toEqual([
      ['started', 0],
      ['held', 19],
      ['approved', 0],
      ['started', 0],
      ['done', 1],
    ]);
    // The log's sum is what the evaluation spent: each call counted once.
    const record = readFileSync(join(root, 'ideas', CHALLENGED, 'evaluations', `${id}.jsonl`), 'utf8');
    const spent = (JSON.parse(record.split('\n')[0] as string) as { costUsd: number }).costUsd;
    expect(entries.reduce((sum, e) => sum + e.costUsd, 0)).toBeCloseTo(spent, 10);
    expect(spent).toBeCloseTo(20 * CENT, 10);
    await pipeline.close();
  }, 60_000);

  it('holds an evaluation its budget cuts short while CRITICAL challenges stand, and lets it lock once approved', async () => {
    // The diff tool's quick evaluation raises two CRITICAL challenges, ruled in its one round (18
    // calls); a budget of 18½ calls runs out before the round's synthesis, which would lock it at once
    // from its figures, with no review between for the gate to hold it at.
    const CHALLENGED = 'dataset-diff-tool';
    cpSync(join(appRoot(), 'ideas', CHALLENGED), join(root, 'ideas', CHALLENGED), { recursive: true });
    writeFileSync(join(root, 'settings.md'), '---\nkind: settings\nevaluationBudgetUsd: 0.185\n---\n');
    ws.sync();
    writePipelineSettings(root, {
      steps: { evaluate: true },
      dailyBudgetUsd: 5,
      reviewGate: true,
      provider: 'anthropic',
    });
    const pipeline = service();
    pipeline.run([CHALLENGED]);
    await pipeline.idle();
    const trail = () => readEntries(root, CHALLENGED).map((e) => `${e.step}:${e.event}`);
    expect(trail()).toEqual(['capture:enrolled', 'evaluate:started', 'evaluate:held']);
    const held = readEntries(root, CHALLENGED).at(-1);
    const id = held?.evaluationId as string;
    expect(held).toMatchObject({ limit: 'budget', costUsd: expect.closeTo(0.18, 10) });
    expect(held?.critical?.map((c) => [c.criterion, c.winner])).toEqual([
      ['problem-severity', 'EVALUATOR'],
      ['resource-requirements', 'EVALUATOR'],
    ]);
    // Not locked: paused by the gate at its checkpoint, no record written.
    expect(readEvaluationLog(root, evaluationLogPath(CHALLENGED, id)).stopped?.reason).toBe('review gate');
    expect(existsSync(join(root, 'ideas', CHALLENGED, 'evaluations', `${id}.json`))).toBe(false);
    const waiting = pipeline.status().waiting;
    expect(waiting.map((w) => [w.evaluationId, w.heldAt, w.critical.length])).toEqual([[id, 'budget', 2]]);

    // Approved, it locks from its figures: nothing is left to pay for, so a spent day does not refuse it.
    writePipelineSettings(root, { dailyBudgetUsd: 0.18 });
    pipeline.approve(CHALLENGED, id);
    expect(pipeline.status().queue.map((q) => [q.step, q.kind, q.lock, q.estimate])).toEqual([
      ['evaluate', 'resume', 'figures', null],
    ]);
    await pipeline.idle();
    expect(trail()).toEqual([
      'capture:enrolled',
      'evaluate:started',
      'evaluate:held',
      'evaluate:approved',
      'evaluate:started',
      'evaluate:done',
    ]);
    const record = JSON.parse(readFileSync(join(root, 'ideas', CHALLENGED, 'evaluations', `${id}.json`), 'utf8'));
    expect({ lockReason: record.lockReason, cost: readEntries(root, CHALLENGED).at(-1)?.costUsd }).toEqual({
      lockReason: 'BUDGET',
      cost: 0,
    });
    await pipeline.close();
  }, 60_000);

  it('reports a damaged log by file and line, and leaves that idea alone', async () => {
    writePipelineSettings(root, { steps: { develop: true } });
    const pipeline = service();
    pipeline.run([IDEA]);
    await pipeline.idle();
    const log = join(root, 'ideas', IDEA, 'pipeline.md');
    // The text ends with a newline, so the line appended is number (lines so far + 1).
    const line = readFileSync(log, 'utf8').split('\n').length;
    appendFileSync(log, '- broken <!-- pipeline {"at":1} -->\n');
    pipeline.run([]);
    await pipeline.idle();
    const status = pipeline.status();
    expect(status.problems).toEqual([
      `ideas/${IDEA}/pipeline.md:${line}: at: Invalid input: expected string, received number`,
    ]);
    expect(status.ideas).toEqual([]);
    await pipeline.close();
  });
});

describe('the red team in the pipeline', () => {
  let root = '';
  let cleanup = () => {};
  let ws: Workspace;
  beforeEach(() => {
    ({ root, cleanup } = tempWorkspace('crucible-pipeline-redteam-'));
    for (const slug of [STOOD, DEFENDED])
      cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
    ws = Workspace.open(root);
    ws.sync();
  });
  afterEach(() => {
    ws.close();
    cleanup();
  });

  it('challenges the highest-scored criterion once, and sends the idea back to evaluation only when a CRITICAL challenge stands', async () => {
    writePipelineSettings(root, { steps: { evaluate: true, redteam: true, classify: true }, reviewGate: false });
    const pipeline = new PipelineService(ws, { providers: providerFor });
    pipeline.run([STOOD, DEFENDED]);
    await pipeline.idle();
    const trail = (slug: string) => readEntries(root, slug).map((e) => `${e.step}:${e.event}`);
    const record = (slug: string, id: string | undefined) =>
      finalSynthesisDocumentSchema.parse(
        JSON.parse(readFileSync(join(root, 'ideas', slug, 'evaluations', `${id}.json`), 'utf8')),
      );
    const once = ['evaluate:started', 'evaluate:done', 'redteam:started', 'redteam:done'];
    expect(trail(STOOD)).toEqual([
      'capture:enrolled',
      ...once,
      'evaluate:started',
      'evaluate:done',
      'classify:started',
      'classify:done',
    ]);
    // No CRITICAL challenge of the red team stood here: on to classify.
    expect(trail(DEFENDED)).toEqual(['capture:enrolled', ...once, 'classify:started', 'classify:done']);

    const entries = readEntries(root, STOOD);
    const [first, redTeam, again] = entries.filter((e) => e.event === 'done' && e.step !== 'classify');
    // The red team disputed the first evaluation on its highest-scored criterion, as the gate's rule picks it.
    const evaluated = record(STOOD, first?.evaluationId);
    const criteria = new Map(ws.taxonomy.criteria.map((c) => [c.id, c]));
    const target = redTeamTarget(
      evaluated.scores.map((s) => ({
        criterion: s.criterion,
        name: s.criterion,
        finalScore: s.finalScore,
        confidence: s.confidence,
        critical: criteria.get(s.criterion)?.critical ?? false,
      })),
    );
    const disputed = record(STOOD, redTeam?.evaluationId);
    expect({ scope: disputed.scope, supersedes: disputed.supersedes, criterion: disputed.dispute?.criterion }).toEqual({
      scope: 'TARGETED',
      supersedes: first?.evaluationId,
      criterion: target?.criterion,
    });
    // A CRITICAL challenge of the red team's round that the evaluator did not win: the idea went back.
    expect(undefended(redTeam?.critical ?? []).length).toBeGreaterThan(0);
    expect(redTeam?.critical?.every((c) => c.round > 1)).toBe(true);
    const restart = entries.find((e) => e.step === 'evaluate' && e.event === 'started' && e.reevaluation);
    expect(restart?.note).toMatch(/^the red team's CRITICAL challenges stood undefended/);
    // A full evaluation again, now the idea's current one, superseding the red team's.
    const reevaluated = record(STOOD, again?.evaluationId);
    expect({ scope: reevaluated.scope, supersedes: reevaluated.supersedes }).toEqual({
      scope: 'FULL',
      supersedes: redTeam?.evaluationId,
    });
    expect(ideaEvaluationState(ws.db, STOOD)?.evaluationId).toBe(again?.evaluationId);
    // Where the evaluator defended every CRITICAL challenge, the red team's done entry names its own
    // locked TARGETED evaluation, disputing the first one on the criterion the gate's rule picks, and
    // nothing stands undefended (so no re-evaluation followed).
    const [defendedFirst, redTeamDone] = readEntries(root, DEFENDED).filter(
      (e) => e.event === 'done' && e.step !== 'classify',
    );
    const defended = record(DEFENDED, redTeamDone?.evaluationId);
    const defendedScores = record(DEFENDED, defendedFirst?.evaluationId).scores;
    const defendedTarget = redTeamTarget(
      defendedScores.map((s) => ({
        criterion: s.criterion,
        name: s.criterion,
        finalScore: s.finalScore,
        confidence: s.confidence,
        critical: criteria.get(s.criterion)?.critical ?? false,
      })),
    );
    expect({
      step: redTeamDone?.step,
      scope: defended.scope,
      supersedes: defended.supersedes,
      criterion: defended.dispute?.criterion,
      undefended: undefended(redTeamDone?.critical ?? []),
    }).toEqual({
      step: 'redteam',
      scope: 'TARGETED',
      supersedes: defendedFirst?.evaluationId,
      criterion: defendedTarget?.criterion,
      undefended: [],
    });
    await pipeline.close();
  }, 90_000);
});

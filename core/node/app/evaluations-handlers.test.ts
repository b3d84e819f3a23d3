import { cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually, tempWorkspace } from '../../../tests/helpers/temp-workspace';
import {
  type ChannelInput,
  type ChannelOutput,
  ContractError,
  evaluationsChannels,
  type PushEvent,
  type PushPayload,
} from '../../contract';
import { runEvaluationReplay } from '../../evaluation';
import { appRoot } from '../app-root';
import { loadTaxonomy } from '../taxonomy-loader';
import { type App, createApp } from './create-app';

// The evaluation channels against a real app on a temp workspace (real SQLite, real files), with
// the offline simulator as the provider. CRUCIBLE_SIMULATED_LATENCY_MS slows it down where a test
// needs to catch an evaluation mid-way.

const IDEA = 'community-solar-coop';
const OTHER = 'ebike-repair-workshop';

let root: string;
let cleanup: () => void;
const apps: App[] = [];
const bugs: Error[] = [];

beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-eval-app-'));
  for (const slug of [IDEA, OTHER])
    cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
});

afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
  delete process.env.CRUCIBLE_SIMULATED_LATENCY_MS;
  cleanup();
  expect(bugs.splice(0)).toEqual([]);
});

async function boot(): Promise<App> {
  const app = await createApp({ workspaceRoot: root, watch: false, onContractBug: (e) => bugs.push(e) });
  apps.push(app);
  return app;
}

type EvalChannel =
  | 'evaluations:list'
  | 'evaluations:get'
  | 'evaluations:estimate'
  | 'evaluations:start'
  | 'evaluations:cancel'
  | 'evaluations:resume'
  | 'evaluations:approve'
  | 'evaluations:addRound'
  | 'evaluations:dispute'
  | 'evaluations:leaderboard'
  | 'evaluations:personaRatings'
  | 'evaluations:matrix';

/** Channels that answered successfully somewhere in this file (checked by the last test). */
const answered = new Set<string>();

async function call<C extends EvalChannel>(app: App, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const output = await app.handlers[channel](input);
  answered.add(channel);
  return output;
}

async function refused(promise: Promise<unknown>): Promise<ContractError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ContractError) return error;
    throw error;
  }
  throw new Error('expected the call to be refused');
}

function record(app: App): PushEvent[] {
  const seen: PushEvent[] = [];
  app.events.onAny((event) => seen.push(event));
  return seen;
}

const statuses = (seen: PushEvent[], id: string) =>
  seen.flatMap((e) => (e.event === 'run:status' && e.payload.id === id ? [e.payload] : []));
const progress = (seen: PushEvent[], id: string): PushPayload<'evaluation:event'>[] =>
  seen.flatMap((e) => (e.event === 'evaluation:event' && e.payload.evaluationId === id ? [e.payload] : []));
/** The first status after `running`: locked (`completed`), stopped (`paused`) or failed. */
const ended = (seen: PushEvent[], id: string) => statuses(seen, id).find((s) => s.status !== 'running');

describe('evaluations in the app', () => {
  it('runs a simulated evaluation in the background to a locked record, streaming every entry once, and the leaderboard, matrix and ratings follow', async () => {
    const app = await boot();
    const seen = record(app);
    const estimate = await call(app, 'evaluations:estimate', { slug: IDEA, mode: 'standard', provider: 'simulated' });
    expect(estimate).toMatchObject({ usd: 0, rounds: 3, personas: ['skeptic', 'realist', 'first-principles'] });
    expect(estimate.calls).toBeGreaterThan(20);

    const { id } = await call(app, 'evaluations:start', { slug: IDEA, mode: 'standard', provider: 'simulated' });
    const last = await eventually(() => ended(seen, id), 'the evaluation to end', 20_000);
    expect(last).toMatchObject({
      status: 'completed',
      protocol: 'evaluation',
      ideaSlug: IDEA,
      live: false,
      provider: 'simulated',
    });
    expect(statuses(seen, id).map((s) => s.status)).toEqual(['running', 'completed']);

    // The pushed entries number one sequence without gaps, and the record shows the same entries.
    const pushed = progress(seen, id);
    let next = 0;
    for (const p of pushed) {
      expect(p.from).toBe(next);
      next += p.entries.length;
    }
    const detail = await call(app, 'evaluations:get', { id });
    expect(detail.entries.map((e) => [e.seq, e.type, e.title])).toEqual(
      pushed.flatMap((p) => p.entries).map((e) => [e.seq, e.type, e.title]),
    );
    expect(pushed.at(-1)?.progress.done).toBe(pushed.at(-1)?.progress.total);

    expect(detail).toMatchObject({
      id,
      slug: IDEA,
      status: 'completed',
      live: false,
      phase: 'LOCKED',
      current: true,
      stale: false,
      provider: 'simulated',
    });
    expect(detail.lockReason).toMatch(/CONVERGENCE|MAX_ROUNDS/);
    expect(detail.criteria).toHaveLength(30);
    // A score and a confidence for every criterion at every round (the chart's lines).
    const rounds = detail.overallTrajectory.length;
    expect(rounds).toBe(detail.round + 1);
    for (const c of detail.criteria) {
      expect(c.scores).toHaveLength(rounds);
      expect(c.confidences.every((x) => x !== null)).toBe(true);
    }
    expect(detail.confidenceTrajectory).toHaveLength(rounds);
    expect(detail.challenges.length).toBeGreaterThan(0);
    expect(detail.challenges.every((c) => c.ruling !== null)).toBe(true);
    expect(detail.latestConvergence?.conditions.stability).toBeDefined();
    expect(detail.synthesisMarkdown).toContain('# Synthesis:');
    // Each column has its speakers: evaluators' first scores and defences, the red team, the arbiter.
    expect(new Set(detail.entries.map((e) => e.column))).toEqual(new Set(['evaluators', 'transcript', 'redteam']));
    expect(detail.entries.some((e) => e.agent === 'arbiter' && e.winner !== null)).toBe(true);

    const { ideas } = await call(app, 'evaluations:leaderboard', {});
    const row = ideas.find((r) => r.slug === IDEA);
    expect(row).toMatchObject({ rank: 1, evaluationId: id, overallScore: detail.overallScore, stale: false });
    expect(Object.keys(row?.categoryScores ?? {})).toHaveLength(6);
    expect(ideas.find((r) => r.slug === OTHER)?.overallScore).toBeNull();

    const matrix = await call(app, 'evaluations:matrix', {});
    expect(matrix.criteria).toHaveLength(30);
    const scored = matrix.ideas.find((i) => i.slug === IDEA);
    expect(scored?.scores).toEqual(matrix.criteria.map((c) => detail.criteria.find((x) => x.id === c.id)?.score));
    expect(matrix.ideas.find((i) => i.slug === OTHER)?.scores.every((s) => s === null)).toBe(true);

    const { personas } = await call(app, 'evaluations:personaRatings', {});
    expect(personas.map((p) => p.id)).toContain('skeptic');

    const { evaluations } = await call(app, 'evaluations:list', { slug: IDEA });
    expect(evaluations.map((e) => [e.id, e.status, e.current])).toEqual([[id, 'completed', true]]);
    // The record reads the same from a fresh app (from the folder, not from memory).
    await app.close();
    const again = await boot();
    const reread = await call(again, 'evaluations:get', { id });
    expect(reread.entries.length).toBe(detail.entries.length);
    expect(reread.overallScore).toBe(detail.overallScore);
    expect((await call(again, 'evaluations:list', {})).evaluations.map((e) => e.id)).toEqual([id]);
    // Without its script (a process killed between the record and the script), the run's log stands
    // in for it: the same provider, cost and entries.
    await again.close();
    rmSync(join(root, 'ideas', IDEA, 'evaluations', `${id}.jsonl`));
    const noScript = await boot();
    expect(await call(noScript, 'evaluations:get', { id })).toEqual(detail);
    await noScript.close();
    // Without the run's log too (both deleted by hand), the record alone still reads: no entries, the final figures.
    rmSync(join(root, 'ideas', IDEA, 'evaluations', `${id}.run.jsonl`));
    const bare = await call(await boot(), 'evaluations:get', { id });
    expect(bare).toMatchObject({ status: 'completed', overallScore: detail.overallScore, entries: [] });
    expect(bare.challenges).toEqual(detail.challenges);
    expect(bare.confidenceTrajectory.at(-1)).toBe(detail.confidence);
  }, 60_000);

  it('refuses bad input naming the field, and mistakes in words', async () => {
    const app = await boot();
    const mode = await refused(
      call(app, 'evaluations:start', { slug: IDEA, mode: 'fast' as 'quick', provider: 'simulated' }),
    );
    expect([mode.code, mode.field]).toEqual(['bad_input', 'mode']);
    const budget = await refused(call(app, 'evaluations:start', { slug: IDEA, provider: 'simulated', budgetUsd: -1 }));
    expect([budget.code, budget.field]).toEqual(['bad_input', 'budgetUsd']);
    const reason = await refused(
      call(app, 'evaluations:dispute', { slug: IDEA, criterion: 'problem-severity', reason: 'too low' }),
    );
    expect([reason.code, reason.field]).toEqual(['bad_input', 'reason']);
    expect(reason.message).toMatch(/50 characters/);
    const path = await refused(call(app, 'evaluations:get', { id: '../../etc/passwd' }));
    expect([path.code, path.field]).toEqual(['bad_input', 'id']);
    const unknown = await refused(call(app, 'evaluations:start', { slug: 'no-such-idea', provider: 'simulated' }));
    expect(unknown.code).toBe('user_error');
    expect(unknown.message).toMatch(/no idea "no-such-idea"/);
    const missing = await refused(call(app, 'evaluations:get', { id: '01jzzzzzzzzzzzzzzzzzzzzzzz' }));
    expect(missing.message).toMatch(/no evaluation/);
    const nothing = await refused(
      call(app, 'evaluations:dispute', {
        slug: IDEA,
        criterion: 'problem-severity',
        reason: 'The problem is far more severe than scored: three surveys show a majority of renters affected.',
      }),
    );
    expect(nothing.message).toMatch(/no locked evaluation to dispute/);
    // Nothing was created by the refused calls.
    expect(existsSync(join(root, 'ideas', IDEA, 'evaluations'))).toBe(false);
  });

  it('cancels a running evaluation at its checkpoint, and resumes it to the lock', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '40';
    const app = await boot();
    const seen = record(app);
    const { id } = await call(app, 'evaluations:start', { slug: IDEA, mode: 'standard', provider: 'simulated' });
    await eventually(() => progress(seen, id).some((p) => p.phase === 'DEBATING'), 'the first round', 10_000);
    // A second evaluation of the same idea would write the same synthesis: refused while one runs.
    const twice = await refused(call(app, 'evaluations:start', { slug: IDEA, provider: 'simulated' }));
    expect(twice.message).toMatch(/already running/);

    expect(await call(app, 'evaluations:cancel', { id })).toEqual({ id, status: 'running', stopRequested: true });
    expect(await eventually(() => ended(seen, id), 'the stop', 10_000)).toMatchObject({
      status: 'paused',
      reason: 'cancelled',
    });
    const stopped = await call(app, 'evaluations:get', { id });
    expect(stopped).toMatchObject({ status: 'paused', live: false, stopReason: 'cancelled', current: false });
    expect(stopped.phase).not.toBe('LOCKED');
    expect(stopped.progress.done).toBeLessThan(stopped.progress.total);
    expect(readdirSync(join(root, 'ideas', IDEA, 'evaluations'))).toEqual([`${id}.run.jsonl`]);
    expect((await call(app, 'evaluations:list', { status: 'paused' })).evaluations.map((e) => e.id)).toEqual([id]);

    const before = stopped.entries.length;
    await call(app, 'evaluations:resume', { id });
    expect(
      await eventually(
        () => statuses(seen, id).at(-1)?.status === 'completed' && statuses(seen, id).at(-1),
        'the lock',
        20_000,
      ),
    ).toBeTruthy();
    const locked = await call(app, 'evaluations:get', { id });
    expect(locked).toMatchObject({ status: 'completed', current: true });
    // The resumed run continued the same sequence: the first entries are the ones seen before the stop.
    expect(locked.entries.slice(0, before).map((e) => e.title)).toEqual(stopped.entries.map((e) => e.title));
    const resumedPushes = progress(seen, id).filter((p) => p.from >= before);
    expect(resumedPushes[0]?.from).toBe(before);
  }, 60_000);

  it('checkpoints a running evaluation when the app closes, and the next app resumes it', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '40';
    const app = await boot();
    const seen = record(app);
    const { id } = await call(app, 'evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated' });
    await eventually(() => progress(seen, id).length > 2, 'some progress', 10_000);
    await app.close();
    expect(statuses(seen, id).map((s) => [s.status, s.reason])).toEqual([
      ['running', null],
      ['paused', 'app closed'],
    ]);

    const next = await boot();
    const [listed] = (await call(next, 'evaluations:list', {})).evaluations;
    expect(listed).toMatchObject({ id, status: 'paused', live: false, stopReason: 'app closed' });
    const seenNext = record(next);
    await call(next, 'evaluations:resume', { id });
    await eventually(() => ended(seenNext, id), 'the lock', 20_000);
    expect((await call(next, 'evaluations:get', { id })).lockReason).toBe('MAX_ROUNDS');
  }, 60_000);

  it('locks with USER_APPROVED when the researcher approves mid-debate, and a dispute runs one targeted round', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '30';
    const app = await boot();
    const seen = record(app);
    const { id } = await call(app, 'evaluations:start', { slug: IDEA, mode: 'deep', provider: 'simulated' });
    const early = await refused(call(app, 'evaluations:approve', { id }));
    expect(early.message).toMatch(/only while the red team debates/);
    await eventually(() => progress(seen, id).some((p) => p.phase === 'DEBATING'), 'the first round', 10_000);
    await call(app, 'evaluations:approve', { id });
    await eventually(() => ended(seen, id), 'the lock', 20_000);
    const approved = await call(app, 'evaluations:get', { id });
    expect(approved.lockReason).toBe('USER_APPROVED');

    const { id: disputed } = await call(app, 'evaluations:dispute', {
      slug: IDEA,
      criterion: 'problem-severity',
      reason: 'The problem is far more severe than scored: three surveys show a majority of renters affected.',
    });
    await eventually(() => ended(seen, disputed), 'the disputed round', 20_000);
    const detail = await call(app, 'evaluations:get', { id: disputed });
    expect(detail).toMatchObject({ scope: 'TARGETED', supersedes: id, current: true, status: 'completed' });
    expect(detail.dispute?.criterion).toBe('problem-severity');
    const newRound = detail.rounds.filter((r) => !r.inherited);
    expect(newRound.map((r) => r.focus)).toEqual(['problem-severity']);
    // The disputed record stays readable and is no longer current.
    expect((await call(app, 'evaluations:get', { id })).current).toBe(false);
    expect((await call(app, 'evaluations:leaderboard', {})).ideas[0]?.evaluationId).toBe(disputed);
    // Read back by a fresh app, the dispute is rebuilt from its log over the record it reopened.
    await app.close();
    const reread = await call(await boot(), 'evaluations:get', { id: disputed });
    expect(reread.entries.map((e) => e.title)).toEqual(detail.entries.map((e) => e.title));
  }, 60_000);
});

describe('add a round', () => {
  it('grants a running evaluation more rounds through its log: the record runs them, and its script replays them', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '30';
    const app = await boot();
    const seen = record(app);
    const { id } = await call(app, 'evaluations:start', { slug: IDEA, mode: 'quick', provider: 'simulated' });
    await eventually(() => progress(seen, id).some((p) => p.phase === 'DEBATING'), 'the first round', 10_000);
    const granted = [(await call(app, 'evaluations:addRound', { id })).roundLimit];
    granted.push((await call(app, 'evaluations:addRound', { id })).roundLimit);
    await eventually(() => ended(seen, id), 'the lock', 30_000);
    const detail = await call(app, 'evaluations:get', { id });
    const folder = join(root, 'ideas', IDEA, 'evaluations');
    const script = readFileSync(join(folder, `${id}.jsonl`), 'utf8');
    const runLog = readFileSync(join(folder, `${id}.run.jsonl`), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; input?: { kind: string } });
    const recordDoc = JSON.parse(readFileSync(join(folder, `${id}.json`), 'utf8')) as { rounds: number };
    expect({
      granted,
      roundLimit: detail.roundLimit,
      // Quick mode stops after one round; with two granted it ran a second (stability needs two).
      ranMoreThanOne: detail.round >= 2,
      added: detail.entries.filter((e) => e.type === 'round_added').map((e) => e.title),
      logged: runLog.filter((r) => r.type === 'input' && r.input?.kind === 'add_round').length,
      scripted: script.split('\n').filter((l) => l.includes('"type":"add_round"')).length,
    }).toEqual({
      granted: [2, 3],
      roundLimit: 3,
      ranMoreThanOne: true,
      added: ['A round added by the researcher', 'A round added by the researcher'],
      logged: 2,
      scripted: 2,
    });
    expect(runEvaluationReplay(script, loadTaxonomy(null))).toEqual(
      JSON.parse(readFileSync(join(folder, `${id}.json`), 'utf8')),
    );
    expect(recordDoc.rounds).toBe(detail.round);
    const late = await refused(call(app, 'evaluations:addRound', { id }));
    expect(late.message).toBe(
      `evaluation "${id}" is not running: only a running evaluation can be given another round`,
    );
  }, 60_000);

  it('refuses a sixth round', async () => {
    process.env.CRUCIBLE_SIMULATED_LATENCY_MS = '60';
    const app = await boot();
    const seen = record(app);
    const { id } = await call(app, 'evaluations:start', { slug: IDEA, mode: 'deep', provider: 'simulated' });
    await eventually(() => progress(seen, id).some((p) => p.phase === 'DEBATING'), 'the first round', 10_000);
    const refusal = await refused(call(app, 'evaluations:addRound', { id }));
    await call(app, 'evaluations:cancel', { id });
    expect(refusal.message).toBe(
      `cannot add a round to evaluation ${id}: it may already run 5 rounds, the most any evaluation runs`,
    );
  }, 30_000);
});

describe('coverage', () => {
  it('answered every evaluation channel of the contract in this file', () => {
    expect(Object.keys(evaluationsChannels).filter((c) => !answered.has(c))).toEqual([]);
  });
});

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildDocument,
  createEvaluation,
  driveEvaluation,
  type EvaluationState,
  type FinalSynthesisDocument,
  finalSynthesisDocumentSchema,
  MODE_SETTINGS,
  type Mode,
  resumeEvaluation,
  simulateAnswer,
} from '../../evaluation';
import type { DebateRecord } from '../../engine/debate-record';
import type { EvaluationInput } from '../../evaluation/inputs';
import { type BaselineComparison, compareWithBaseline, singlePass } from '../../evaluation/live/baseline';
import { type DriveControl, driveLive, type LiveDrive, type LiveDriveOptions } from '../../evaluation/live/drive-live';
import type { EvaluationPrompts } from '../../evaluation/live/requests';
import { scriptFromInputs } from '../../evaluation/script-builder';
import { ideaFile } from '../../idea/layout';
import { recordIdProblem } from '../../idea/names';
import { type Provider, type ProviderName, providerFor } from '../debates/providers';
import { type EvaluationConfigOverrides, resolveConfig as resolveEvaluationConfig } from '../../evaluation/config';
import { planEvaluation } from '../../evaluation/plan';
import { configFromOptions, type EvaluationOptions } from '../../evaluation/options';
import { CallMeter } from '../../llm/call-meter';
import { recordCallTokens } from '../llm/call-tokens';
import { runEstimate } from '../llm/cost-preview';
import { safeWrite } from '../fs/atomic-write';
import { readTextInside } from '../fs/read-inside';
import { ulid } from '../ids';
import { currentEvaluations, ideaEvaluationState } from '../sqlite/evaluation-record-queries';
import { getIdea, getMeta, type LeaderboardRow, leaderboard, setMeta } from '../sqlite/index-sql';
import { indexLockedEvaluation } from '../sqlite/locked-evaluation-queries';
import { UserError, type Workspace } from '../workspace/workspace';
import { GENERATED_FILES, lastWrittenHash } from './generated-files';
import { developmentProgress } from './information';
import { claimRun, type HeldRun } from '../runs/run-control';
import { workspaceResources } from '../runs/run-resources';
import { evaluationInitial, evaluationPrompts } from '../../evaluation/live/entry';
import { evaluationEpisode } from '../../memory/evaluation-episode';
import { workspaceMemory } from '../memory/workspace-memory';
import {
  EvaluationLog,
  type EvaluationRunSetup,
  findUnfinished,
  readEvaluationLog,
  type StopReason,
} from './evaluation-log';

export interface PersonaRating {
  id: string;
  role: 'red-team' | 'evaluator';
  exchanges: number;
  wins: number;
  draws: number;
  losses: number;
  /** (wins + draws / 2) / exchanges. */
  winRate: number;
}

/** The most a single evaluation may spend unless told otherwise (USD). */
export const DEFAULT_EVALUATION_BUDGET = 3;

export interface EvaluationRun {
  document: FinalSynthesisDocument;
  /** With `baseline`: the single-pass scores beside the debated ones, and both costs. */
  baseline?: BaselineComparison;
  costUsd: number;
  /** The locked document's JSON: never rewritten. */
  recordPath: string;
  /** synthesis.md, evaluation.md, redteam.md: the readable documents (or their conflict copies). */
  written: string[];
  conflicts: string[];
}

/** What a host follows a run by, and how it stops one (all optional). */
export interface RunHooks {
  /** Every input as it is applied, after it is checkpointed. */
  onInput?: (input: EvaluationInput) => void;
  /** Every model call's cost, as it is paid. */
  onCall?: (costUsd: number) => void;
  /** Asked before each batch of calls: stop here (resumable), or approve the scores as they stand. */
  control?: () => DriveControl | Promise<DriveControl>;
  /** Written into the checkpoint when the run stops (default `cancelled`). */
  stopReason?: () => StopReason;
  /** When a limit would lock it now: true leaves it unlocked and resumable instead (drive-live.ts). */
  holdAtLimit?: LiveDriveOptions['holdAtLimit'];
  /** Every record its log appends, once it is on disk (a live host follows the status by them). */
  onRecords?: (records: readonly DebateRecord[]) => void;
}

export type RunOutcome =
  | { kind: 'locked'; run: EvaluationRun }
  | { kind: 'stopped'; costUsd: number }
  | { kind: 'failed'; reason: string; costUsd: number };

/** An evaluation ready to run: its id and starting state known, its checkpoint created. */
export interface PreparedRun {
  id: string;
  slug: string;
  kind: 'evaluate' | 'dispute';
  header: EvaluationRunSetup;
  /** The state the inputs fold over (a fresh evaluation, or the reopening of a locked one). */
  initial: EvaluationState;
  /** Inputs already applied before this run (a resumed checkpoint's). */
  inputs: EvaluationInput[];
  /** Money spent on it before this run (USD). */
  spentBefore: number;
  /** Drives it until it locks, fails or `control` stops it; only once. */
  run(hooks?: RunHooks): Promise<RunOutcome>;
}

export interface EvaluationEstimate {
  calls: number;
  /** Likely cost (USD): the plan's likely calls at the token table's figures. */
  usd: number;
  /** Every call the mode allows, each at its worst (USD; the budget caps it). */
  worstCalls: number;
  worstUsd: number;
  rounds: number;
  personas: string[];
  basis: string;
  /** Why the chosen provider cannot run now (no key, no server), or null. */
  cannotRun: string | null;
}

/** Inputs that answer an agent's ask (rather than start, limits or the researcher's controls). */
export function isAnswer(input: EvaluationInput): boolean {
  return ['evaluator', 'redteam', 'defense', 'arbiter', 'synthesis', 'narrative'].includes(input.kind);
}

function lockedOrThrow(outcome: RunOutcome): EvaluationRun {
  if (outcome.kind === 'locked') return outcome.run;
  if (outcome.kind === 'failed') throw new UserError(`the evaluation failed: ${outcome.reason}`);
  throw new UserError('the evaluation was stopped before it locked (resume it with evaluate --resume ID)');
}

/**
 * Runs evaluations of ideas and keeps their documents. Each locked evaluation is kept as
 * `ideas/<slug>/evaluations/<id>.json` (written once, never edited) with its inputs beside it
 * (`<id>.jsonl`, a replayable script for a full evaluation); `synthesis.md`, `evaluation.md` and
 * `redteam.md` show the current one.
 */
export class EvaluationService {
  constructor(
    private readonly ws: Workspace,
    /** Where model calls go; tests point it at the fake server. */
    private readonly providers: (name: ProviderName, workspace: string, seed: number | null) => Provider = providerFor,
  ) {}

  private idea(slug: string) {
    const idea = getIdea(this.ws.db, slug);
    if (!idea) throw new UserError(`no idea "${slug}" (see: npm run cli -- list)`);
    return idea;
  }

  private information(slug: string): { asked: number; answered: number } {
    const path = join(this.ws.root, ideaFile(slug, 'development.md'));
    return existsSync(path) ? developmentProgress(readTextInside(this.ws.root, path)) : { asked: 0, answered: 0 };
  }

  /** The idea's current locked evaluation, read from its record. */
  current(slug: string): FinalSynthesisDocument | null {
    const idea = this.idea(slug);
    const id = ideaEvaluationState(this.ws.db, slug)?.evaluationId;
    if (!id) return null;
    const path = join(this.ws.root, ideaFile(idea.slug, `evaluations/${id}.json`));
    if (!existsSync(path)) return null;
    return finalSynthesisDocumentSchema.parse(JSON.parse(readTextInside(this.ws.root, path)));
  }

  /** What the evaluation's requests are built from (its roles' personas, the idea's inputs, the taxonomy). */
  private prompts(slug: string, memory?: readonly string[]): EvaluationPrompts {
    return evaluationPrompts(slug, workspaceResources(this.ws), memory);
  }

  /** The episodes a new evaluation of `slug` carries (core/memory): the idea's first, then the most alike. */
  private memory(slug: string, title: string): { memory?: string[] } {
    const lines = workspaceMemory(this.ws.root).linesFor({ idea: slug, text: title });
    return lines.length > 0 ? { memory: lines } : {};
  }

  /** Drives an evaluation state on the chosen provider until it locks, fails or is told to stop. */
  private async drive(
    slug: string,
    state: EvaluationState,
    options: {
      provider: ProviderName;
      seed?: number;
      budgetUsd?: number;
      concurrency?: number;
      spentBefore?: number;
      progress?: EvaluationLog;
      timeLimitMs?: number;
      hooks?: RunHooks;
      memory?: readonly string[];
    },
  ): Promise<{ drive: LiveDrive; provider: Provider }> {
    const provider = this.providers(options.provider, this.ws.root, options.seed ?? 1);
    const progress = options.progress;
    const hooks = options.hooks ?? {};
    const meter = new CallMeter();
    const drive = await driveLive(state, {
      llm: meter.wrap(provider.llm),
      prompts: this.prompts(slug, options.memory),
      concurrency: options.concurrency ?? 6,
      now: () => new Date().toISOString(),
      budgetUsd: options.budgetUsd ?? DEFAULT_EVALUATION_BUDGET,
      estimateUsd: provider.estimate,
      ...(options.spentBefore !== undefined ? { spentBefore: options.spentBefore } : {}),
      ...(options.timeLimitMs !== undefined ? { timeLeftMs: options.timeLimitMs } : {}),
      ...(hooks.control ? { control: hooks.control } : {}),
      ...(hooks.holdAtLimit ? { holdAtLimit: hooks.holdAtLimit } : {}),
      ...(progress ? { append: progress.append } : {}),
      onInput: (input) => hooks.onInput?.(input),
      onCall: (call) => hooks.onCall?.(call.costUsd),
    });
    // What each kind of call took feeds the next estimate (a simulated run measures nothing).
    if (options.provider !== 'simulated') recordCallTokens(this.ws.root, meter.observations('evaluation', state.mode));
    return { drive, provider };
  }

  /**
   * A new evaluation of an idea, ready to run: its id, setup and checkpoint exist; `run` drives it.
   * Mistakes in what was asked (no such idea) throw here, before anything runs.
   */
  prepareEvaluation(
    slug: string,
    options: {
      mode: Mode;
      provider: ProviderName;
      seed?: number;
      budgetUsd?: number;
      timeLimitMs?: number;
      concurrency?: number;
      /** The researcher's debate options; they become the setup's config, so a resume keeps them. */
      options?: EvaluationOptions;
    },
  ): PreparedRun {
    const idea = this.idea(slug);
    const previous = this.current(slug);
    const config = configFromOptions(options.options ?? {});
    const setup = {
      evaluationId: ulid().toLowerCase(),
      ...(Object.keys(config).length > 0 ? { config } : {}),
      idea: { id: idea.id, title: idea.title },
      mode: options.mode,
      contentHash: idea.contentHash,
      information: this.information(slug),
      startedAt: new Date().toISOString(),
      supersedes: previous?.evaluationId ?? null,
    };
    // The provider is made once here so that a missing key is reported before anything is created.
    this.providers(options.provider, this.ws.root, options.seed ?? 1);
    const header: EvaluationRunSetup = {
      slug: idea.slug,
      setup,
      provider: options.provider,
      seed: options.seed ?? 1,
      budgetUsd: options.budgetUsd ?? DEFAULT_EVALUATION_BUDGET,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...this.memory(idea.slug, idea.title),
    };
    return this.holding(setup.evaluationId, (held) => {
      const progress = EvaluationLog.create(this.ws.root, this.ws.db, header, held.confirm);
      return this.prepared(
        held,
        header,
        createEvaluation(setup, this.ws.taxonomy),
        [],
        0,
        progress,
        options.timeLimitMs,
      );
    });
  }

  /**
   * An evaluation that was interrupted (cancelled, the app closed, the process killed) or failed,
   * ready to continue from its checkpoint: the inputs so far rebuild the state and the money spent so
   * far counts against the budget; a failed one is retried from the start (FAILED → PENDING).
   */
  prepareResume(id: string): PreparedRun {
    const problem = recordIdProblem(id, 'evaluation');
    if (problem !== null) throw new UserError(`--resume "${id}" ${problem}`);
    const path = findUnfinished(this.ws.root, id);
    if (!path)
      throw new UserError(
        `no interrupted or failed evaluation "${id}" (a finished one has its record in evaluations/${id}.json)`,
      );
    // Held before the checkpoint is read: what a live owner is writing now is no basis for a resume.
    return this.holding(id, (held) => {
      const { run: header, inputs, spentUsd } = readEvaluationLog(this.ws.root, path);
      const initial = this.initialState(header);
      const { state } = resumeEvaluation(initial, inputs);
      const progress = EvaluationLog.reopen(this.ws.root, this.ws.db, path, held.confirm);
      if (state.phase === 'FAILED') {
        // The failure stays in the log; the retry starts over.
        const retry: EvaluationInput = { kind: 'retry', at: new Date().toISOString() };
        progress.input(retry);
        inputs.push(retry);
      }
      return this.prepared(held, header, initial, inputs, spentUsd, progress);
    });
  }

  /**
   * One targeted round on a disputed criterion, ready to run; the locked evaluation it reopens is
   * left as it is. A reason under 50 characters or an unknown criterion throws here.
   */
  prepareDispute(
    slug: string,
    criterion: string,
    reason: string,
    options: { seed?: number; provider?: ProviderName; budgetUsd?: number; concurrency?: number } = {},
  ): PreparedRun {
    const locked = this.current(slug);
    if (!locked)
      throw new UserError(`"${slug}" has no locked evaluation to dispute (run: npm run cli -- evaluate ${slug})`);
    if (!this.ws.taxonomy.criteria.some((c) => c.id === criterion)) {
      throw new UserError(
        `unknown criterion "${criterion}" (one of ${this.ws.taxonomy.criteria.map((c) => c.id).join(', ')})`,
      );
    }
    const provider = options.provider ?? 'simulated';
    const header: EvaluationRunSetup = {
      slug,
      setup: {
        evaluationId: ulid().toLowerCase(),
        idea: { id: locked.ideaId, title: locked.ideaTitle },
        mode: locked.mode,
        contentHash: locked.contentHashAtEvaluation,
        information: locked.information,
        startedAt: new Date().toISOString(),
        supersedes: locked.evaluationId,
      },
      provider,
      seed: options.seed ?? 1,
      budgetUsd: options.budgetUsd ?? DEFAULT_EVALUATION_BUDGET,
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      reopen: { from: locked.evaluationId, criterion, reason },
      ...this.memory(slug, locked.ideaTitle),
    };
    const initial = this.initialState(header);
    this.providers(provider, this.ws.root, header.seed);
    return this.holding(header.setup.evaluationId, (held) => {
      const progress = EvaluationLog.create(this.ws.root, this.ws.db, header, held.confirm);
      return this.prepared(held, header, initial, [], 0, progress);
    });
  }

  /**
   * Holds evaluation `id` for this process (run-control.ts: one writer per run) while `prepare`
   * makes its run; the run releases it when it ends, a preparation that fails at once.
   */
  private holding(id: string, prepare: (held: HeldRun) => PreparedRun): PreparedRun {
    const held = claimRun(this.ws.root, this.ws.db, id, 'evaluation');
    try {
      return prepare(held);
    } catch (error) {
      held.release();
      throw error;
    }
  }

  /** The state a checkpoint's inputs fold over: a fresh evaluation, or the reopening of a locked one. */
  initialState(header: EvaluationRunSetup): EvaluationState {
    try {
      return evaluationInitial(header, workspaceResources(this.ws));
    } catch (error) {
      // A missing or damaged record of the disputed evaluation is the researcher's to fix, in words.
      throw new UserError((error as Error).message);
    }
  }

  private prepared(
    held: HeldRun,
    header: EvaluationRunSetup,
    initial: EvaluationState,
    inputs: EvaluationInput[],
    spentBefore: number,
    progress: EvaluationLog,
    timeLimitMs?: number,
  ): PreparedRun {
    let started = false;
    const run = async (hooks: RunHooks = {}): Promise<RunOutcome> => {
      if (started) throw new Error(`evaluation ${header.setup.evaluationId} is already running`);
      started = true;
      try {
        return await runHeld(hooks);
      } finally {
        held.release();
      }
    };
    const runHeld = async (hooks: RunHooks): Promise<RunOutcome> => {
      if (hooks.onRecords) progress.listen(hooks.onRecords);
      const { state } = resumeEvaluation(initial, inputs);
      // Another process (`evaluations stop|approve ID`) may ask too; its request waits for the next
      // batch like the app's own buttons, and a stop it asked for is a cancel.
      let asked: 'stop' | 'approve' | 'add_round' | null = null;
      held.follow((action) => {
        if (action === 'stop' || action === 'approve' || action === 'add_round') asked = action;
      });
      const control = async (): Promise<DriveControl> => {
        const own = hooks.control ? await hooks.control() : null;
        if (own) return own;
        const taken = asked;
        asked = null;
        return taken;
      };
      let drive: LiveDrive;
      try {
        ({ drive } = await this.drive(header.slug, state, {
          provider: header.provider as ProviderName,
          seed: header.seed,
          budgetUsd: header.budgetUsd,
          ...(header.concurrency !== undefined ? { concurrency: header.concurrency } : {}),
          ...(header.memory ? { memory: header.memory } : {}),
          spentBefore,
          progress,
          hooks: { ...hooks, control },
          ...(timeLimitMs !== undefined ? { timeLimitMs } : {}),
        }));
      } catch (error) {
        progress.close();
        throw error;
      }
      if (drive.stopped) {
        progress.stop(hooks.stopReason?.() ?? 'cancelled');
        return { kind: 'stopped', costUsd: drive.costUsd };
      }
      if (drive.state.phase === 'FAILED') {
        progress.close();
        return { kind: 'failed', reason: drive.state.failure ?? 'unknown reason', costUsd: drive.costUsd };
      }
      const all = [...inputs, ...drive.inputs];
      const log = header.reopen
        ? `${[
            {
              type: 'reopen',
              from: header.reopen.from,
              trigger: { kind: 'dispute', criterion: header.reopen.criterion, reason: header.reopen.reason },
              provider: header.provider,
              costUsd: drive.costUsd,
            },
            ...all,
          ]
            .map((l: object) => JSON.stringify(l))
            .join('\n')}\n`
        : this.script(header.setup, header.provider, all, {
            costUsd: drive.costUsd,
            budgetUsd: header.budgetUsd,
            seed: header.seed,
          });
      // The record is this run's to write too: not after another process took the evaluation over.
      held.confirm();
      // The episode goes first: a kill before the record leaves the run to resume, and finishing
      // again writes its episode no second time (one line per evaluation id).
      const episode = evaluationEpisode(header.slug, drive.state);
      if (episode) workspaceMemory(this.ws.root).record('evaluation', header.setup.evaluationId, episode);
      const kept = this.keep(header.slug, buildDocument(drive.state), log, drive.costUsd);
      progress.close();
      return { kind: 'locked', run: kept };
    };
    return {
      id: header.setup.evaluationId,
      slug: header.slug,
      kind: header.reopen ? 'dispute' : 'evaluate',
      header,
      initial,
      inputs: [...inputs],
      spentBefore,
      run,
    };
  }

  async evaluate(
    slug: string,
    options: {
      mode: Mode;
      provider: ProviderName;
      seed?: number;
      budgetUsd?: number;
      baseline?: boolean;
      timeLimitMs?: number;
      options?: EvaluationOptions;
    },
  ): Promise<EvaluationRun> {
    const prepared = this.prepareEvaluation(slug, options);
    const run = lockedOrThrow(await prepared.run());
    if (!options.baseline) return run;
    const { setup } = prepared.header;
    const provider = this.providers(options.provider, this.ws.root, prepared.header.seed);
    const single = await singlePass(
      createEvaluation({ ...setup, evaluationId: `${setup.evaluationId}-baseline` }, this.ws.taxonomy),
      {
        llm: provider.llm,
        prompts: this.prompts(slug),
        now: () => new Date().toISOString(),
      },
    );
    const baseline = compareWithBaseline(
      run.document,
      { scores: single.scores, costUsd: single.calls.reduce((a, c) => a + c.costUsd, 0) },
      run.costUsd,
    );
    return { ...run, baseline };
  }

  /** A full evaluation's replay script (`<id>.jsonl`): its setup, then every input, in order. */
  script(
    setup: {
      idea: { id: string; title: string };
      mode: Mode;
      contentHash: string;
      information?: { asked: number; answered: number };
      evaluationId: string;
      startedAt?: string;
      config?: EvaluationConfigOverrides;
    },
    provider: string,
    inputs: readonly EvaluationInput[],
    extra: { costUsd: number; budgetUsd: number; seed: number },
  ): string {
    return scriptFromInputs(
      {
        type: 'evaluation',
        idea: setup.idea,
        mode: setup.mode,
        contentHash: setup.contentHash,
        information: setup.information,
        evaluationId: setup.evaluationId,
        startedAt: setup.startedAt,
        // The options it ran under, so `evaluate --replay` of this script runs under them too.
        ...(setup.config ? { config: setup.config } : {}),
        provider,
        ...extra,
      },
      inputs,
    );
  }

  /**
   * Continues an evaluation that was interrupted (the process killed, the machine off) from its
   * checkpoint: the inputs so far rebuild the state, the money spent so far counts against the budget.
   */
  async resume(id: string): Promise<EvaluationRun> {
    return lockedOrThrow(await this.prepareResume(id).run());
  }

  /** One targeted round on a disputed criterion; the locked evaluation it reopens is left as it is. */
  async dispute(
    slug: string,
    criterion: string,
    reason: string,
    options: { seed?: number; provider?: ProviderName } = {},
  ): Promise<EvaluationRun> {
    return lockedOrThrow(await this.prepareDispute(slug, criterion, reason, options).run());
  }

  /** A locked evaluation's record (`ideas/<slug>/evaluations/<id>.json`), or null. */
  record(slug: string, id: string): FinalSynthesisDocument | null {
    const path = join(this.ws.root, ideaFile(slug, `evaluations/${id}.json`));
    if (!existsSync(path)) return null;
    return finalSynthesisDocumentSchema.parse(JSON.parse(readTextInside(this.ws.root, path)));
  }

  /**
   * What an evaluation will cost before it starts: the evaluation plan for this mode and taxonomy
   * (calls per kind, likely and at worst), priced from the model table for the provider with the
   * workspace's token table. It needs no key; `cannotRun` says why the provider could not run now.
   */
  estimate(slug: string, options: { mode: Mode; provider: ProviderName; budgetUsd?: number }): EvaluationEstimate {
    const idea = this.idea(slug);
    const settings = MODE_SETTINGS[options.mode];
    const { categories } = createEvaluation(
      {
        evaluationId: 'estimate',
        idea: { id: idea.id, title: idea.title },
        mode: options.mode,
        contentHash: idea.contentHash,
      },
      this.ws.taxonomy,
    );
    const plan = planEvaluation({
      mode: options.mode,
      config: resolveEvaluationConfig(options.mode),
      categories: categories.length,
      redTeam: settings.personas.length,
    });
    const estimate = runEstimate(this.ws.root, plan, options.provider, options.budgetUsd, () =>
      this.providers(options.provider, this.ws.root, 1),
    );
    return { ...estimate, rounds: settings.rounds, personas: [...settings.personas] };
  }

  /** Answers a simulated continuation of `state` would take: how much work is left, roughly. */
  remainingAsks(state: EvaluationState): number {
    if (state.phase === 'LOCKED') return 0;
    try {
      const copy = JSON.parse(JSON.stringify(state)) as EvaluationState;
      if (copy.phase === 'FAILED') return 0;
      return driveEvaluation(copy, (ask, s) => simulateAnswer(1, ask, s)).inputs.filter((i) => isAnswer(i)).length;
    } catch {
      return 0;
    }
  }

  leaderboard(): LeaderboardRow[] {
    return leaderboard(this.ws.db);
  }

  /**
   * Agents ranked by what the arbiter decided: red-team personas by the challenges they won, the
   * evaluators (by category) by the challenges they defended. Counted over each idea's current
   * evaluation only, read from its record, so a superseded evaluation is never counted twice.
   */
  personaRatings(): PersonaRating[] {
    const rows = currentEvaluations(this.ws.db);
    const tally = new Map<string, PersonaRating>();
    const entry = (id: string, role: PersonaRating['role']) => {
      const known = tally.get(id);
      if (known) return known;
      const fresh: PersonaRating = { id, role, exchanges: 0, wins: 0, draws: 0, losses: 0, winRate: 0 };
      tally.set(id, fresh);
      return fresh;
    };
    for (const row of rows) {
      const path = join(this.ws.root, ideaFile(row.slug, `evaluations/${row.evaluationId}.json`));
      if (!existsSync(path)) continue;
      const doc = finalSynthesisDocumentSchema.safeParse(JSON.parse(readTextInside(this.ws.root, path)));
      if (!doc.success) continue;
      for (const c of doc.data.auditTrail.conflicts) {
        if (!c.ruling) continue;
        const red = entry(c.persona, 'red-team');
        const blue = entry(`evaluator-${c.category}`, 'evaluator');
        red.exchanges++;
        blue.exchanges++;
        if (c.ruling.winner === 'DRAW') {
          red.draws++;
          blue.draws++;
        } else if (c.ruling.winner === 'RED_TEAM') {
          red.wins++;
          blue.losses++;
        } else {
          blue.wins++;
          red.losses++;
        }
      }
    }
    return [...tally.values()]
      .map((t) => ({
        ...t,
        winRate: t.exchanges ? Math.round(((t.wins + t.draws / 2) / t.exchanges) * 10_000) / 10_000 : 0,
      }))
      .sort((a, b) => b.winRate - a.winRate || b.exchanges - a.exchanges || (a.id < b.id ? -1 : 1));
  }

  private keep(slug: string, document: FinalSynthesisDocument, inputsLog: string, costUsd: number): EvaluationRun {
    const now = new Date();
    const base = ideaFile(slug, `evaluations/${document.evaluationId}`);
    // The record goes last: it is what says the evaluation is kept. A process killed before it
    // leaves a run to resume, which keeps it again: the script and the documents it wrote already
    // are found as they were written (the same bytes), and only then is the record created.
    const script = inputsLog.endsWith('\n') ? inputsLog : `${inputsLog}\n`;
    if (!sameText(this.ws.root, `${base}.jsonl`, script)) safeWrite(this.ws.root, `${base}.jsonl`, script, null, now);
    const written: string[] = [];
    const conflicts: string[] = [];
    for (const [name, render] of GENERATED_FILES) {
      const rel = ideaFile(slug, name);
      const key = `written:${rel}`;
      // The app's own file is replaced when it still holds what the app last wrote (by the index's
      // record, or by the idea's locked records when the index was rebuilt); a file the researcher
      // edited is kept, and the new one goes beside it.
      const expected = lastWrittenHash(this.ws.root, slug, name, render, getMeta(this.ws.db, key));
      const outcome = safeWrite(this.ws.root, rel, render(document), expected, now);
      if (outcome.conflict) conflicts.push(outcome.path);
      else setMeta(this.ws.db, key, outcome.hash);
      written.push(outcome.path);
    }
    // The record of a locked evaluation is created once and never replaced.
    const record = safeWrite(this.ws.root, `${base}.json`, `${JSON.stringify(document, null, 2)}\n`, null, now);
    this.index(document);
    this.ws.syncSlugs([slug]);
    return { document, costUsd, recordPath: record.path, written, conflicts };
  }

  /** Rows for queries: the evaluation, its score trajectory and its challenges. */
  private index(doc: FinalSynthesisDocument): void {
    const categoryOf = new Map(doc.scores.map((s) => [s.criterion, s]));
    const scores = doc.auditTrail.scoreTrajectory.flatMap((t) => {
      const s = categoryOf.get(t.criterion);
      return t.scores.map((value, round) => ({
        round,
        criterion: t.criterion,
        category: s?.category ?? '',
        score: Math.round(value),
        confidence: s?.confidence ?? 0,
      }));
    });
    const challenges = doc.auditTrail.conflicts.map((c) => ({
      round: c.round,
      persona: c.persona,
      criterion: c.criterion,
      severity: c.severity,
      challenge: c.challenge,
      response: c.defense,
      outcome: c.ruling?.winner ?? null,
      loggedAt: doc.completedAt,
    }));
    indexLockedEvaluation(
      this.ws.db,
      {
        id: doc.evaluationId,
        ideaId: doc.ideaId,
        mode: doc.mode,
        startedAt: doc.startedAt,
        completedAt: doc.completedAt,
        rounds: doc.rounds,
        lockReason: doc.lockReason,
        contentHashAtEvaluation: doc.contentHashAtEvaluation,
        overallScore: doc.composites.overallScore,
        overallConfidence: doc.composites.overallConfidence,
        redTeamSurvival: doc.composites.redTeamSurvivalRate,
        supersedes: doc.supersedes,
      },
      scores,
      challenges,
    );
  }
}

/** Whether the workspace file `rel` holds exactly `text` (false when it is absent or unreadable). */
function sameText(root: string, rel: string, text: string): boolean {
  try {
    return readTextInside(root, rel) === text;
  } catch {
    return false;
  }
}

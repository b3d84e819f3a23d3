import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { DebaterPersona, Persona } from '../../personas/persona';
import { topClaimFor, topClaimOnIdea } from '../../personas/persona';
import type { DebateSubject } from '../../crux/live/subject';
import { findPersonas } from '../../personas/find';
import type { AgentSpec, DebateHeader, DebateLimits, DebateRecord } from '../../engine/debate-record';
import { type CruxEngineDeps, CruxEngine, type CruxOutcome } from '../../engine/crux-engine';
import { renderTranscript } from '../../crux/transcript-md';
import type { Llm } from '../../ports/llm';
import { safeWrite } from '../fs/atomic-write';
import { recordIdProblem } from '../../idea/names';
import { readTextInside } from '../fs/read-inside';
import { ulid } from '../ids';
import { loadPersonas } from '../personas/load-personas';
import { parseMarkdown } from '../markdown';
import { getIdea, getMeta, ideaFiles, setMeta } from '../sqlite/index-sql';
import { cruxRunLogPath, type CruxRunListing, listCruxRuns, runResultJson, setRunResult } from '../sqlite/run-queries';
import { UserError, type Workspace } from '../workspace/workspace';
import { DebateJournal, debateLogPath, indexRunLogs, lastStatus, readDebateLog } from './journal';
import { readBaseline, writeBaseline } from './baseline-file';
import {
  BASELINE_KIND,
  type Baseline,
  type BaselineComparison,
  compareBaseline,
  runBaseline,
} from '../../crux/live/baseline';
import { subjectOrTopic } from '../../crux/live/subject';
import type { CruxResult } from '../../crux/result';
import { type Provider, type ProviderFactory, type ProviderName, providerFor } from './providers';
import { configOverridesSchema, resolveConfig } from '../../crux/config';
import { configForAgents } from '../../crux/scale';
import { planCrux } from '../../crux/plan';
import { CallMeter } from '../../llm/call-meter';
import { recordCallTokens } from '../llm/call-tokens';
import { runEstimate } from '../llm/cost-preview';
import type { CallPlan } from '../../engine/cost-plan';
import { ENDED_STATUSES } from '../../engine/protocol';
import { claimRun, type HeldRun, type RunAction } from '../runs/run-control';
import { workspaceResources } from '../runs/run-resources';
import { cruxPrompts } from '../../crux/live/entry';
import { cruxEpisode } from '../../memory/crux-episode';
import { workspaceMemory } from '../memory/workspace-memory';

export const DEFAULT_LIMITS: DebateLimits = {
  maxMessages: 200,
  maxDurationMs: 30 * 60 * 1000,
  budgetUsd: 2,
  stagnationTurns: 12,
  concurrency: 4,
};

export interface StartOptions {
  ideaSlug?: string;
  topic?: string;
  agents: string[];
  provider: ProviderName;
  seed?: number;
  limits?: Partial<DebateLimits>;
  config?: Record<string, unknown>;
  /** The single pass will be set beside it once it ends (`baseline`): its calls are in the estimate. */
  baseline?: boolean;
}

export interface DebateEstimate {
  /** Likely calls and cost (USD). */
  calls: number;
  usd: number;
  /** Every call the config and limits allow, each at its worst (USD; the budget caps it). */
  worstCalls: number;
  worstUsd: number;
  /** How the figure was reached, for the researcher. */
  basis: string;
  /** Why the chosen provider cannot run (no key, no server), or null. */
  cannotRun: string | null;
}

export interface DebateRun {
  id: string;
  provider: string;
  seed: number | null;
  logPath: string;
  transcriptPath: string;
  outcome: CruxOutcome;
}

/**
 * The agent an engine debates with, built from a debater persona and what the debate is about: on an
 * idea its top claim is drawn from the idea's summary, on a topic from the persona's template.
 */
export function agentFrom(persona: DebaterPersona, subject: string | DebateSubject): AgentSpec {
  const side = persona.side ?? 'UNCERTAIN';
  const about: DebateSubject = typeof subject === 'string' ? { kind: 'topic', text: subject } : subject;
  const statement =
    about.kind === 'idea' && about.summary.trim() !== ''
      ? topClaimOnIdea(side, about.summary)
      : topClaimFor(persona, about.kind === 'idea' ? about.title : about.text);
  return {
    id: persona.id,
    name: persona.name,
    persona: persona.id,
    topClaim: { statement, side, confidence: 0.7 },
    defaultHorizon: persona.defaultHorizon,
    interests: persona.interests,
    tier: persona.tier,
  };
}

/**
 * A topic may be a paragraph; the debate's name (lists, the first thread, the transcript's title) is
 * its first line, cut at a word. The agents read the whole paragraph as the debate's subject.
 */
export function topicLine(topic: string): string {
  const first = topic.trim().split('\n')[0]?.trim() ?? '';
  if (first.length <= 160) return first;
  const cut = first.slice(0, 160);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 80))}…`;
}

/** The single pass's calls: one `crux_baseline` per agent, at the agent's tier, on the debate's provider. */
function baselinePlan(header: DebateHeader): CallPlan {
  const n = header.agents.length;
  return {
    protocol: 'crux',
    size: n,
    calls: header.agents.map((a) => ({ kind: BASELINE_KIND, likely: 1, worst: 1, tier: a.tier })),
    basis: `one call per agent, alone (${n} agents), on the debate's provider`,
  };
}

/**
 * Starts, resumes and lists crux debates in a workspace: the composition of the engine with the
 * personas, a model provider and the journal.
 */
export class DebateService {
  /** Logs in the folder that the index could not take in (shown by `debates list`). */
  logErrors: { file: string; reason: string }[];

  constructor(
    private readonly ws: Workspace,
    private readonly providers: ProviderFactory = providerFor,
  ) {
    // The index is derived: debates found in the folder but not in it (a rebuilt index) come back.
    this.logErrors = indexRunLogs(ws.root, ws.db).errors;
  }

  /**
   * Reads every debate log in the folder, the indexed ones too, and returns (and keeps) those that
   * are damaged, by file and line: what a full sync and `workspace:errors` report.
   */
  checkLogs(): { file: string; reason: string }[] {
    this.logErrors = indexRunLogs(this.ws.root, this.ws.db, { verifyKnown: true }).errors;
    return this.logErrors;
  }

  private personas() {
    return loadPersonas(this.ws.root);
  }

  private deps(
    header: DebateHeader,
    journal: DebateJournal,
    llm: Llm,
    estimate: CruxEngineDeps['estimateCostUsd'],
  ): CruxEngineDeps {
    const { personas, crystallizer } = cruxPrompts(header, workspaceResources(this.ws));
    return {
      llm,
      sink: journal,
      personas,
      crystallizer,
      estimateCostUsd: estimate,
      now: () => Date.now(),
      // Between rounds the app gets the event loop back (a simulated debate has no waiting of its own).
      yieldControl: () => new Promise<void>((resolve) => setImmediate(resolve)),
    };
  }

  /**
   * What a debate will cost before it starts: the crux plan for these agents, config and limits (calls
   * per kind, likely and at worst), priced from the model table for the provider with the workspace's
   * token table. It needs no key; `cannotRun` is filled in by `start` when the provider cannot run.
   */
  estimate(header: DebateHeader, provider: ProviderName, withBaseline = false): DebateEstimate {
    const plan = planCrux({
      config: resolveConfig(header.config),
      agents: header.agents.map((a) => a.tier),
      maxMessages: header.limits.maxMessages,
    });
    if (!withBaseline) return runEstimate(this.ws.root, plan, provider, header.limits.budgetUsd);
    // The budget bounds the debate alone: the single pass comes after it, on top.
    const debate = runEstimate(this.ws.root, plan, provider, header.limits.budgetUsd);
    const single = runEstimate(this.ws.root, baselinePlan(header), provider, undefined);
    return {
      calls: debate.calls + single.calls,
      usd: Math.round((debate.usd + single.usd) * 10_000) / 10_000,
      worstCalls: debate.worstCalls + single.worstCalls,
      worstUsd: Math.round((debate.worstUsd + single.worstUsd) * 10_000) / 10_000,
      basis: `${debate.basis}; then the single pass: ${single.basis}`,
      cannotRun: null,
    };
  }

  async start(
    options: StartOptions,
    hooks: {
      onEngine?: (engine: CruxEngine) => void;
      onEstimate?: (estimate: DebateEstimate) => void;
      /** What every agent will read as the debate's subject, before any call is made. */
      onSubject?: (subject: DebateSubject) => void;
      /** Every record its log appends, once it is on disk (a live host follows the status by them). */
      onRecords?: (records: DebateRecord[]) => void;
    } = {},
  ): Promise<DebateRun> {
    if (options.agents.length < 2 || options.agents.length > 12)
      throw new UserError('a crux debate needs 2 to 12 agents (--agents a,b,…)');
    let topic = options.topic?.trim() ?? '';
    let ideaSlug: string | null = null;
    let subject: DebateSubject | null = topic === '' ? null : { kind: 'topic', text: topic };
    if (options.ideaSlug) {
      const idea = getIdea(this.ws.db, options.ideaSlug);
      if (!idea) throw new UserError(`no idea "${options.ideaSlug}" (see: npm run cli -- list)`);
      ideaSlug = idea.slug;
      // The agents read the idea itself; a topic given beside it only names the debate.
      subject = {
        kind: 'idea',
        slug: idea.slug,
        title: idea.title,
        summary: idea.summary,
        body: this.readme(idea.slug),
      };
      topic = topic || idea.title;
    }
    if (topic === '' || subject === null) throw new UserError('a debate needs --idea SLUG or --topic "…"');
    // Earlier runs' episodes ride with the subject (kept in the header, so a resume reads the same).
    const memory = workspaceMemory(this.ws.root).linesFor({ idea: ideaSlug, text: topic });
    if (memory.length > 0) subject = { ...subject, memory };
    const loaded = this.personas();
    let chosen: Persona[];
    try {
      chosen = findPersonas(options.agents, loaded);
    } catch (error) {
      throw new UserError((error as Error).message);
    }
    const notDebaters = chosen.filter((p) => p.role !== 'debater').map((p) => p.id);
    if (notDebaters.length > 0)
      throw new UserError(`not crux debaters: ${notDebaters.join(', ')} (use personas with role: debater)`);
    const seed = options.seed ?? (options.provider === 'simulated' ? 1 : null);
    const config = configOverridesSchema.safeParse(options.config ?? {});
    if (!config.success) {
      const issue = config.error.issues[0];
      throw new UserError(`config.${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'not a protocol config'}`);
    }
    const header: DebateHeader = {
      id: ulid().toLowerCase(),
      protocol: 'crux',
      topic: topicLine(topic),
      ideaSlug,
      subject,
      agents: (chosen as DebaterPersona[]).map((p) => agentFrom(p, subject)),
      // Budgets grow with the agents (core/crux/scale.ts); the header keeps them, so the log reads
      // the same whatever the defaults later become.
      config: configForAgents(chosen.length, config.data),
      provider: options.provider,
      seed,
      limits: { ...DEFAULT_LIMITS, ...options.limits },
      createdAt: new Date().toISOString(),
    };
    hooks.onSubject?.(subject);
    // The estimate comes first: it is what a researcher without a key yet still wants to see.
    const estimate = this.estimate(header, options.provider, options.baseline === true);
    let provider: Provider;
    try {
      provider = this.providers(options.provider, this.ws.root, seed);
    } catch (error) {
      if (error instanceof UserError) hooks.onEstimate?.({ ...estimate, cannotRun: error.message });
      throw error;
    }
    hooks.onEstimate?.(estimate);
    const held = claimRun(this.ws.root, this.ws.db, header.id, 'debate');
    try {
      const journal = DebateJournal.create(this.ws.root, this.ws.db, header, hooks.onRecords, held.confirm);
      const meter = new CallMeter();
      try {
        const engine = CruxEngine.start(
          header,
          this.deps(header, journal, meter.wrap(provider.llm), provider.estimate),
          {
            topic: header.topic,
          },
        );
        hooks.onEngine?.(engine);
        return await this.runFollowed(held, header, journal, engine, meter);
      } finally {
        journal.close();
      }
    } finally {
      held.release();
    }
  }

  /** The body of an idea's README, as the agents read it (empty when it cannot be read). */
  private readme(slug: string): string {
    const file = ideaFiles(this.ws.db, slug).find((f) => f.kind === 'readme');
    if (!file) return '';
    try {
      return parseMarkdown(readTextInside(this.ws.root, file.path)).body.trim();
    } catch {
      // An unreadable README is reported by sync; the agents still get the title and summary.
      return '';
    }
  }

  /** Continues an interrupted (or paused) debate from its log. */
  async resume(
    id: string,
    hooks: { onEngine?: (engine: CruxEngine) => void; onRecords?: (records: DebateRecord[]) => void } = {},
  ): Promise<DebateRun> {
    const rel = this.logPathOf(id);
    // Held before the log is even read: what a live owner is writing now is no basis for a resume.
    const held = claimRun(this.ws.root, this.ws.db, id, 'debate');
    try {
      const { journal, records } = DebateJournal.resume(this.ws.root, this.ws.db, rel, hooks.onRecords, held.confirm);
      try {
        const header = (records[0] as Extract<DebateRecord, { type: 'debate_created' }>).header;
        const provider = this.providers(header.provider as ProviderName, this.ws.root, header.seed);
        const meter = new CallMeter();
        const engine = CruxEngine.resume(
          records,
          this.deps(header, journal, meter.wrap(provider.llm), provider.estimate),
        );
        hooks.onEngine?.(engine);
        return await this.runFollowed(held, header, journal, engine, meter);
      } finally {
        journal.close();
      }
    } finally {
      held.release();
    }
  }

  /**
   * Runs the engine to its end while other processes may pause, resume or stop it
   * (runs/run-control.ts): the CLI in another terminal reaches a debate the app or a CLI runs.
   */
  private async runFollowed(
    held: HeldRun,
    header: DebateHeader,
    journal: DebateJournal,
    engine: CruxEngine,
    meter: CallMeter,
  ): Promise<DebateRun> {
    const apply: Partial<Record<RunAction, () => void>> = {
      pause: () => engine.pause(),
      resume: () => engine.resume(),
      stop: () => engine.cancel(),
    };
    held.follow((action) => apply[action]?.());
    const outcome = await engine.run();
    // What each kind of call took feeds the next estimate (a simulated debate measures nothing).
    if (header.provider !== 'simulated')
      recordCallTokens(this.ws.root, meter.observations('crux', header.agents.length));
    // The transcript is this run's to write too: not after another process took the debate over.
    held.confirm();
    return this.finish(header, journal, engine, outcome);
  }

  private finish(header: DebateHeader, journal: DebateJournal, engine: CruxEngine, outcome: CruxOutcome): DebateRun {
    // One line per debate id: a completed debate finished again (resumed after a kill) adds nothing.
    if (outcome.status === 'completed')
      workspaceMemory(this.ws.root).record('crux', header.id, cruxEpisode(header, engine.currentState));
    const transcriptPath = journal.relPath.replace(/\.jsonl$/, '.md');
    const text = this.transcriptOf(header, engine, outcome);
    // The transcript is the app's file; it is replaced as a whole (a hand-edited one is kept aside).
    const abs = join(this.ws.root, transcriptPath);
    const previous = existsSync(abs) ? getMeta(this.ws.db, `transcript:${header.id}`) : null;
    const written = safeWrite(this.ws.root, transcriptPath, text, existsSync(abs) ? (previous ?? 'unknown') : null);
    if (!written.conflict) setMeta(this.ws.db, `transcript:${header.id}`, written.hash);
    setRunResult(this.ws.db, header.id, JSON.stringify(outcome.result));
    return {
      id: header.id,
      provider: header.provider,
      seed: header.seed,
      logPath: journal.relPath,
      transcriptPath: written.path,
      outcome,
    };
  }

  /**
   * The single pass a debate is measured against (`debate --baseline`): each of its agents asked
   * once, alone, on the same subject and provider (the simulator with the debate's seed). Stored
   * beside the log, replacing an earlier one, and returned beside the debate's result.
   */
  async baseline(id: string): Promise<{ baseline: Baseline; comparison: BaselineComparison }> {
    const { rel, header } = this.endedDebate(id);
    const provider = this.providers(header.provider as ProviderName, this.ws.root, header.seed);
    const prompts = cruxPrompts(header, workspaceResources(this.ws)).personas;
    const meter = new CallMeter();
    const baseline = await runBaseline(meter.wrap(provider.llm), {
      subject: subjectOrTopic(header.subject, header.topic),
      topic: header.topic,
      agents: header.agents.map((a) => {
        const prompt = prompts.get(a.id) as NonNullable<ReturnType<typeof prompts.get>>;
        return { id: a.id, name: a.name, systemPrompt: prompt.systemPrompt, tier: prompt.tier, topClaim: a.topClaim };
      }),
      now: () => Date.now(),
    });
    // What the single pass took feeds its next estimate, as a debate's calls feed the debate's.
    if (header.provider !== 'simulated')
      recordCallTokens(this.ws.root, meter.observations('crux', header.agents.length));
    writeBaseline(this.ws.root, rel, baseline);
    return { baseline, comparison: compareBaseline(baseline, this.show(id).result as CruxResult) };
  }

  /**
   * What `baseline` would cost, before it runs: one `crux_baseline` call per agent, on the debate's
   * own provider, priced as every preview is. `cannotRun` says why that provider cannot run now.
   */
  baselineEstimate(id: string): DebateEstimate {
    const { header } = this.endedDebate(id);
    const provider = header.provider as ProviderName;
    return runEstimate(this.ws.root, baselinePlan(header), provider, undefined, () => {
      this.providers(provider, this.ws.root, header.seed);
    });
  }

  /**
   * A debate a single pass can be set beside: one that has ended, so there is a result to compare
   * with (a running or paused one would be measured against a result still moving).
   */
  private endedDebate(id: string): { rel: string; header: DebateHeader } {
    const rel = this.logPathOf(id);
    const { records } = readDebateLog(this.ws.root, rel);
    const header = (records[0] as Extract<DebateRecord, { type: 'debate_created' }>).header;
    const status = lastStatus(records);
    if (status === null || !ENDED_STATUSES.has(status))
      throw new UserError(
        `debate ${id} has not ended (${status ?? 'running'}): a single pass is set beside a finished debate's result`,
      );
    return { rel, header };
  }

  logPathOf(id: string): string {
    // An id that could not be a debate's is refused as such, not looked up (the CLI passes what it was given).
    const problem = recordIdProblem(id, 'debate');
    if (problem !== null) throw new UserError(`"${id}" ${problem} (see: npm run cli -- debates list)`);
    // Only a crux debate's: an evaluation's run shares the table but is not a debate.
    const logPath = cruxRunLogPath(this.ws.db, id);
    if (logPath && existsSync(join(this.ws.root, logPath))) return logPath;
    throw new UserError(`no debate "${id}" (see: npm run cli -- debates list)`);
  }

  /** A debate's readable transcript (`<id>.md`), from the engine that ran it or read its log. */
  private transcriptOf(header: DebateHeader, engine: CruxEngine, outcome: CruxOutcome = engine.outcome()): string {
    return renderTranscript(engine.currentState, outcome.result, {
      id: header.id,
      provider: header.provider,
      seed: header.seed,
      status: outcome.status,
      reason: outcome.reason,
      notes: outcome.notes,
      createdAt: header.createdAt,
    });
  }

  /** The crux debates the index knows, the newest first (evaluations and other protocols' runs left out). */
  list(): CruxRunListing[] {
    return listCruxRuns(this.ws.db);
  }

  show(id: string): {
    header: DebateHeader;
    status: string | null;
    result: unknown;
    transcript: string | null;
    records: number;
    /** Only when the debate has one (`debate --baseline`): the single pass beside its result. */
    baseline?: BaselineComparison;
  } {
    const rel = this.logPathOf(id);
    // The same reader as resume: a torn last line (a debate killed mid-write) is left out, not an error.
    const { records } = readDebateLog(this.ws.root, rel);
    const header = (records[0] as Extract<DebateRecord, { type: 'debate_created' }>).header;
    const resultJson = runResultJson(this.ws.db, id);
    // A rebuilt index has no stored result: a finished debate's result is rebuilt from its log.
    const mdRel = rel.replace(/\.jsonl$/, '.md');
    const result = resultJson ? JSON.parse(resultJson) : CruxEngine.outcomeOf(records).result;
    const baseline = readBaseline(this.ws.root, rel);
    const status = lastStatus(records);
    return {
      header,
      status,
      result,
      transcript: existsSync(join(this.ws.root, mdRel))
        ? readTextInside(this.ws.root, mdRel)
        : // Ended, but killed before its transcript was written: the log holds all of it.
          status !== null && ENDED_STATUSES.has(status)
          ? this.transcriptOf(header, CruxEngine.reading(records))
          : null,
      records: records.length,
      // Left out when there is none, so a debate without a baseline shows exactly what it did.
      ...(baseline ? { baseline: compareBaseline(baseline, result as CruxResult) } : {}),
    };
  }
}

export { debateLogPath };

import { statSync } from 'node:fs';
import { join } from 'node:path';
import type {
  CouncilFileChange,
  CouncilProposalView,
  CouncilTaskSummary,
  CouncilTaskView,
  CouncilWeightsReport,
} from '../../contract';
import type { CouncilFiles } from '../../council/files-port';
import { describeNeed, hadDissent, need } from '../../council/lifecycle';
import {
  EPISODES,
  type ProposalFile,
  type ProposalFolder,
  readLines,
  WEIGHT_HISTORY,
  WEIGHTS_FILE,
} from '../../council/recorder';
import { proposalFileId } from '../../council/replay';
import { statusOf, votesOf } from '../../council/result';
import { type Awaiting, type CouncilState, lastVersion } from '../../council/state';
import {
  COUNCIL_AGENTS,
  type CouncilAgent,
  BASE_VALUES,
  DIVERSITY_FLOOR,
  MAX_DELTA,
  round,
  STARTING_WEIGHTS,
  WEIGHT_MAX,
  WEIGHT_MIN,
  weightOverridesSchema,
  type Weights,
  weightsWith,
} from '../../council/values';
import { spread } from '../../council/weights';
import { protocols } from '../../protocols';
import { readDebateLog } from '../debates/journal';
import { foldRun } from '../runs/run-service';
import { workspaceResources } from '../runs/run-resources';
import { listRuns, type RunListing } from '../sqlite/run-list-queries';
import { runRow } from '../sqlite/run-queries';
import { UserError, type Workspace } from '../workspace/workspace';

/**
 * Reading the council for the app's views: tasks, their proposals, the inbox and the weights, from
 * what the council leaves behind — its run logs (folded, never run) and the files under `council/`
 * (proposals with their reverts, the episodes, the weights and their history). The council's own
 * modules write those; this only reads them.
 */

/** What the app adds to the files: which tasks it drives now, which decisions it is carrying out. */
export interface CouncilLiveness {
  /** The task runs in this app now. */
  driving(taskId: string): boolean;
  /** The researcher's decision on this proposal is being carried out in this app now. */
  deciding(fileId: string): boolean;
  /** The last error of carrying out a decision on the task in this app, or null. */
  error(taskId: string): string | null;
}

/** A read's text is kept short in a view: the whole file is one click away on the idea page. */
const DETAIL_CHARS = 1000;
const cut = (text: string) => (text.length > DETAIL_CHARS ? `${text.slice(0, DETAIL_CHARS - 1)}…` : text);

/** What a proposal waits for, in the researcher's words. */
function waitsForWords(awaiting: Awaiting | null): string | null {
  if (!awaiting) return null;
  switch (awaiting.kind) {
    case 'review':
      return `a review by the ${awaiting.agent}`;
    case 'revision':
      return 'the executor’s revision';
    case 'compromise':
      return 'the integrator’s compromise';
    case 'researcher':
      return 'your decision';
    case 'execute':
      return `the execution of action ${awaiting.action + 1}`;
    case 'check':
      return 'the postcondition checks';
    case 'outcome':
      return 'the verifier’s review of the outcome';
  }
}

export const changesOf = (changes: unknown[]): CouncilFileChange[] =>
  changes.flatMap((c) => {
    const x = c as Partial<CouncilFileChange>;
    if (typeof x.path !== 'string' || typeof x.change !== 'string') return [];
    return [
      {
        path: x.path,
        change: x.change,
        ...(x.conflictCopy ? { conflictCopy: x.conflictCopy } : {}),
        ...(x.to ? { to: x.to } : {}),
      },
    ];
  });

const SETTLED_RUNNING = new Set(['EXECUTING', 'CHECKING']);

export function proposalView(record: ProposalFile, live: CouncilLiveness): CouncilProposalView {
  const p = record.proposal;
  const last = lastVersion(p);
  const reverted = record.reverted
    ? { at: record.reverted.at, changes: changesOf(record.reverted.changes), conflicts: record.reverted.conflicts }
    : null;
  const status = reverted ? 'REVERTED' : p.status;
  return {
    id: record.id,
    taskId: record.taskId,
    task: record.task,
    idea: record.idea,
    proposal: p.id,
    status,
    goal: last.output.goal,
    stakes: last.stakes,
    flags: last.flags,
    ladder: p.ladder,
    tiebreak: p.tiebreak,
    decision: p.decision,
    decidedBy: p.decidedBy,
    researcherNote: p.researcherNote,
    waitReason: p.awaiting?.kind === 'researcher' ? p.awaiting.reason : null,
    waitsFor: reverted ? null : waitsForWords(p.awaiting),
    votes: votesOf(p),
    versions: p.versions.map((v) => ({
      n: v.n,
      kind: v.kind,
      author: v.author,
      output: v.output,
      stakes: v.stakes,
      flags: v.flags,
      reviews: v.reviewers.flatMap((agent) => {
        const review = v.reviews[agent];
        return review ? [{ agent, review }] : [];
      }),
      pendingReviewers: v.reviewers.filter((agent) => !v.reviews[agent]),
    })),
    results: p.results.map((r) => ({ ...r, detail: cut(r.detail), changes: changesOf(r.changes) })),
    postconditions: p.postconditions,
    outcome: p.outcome,
    executed: p.executed,
    checked: p.checked,
    reverted,
    revertable: p.executed && reverted === null && !SETTLED_RUNNING.has(p.status),
    deciding: live.deciding(record.id),
  };
}

interface EpisodeLine {
  id?: string;
  at?: string;
  task?: string;
  idea?: string | null;
  outcome?: string;
  calls?: number;
  rounds?: number;
  limit?: string | null;
  keyLearnings?: string[];
  valuesServed?: string[];
}

const OUTCOMES = ['COMPLETED', 'AWAITING_RESEARCHER', 'REJECTED', 'FAILED', 'LIMIT'] as const;
type Outcome = (typeof OUTCOMES)[number];

/** A task folded from its run log: where it stands, as the log says, cached until the log grows. */
interface Folded {
  size: number;
  mtimeMs: number;
  state: CouncilState;
}

export class CouncilReads {
  private readonly folds = new Map<string, Folded>();

  constructor(
    private readonly ws: Workspace,
    private readonly files: CouncilFiles,
    private readonly listProposals: () => { folder: ProposalFolder; record: ProposalFile }[],
    private readonly live: CouncilLiveness,
  ) {}

  /** The task's state folded from its log (the runner's own fold; nothing is run). */
  private fold(rel: string): CouncilState {
    const entry = protocols.get('council');
    if (!entry) throw new Error('the council protocol is not registered');
    const stat = statSync(join(this.ws.root, rel));
    const known = this.folds.get(rel);
    if (known && known.size === stat.size && known.mtimeMs === stat.mtimeMs) return known.state;
    const { records } = readDebateLog(this.ws.root, rel);
    const first = records[0];
    if (first?.type !== 'run_created') throw new UserError(`${rel} does not start with a run header`);
    const state = foldRun(entry, first.header, records, workspaceResources(this.ws)).currentState as CouncilState;
    this.folds.set(rel, { size: stat.size, mtimeMs: stat.mtimeMs, state });
    return state;
  }

  private episodes(): Map<string, EpisodeLine> {
    return new Map(readLines<EpisodeLine>(this.files, EPISODES).map((e) => [e.id ?? '', e]));
  }

  /** Every proposal file, grouped by task. */
  private proposalsByTask(): Map<string, ProposalFile[]> {
    const out = new Map<string, ProposalFile[]>();
    for (const { record } of this.listProposals()) {
      const list = out.get(record.taskId) ?? [];
      list.push(record);
      out.set(record.taskId, list);
    }
    for (const list of out.values())
      list.sort((a, b) => Number(a.proposal.id.slice(1)) - Number(b.proposal.id.slice(1)));
    return out;
  }

  /** The proposals of a folded task: the log's state, with what only the files know (a revert). */
  private merged(taskId: string, state: CouncilState, files: ProposalFile[]): ProposalFile[] {
    const byId = new Map(files.map((f) => [f.proposal.id, f]));
    return state.proposals.map((p) => {
      const file = byId.get(p.id);
      return {
        id: proposalFileId(taskId, p.id),
        taskId,
        task: state.header.task,
        idea: state.header.idea,
        proposal: p,
        ...(file?.reverted ? { reverted: file.reverted } : {}),
      };
    });
  }

  private taskOf(
    id: string,
    row: RunListing | null,
    files: ProposalFile[],
    episode: EpisodeLine | undefined,
  ): { summary: CouncilTaskSummary; detail: Omit<CouncilTaskView, keyof CouncilTaskSummary> } {
    const logPath = row ? runRow(this.ws.db, id)?.logPath : null;
    const state = logPath ? this.fold(logPath) : null;
    const records = state ? this.merged(id, state, files) : files;
    const proposals = records.map((r) => proposalView(r, this.live));
    const run = row
      ? {
          status: row.status,
          reason: row.reason,
          live: this.live.driving(id),
          provider: row.provider,
          costUsd: Math.round(row.costUsd * 1e6) / 1e6,
          startedAt: row.createdAt,
          updatedAt: row.updatedAt,
        }
      : null;
    const outcome: Outcome = state
      ? statusOf(state)
      : OUTCOMES.includes(episode?.outcome as Outcome)
        ? (episode?.outcome as Outcome)
        : proposals.some((p) => p.status === 'AWAITING_RESEARCHER')
          ? 'AWAITING_RESEARCHER'
          : proposals.some((p) => p.executed)
            ? 'COMPLETED'
            : 'REJECTED';
    const first = files[0];
    const summary: CouncilTaskSummary = {
      id,
      task: state?.header.task ?? row?.topic ?? first?.task ?? episode?.task ?? id,
      idea: state ? state.header.idea : (row?.ideaSlug ?? first?.idea ?? episode?.idea ?? null),
      outcome,
      waitsFor: state
        ? describeNeed(need(state))
        : episode
          ? 'nothing more (the task is over)'
          : 'a task replayed from a script: nothing drives it',
      run,
      proposals: proposals.map((p) => ({
        id: p.id,
        proposal: p.proposal,
        status: p.status,
        goal: p.goal,
        stakes: p.stakes,
        flags: p.flags,
        ladder: p.ladder,
        decision: p.decision,
        decidedBy: p.decidedBy,
        executed: p.executed,
        revertable: p.revertable,
      })),
      error: this.live.error(id),
    };
    const dissent = records.filter((r) => hadDissent(r.proposal)).length;
    const weights = state ? { before: state.weightsBefore, after: state.weights } : null;
    const detail = {
      proposals,
      phase: state?.phase ?? (episode ? ('done' as const) : ('deliberating' as const)),
      calls: state?.calls ?? episode?.calls ?? 0,
      rounds: state?.rounds ?? episode?.rounds ?? 0,
      limit: state?.limit ?? episode?.limit ?? null,
      weights,
      episode: state
        ? state.episode
          ? { keyLearnings: state.episode.keyLearnings, valuesServed: state.episode.valuesServed }
          : null
        : episode
          ? {
              keyLearnings: episode.keyLearnings ?? [],
              valuesServed: (episode.valuesServed ?? []).filter((v): v is (typeof BASE_VALUES)[number] =>
                (BASE_VALUES as readonly string[]).includes(v),
              ),
            }
          : null,
      applied: state?.applied ?? [],
      refused: state?.refused.map(({ agent, value, delta, reason }) => ({ agent, value, delta, reason })) ?? [],
      figures: {
        calls: state?.calls ?? episode?.calls ?? 0,
        proposalsWithDissent: dissent,
        dissentRate: records.length === 0 ? 0 : round(dissent / records.length, 4),
      },
    };
    return { summary, detail: detail as Omit<CouncilTaskView, keyof CouncilTaskSummary> };
  }

  /** Every task, newest first: those with a run log, and those replayed from a script (files only). */
  list(): CouncilTaskSummary[] {
    const rows = listRuns(this.ws.db, { protocol: 'council' });
    const byTask = this.proposalsByTask();
    const episodes = this.episodes();
    const known = new Set(rows.map((r) => r.id));
    const out = rows.map((row) => this.taskOf(row.id, row, byTask.get(row.id) ?? [], episodes.get(row.id)).summary);
    const replayed = [...byTask.keys()]
      .filter((id) => !known.has(id))
      .map((id) => ({
        at: episodes.get(id)?.at ?? '',
        task: this.taskOf(id, null, byTask.get(id) ?? [], episodes.get(id)),
      }))
      .sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    return [...out, ...replayed.map((r) => r.task.summary)];
  }

  get(id: string): CouncilTaskView {
    const row = listRuns(this.ws.db, { protocol: 'council' }).find((r) => r.id === id) ?? null;
    const files = this.proposalsByTask().get(id) ?? [];
    if (!row && files.length === 0) throw new UserError(`no council task "${id}" in this workspace`);
    const { summary, detail } = this.taskOf(id, row, files, this.episodes().get(id));
    return { ...summary, ...detail } as CouncilTaskView;
  }

  /** One proposal as its file (and, for a task with a log, the log) has it. */
  proposal(fileId: string): CouncilProposalView {
    const taskId = fileId.replace(/-p\d+$/, '');
    const task = this.get(taskId);
    const found = task.proposals.find((p) => p.id === fileId);
    if (!found) throw new UserError(`no council proposal "${fileId}" (see: npm run cli -- council list)`);
    return found;
  }

  /**
   * The inbox: every proposal waiting for the researcher whose decision is not already under way,
   * oldest first — as its task's run log has it (what an approval acts on), not as its file says.
   */
  approvals(): CouncilProposalView[] {
    const candidates = this.listProposals().filter(
      ({ record }) => record.proposal.status === 'AWAITING_RESEARCHER' && !record.reverted,
    );
    // A file naming a proposal its task's log does not have waits for nothing.
    return candidates
      .flatMap(({ record }) => this.get(record.taskId).proposals.filter((p) => p.id === record.id))
      .filter((p) => p.status === 'AWAITING_RESEARCHER' && !p.deciding)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** How many proposals wait for the researcher now (the badge). */
  waitingCount(): number {
    return this.approvals().length;
  }

  weights(): CouncilWeightsReport {
    const stored = this.files.read(WEIGHTS_FILE);
    let current: Weights = weightsWith();
    if (stored) {
      try {
        const parsed = weightOverridesSchema.safeParse(JSON.parse(stored.text));
        if (parsed.success) current = weightsWith(parsed.data);
      } catch {
        // A weights file that is not JSON: the council itself starts from the starting weights then.
      }
    }
    interface HistoryLine {
      at?: string;
      taskId?: string;
      agent?: string;
      value?: string;
      delta?: number;
      from?: number;
      to?: number;
      reason?: string;
      refused?: boolean;
    }
    const agents = COUNCIL_AGENTS as readonly string[];
    const values = BASE_VALUES as readonly string[];
    const history = readLines<HistoryLine>(this.files, WEIGHT_HISTORY).flatMap((h) =>
      typeof h.agent === 'string' &&
      agents.includes(h.agent) &&
      typeof h.value === 'string' &&
      values.includes(h.value) &&
      typeof h.delta === 'number'
        ? [
            {
              at: h.at ?? '',
              taskId: h.taskId ?? '',
              agent: h.agent as CouncilAgent,
              value: h.value as (typeof BASE_VALUES)[number],
              delta: h.delta,
              from: h.refused ? null : (h.from ?? null),
              to: h.refused ? null : (h.to ?? null),
              refused: h.refused ? (h.reason ?? 'refused') : null,
            },
          ]
        : [],
    );
    // The chart's points: the starting weights, then each task's applied adjustments, in order.
    const series: CouncilWeightsReport['series'] = [{ at: null, taskId: null, weights: STARTING_WEIGHTS }];
    let point: Weights = STARTING_WEIGHTS;
    for (const h of history) {
      if (h.refused !== null || h.to === null) continue;
      const last = series[series.length - 1];
      point = { ...point, [h.agent]: { ...point[h.agent], [h.value]: h.to } };
      if (last && last.taskId === h.taskId) last.weights = point;
      else series.push({ at: h.at, taskId: h.taskId, weights: point });
    }
    return {
      agents: [...COUNCIL_AGENTS],
      values: [...BASE_VALUES],
      current,
      starting: STARTING_WEIGHTS,
      spread: Object.fromEntries(BASE_VALUES.map((v) => [v, round(spread(current, v), 4)])) as Record<
        (typeof BASE_VALUES)[number],
        number
      >,
      bounds: { min: WEIGHT_MIN, max: WEIGHT_MAX, maxDelta: MAX_DELTA, diversityFloor: DIVERSITY_FLOOR },
      history,
      series,
    };
  }
}

import { join } from 'node:path';
import { readdirSync, existsSync } from 'node:fs';
import { councilStart } from '../../council/memory';
import { describeNeed, need } from '../../council/lifecycle';
import { executeAction } from '../../council/execution';
import type { CouncilFiles } from '../../council/files-port';
import type { CouncilInput } from '../../council/inputs';
import { checkPostconditions } from '../../council/postconditions';
import { councilEntry } from '../../council/protocol';
import {
  type ProposalFile,
  PROPOSAL_FOLDERS,
  type ProposalFolder,
  recordCouncil,
  findProposal,
} from '../../council/recorder';
import { proposalFileId } from '../../council/replay';
import { type CouncilResult, councilResult } from '../../council/result';
import { revertProposal } from '../../council/revert';
import { type CouncilState, councilHeaderSchema, currentProposal, lastVersion } from '../../council/state';
import type { DebateRecord, RunHeader } from '../../engine/debate-record';
import type { RunRecord, RunStatus } from '../../engine/protocol';
import { type RunControl, type RunLimits, Runner } from '../../engine/runner';
import { type ProviderFactory, type ProviderName, providerFor } from '../debates/providers';
import { DebateJournal, readDebateLog } from '../debates/journal';
import { ulid } from '../ids';
import { claimRun } from '../runs/run-control';
import { UserError, type Workspace } from '../workspace/workspace';
import { workspaceResources } from '../runs/run-resources';
import { foldRun } from '../runs/run-service';
import type { AnyProtocolEntry } from '../../engine/registry';
import { nodeCouncilFiles } from './council-files';
import { councilMirror } from './council-mirror';

/**
 * The council's host: starts a council task as a run of the one runner (its log under `councils/`,
 * one writer at a time, resumable), and answers, through the runner's `control`, what is not a
 * model call — running an approved action on the workspace (journalled, so a kill neither repeats
 * nor skips one), checking the postconditions, and the researcher's decision. Where the council
 * waits for the researcher and none is given, the run stops where it stands; `decide` resumes it
 * with the decision. Every step is recorded under `council/`.
 */
export interface CouncilRunReport {
  id: string;
  status: RunStatus;
  reason: string | null;
  log: string;
  costUsd: number;
  /** What the task waits for now. */
  waitsFor: string;
  result: CouncilResult;
}

export interface CouncilDecision {
  proposal: string;
  decision: 'approve' | 'reject';
  note: string;
}

const LIMITS: RunLimits = { budgetUsd: 0.5, timeLimitMs: 30 * 60_000, concurrency: 1 };

export class CouncilRuns {
  readonly files: CouncilFiles;

  constructor(
    private readonly ws: Workspace,
    private readonly providers: ProviderFactory = providerFor,
  ) {
    this.files = nodeCouncilFiles(ws.root, {
      stages: [...ws.taxonomy.stageIds],
      search: (query) => ws.search(query).map((hit) => hit.slug),
    });
  }

  async start(request: {
    task: string;
    idea?: string;
    provider: ProviderName;
    seed?: number;
  }): Promise<CouncilRunReport> {
    if (request.idea !== undefined && !this.ws.list().some((i) => i.slug === request.idea))
      throw new UserError(`no idea "${request.idea}" in this workspace`);
    const { weights, history, memory } = councilStart(this.files, { idea: request.idea ?? null, task: request.task });
    const setup = councilHeaderSchema.parse({
      task: request.task,
      idea: request.idea ?? null,
      weights,
      history,
      memory,
    });
    const header: RunHeader = {
      id: ulid().toLowerCase(),
      protocol: councilEntry.name,
      version: councilEntry.version,
      ideaSlug: setup.idea,
      topic: request.task,
      provider: request.provider,
      createdAt: new Date().toISOString(),
      setup: setup as unknown as Record<string, unknown>,
      seed: request.seed ?? 1,
      limits: LIMITS,
    };
    const provider = this.providers(request.provider, this.ws.root, header.seed ?? 1);
    const held = claimRun(this.ws.root, this.ws.db, header.id, 'run');
    try {
      const rel = logPath(header.ideaSlug, header.id);
      const journal = DebateJournal.start(
        this.ws.root,
        this.ws.db,
        rel,
        { type: 'run_created', header },
        undefined,
        held.confirm,
      );
      return await this.drive(header, rel, journal, provider, [], null);
    } finally {
      held.release();
    }
  }

  /** Continues a task: after a kill, or with the researcher's decision on the proposal it waits for. */
  async resume(id: string, decision: CouncilDecision | null = null): Promise<CouncilRunReport> {
    const rel = this.find(id);
    const held = claimRun(this.ws.root, this.ws.db, id, 'run');
    try {
      const { journal, records } = DebateJournal.resume(this.ws.root, this.ws.db, rel, undefined, held.confirm);
      const first = records[0];
      if (first?.type !== 'run_created') throw new UserError(`${rel} does not start with a run header`);
      const header = first.header;
      const provider = this.providers(header.provider as ProviderName, this.ws.root, header.seed ?? 1);
      return await this.drive(header, rel, journal, provider, records.slice(1), decision);
    } finally {
      held.release();
    }
  }

  /** The researcher decides on a waiting proposal (`<task id>-p1`): the task goes on from there. */
  async decide(fileId: string, decision: 'approve' | 'reject', note: string): Promise<CouncilRunReport> {
    const found = findProposal(this.files, fileId);
    if (!found) throw new UserError(`no council proposal "${fileId}" (see: npm run cli -- council list)`);
    // Whether it waits is the log's word, not the file's (a file may have been edited by hand).
    const { taskId, proposal } = found.record;
    const state = this.logState(taskId);
    const now = need(state);
    if (now.kind === 'researcher' && now.proposal === proposal.id)
      return this.resume(taskId, { proposal: proposal.id, decision, note });
    // The same decision, already in the log (the process carrying it out was killed before the
    // file caught up): it is carried on.
    const logged = state.proposals.find((p) => p.id === proposal.id);
    const same = decision === 'approve' ? 'approved' : 'rejected';
    if (logged?.decidedBy === 'researcher' && logged.decision === same && now.kind !== 'done')
      return this.resume(taskId);
    throw new UserError(`${fileId} does not wait for the researcher (its task waits for ${describeNeed(now)})`);
  }

  /** A task's state as its run log has it (folded, nothing run). */
  private logState(id: string): CouncilState {
    const { records } = readDebateLog(this.ws.root, this.find(id));
    const first = records[0];
    if (first?.type !== 'run_created')
      throw new UserError(`the log of council task ${id} does not start with a run header`);
    return foldRun(councilEntry as unknown as AnyProtocolEntry, first.header, records, workspaceResources(this.ws))
      .currentState as CouncilState;
  }

  revert(fileId: string, note = ''): { changes: unknown[]; conflicts: string[] } {
    return revertProposal(this.files, fileId, note);
  }

  /** Every proposal, waiting ones first, as the index mirrors `council/proposals/` (read again from the files when they changed). */
  list(): { folder: ProposalFolder; record: ProposalFile }[] {
    const order = (folder: string) => PROPOSAL_FOLDERS.indexOf(folder as ProposalFolder);
    return councilMirror(this.ws.root, this.ws.db)
      .mirror.proposals.sort((a, b) => order(a.folder) - order(b.folder) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map((row) => ({ folder: row.folder as ProposalFolder, record: JSON.parse(row.recordJson) as ProposalFile }));
  }

  private async drive(
    header: RunHeader,
    rel: string,
    journal: DebateJournal,
    provider: ReturnType<ProviderFactory>,
    earlier: DebateRecord[],
    decision: CouncilDecision | null,
  ): Promise<CouncilRunReport> {
    const setup = councilHeaderSchema.parse(header.setup);
    const files = this.files;
    const runner: Runner<CouncilState, CouncilInput, unknown> = new Runner(
      councilEntry.protocol(setup, { now: Date.now, resources: workspaceResources(this.ws) }),
      councilEntry.init(setup, workspaceResources(this.ws)),
      header.limits ?? LIMITS,
      {
        llm: provider.llm,
        append: (records) => journal.append(records as Parameters<DebateJournal['append']>[0]),
        estimateCostUsd: provider.estimate,
        now: Date.now,
        control: () =>
          this.control(header.id, runner.currentState, () => {
            const d = decision;
            decision = null;
            return d;
          }),
      },
    ) as Runner<CouncilState, CouncilInput, unknown>;
    for (const record of earlier) runner.fold(record as RunRecord);
    // The files catch up with the log first (a kill may have come between the two), then follow it.
    recordCouncil(files, header.id, runner.currentState);
    runner.onEvents(() => recordCouncil(files, header.id, runner.currentState));
    try {
      const outcome = await runner.run();
      const state = runner.currentState;
      return {
        id: header.id,
        status: outcome.status,
        reason: outcome.reason,
        log: rel,
        costUsd: runner.usage.costUsd,
        waitsFor: describeNeed(need(state)),
        result: councilResult(state),
      };
    } finally {
      journal.close();
      this.ws.sync();
    }
  }

  /** What the host answers before each round: the workspace's work and the researcher's word. */
  private control(
    taskId: string,
    state: CouncilState,
    decision: () => CouncilDecision | null,
  ): RunControl<CouncilInput> {
    const n = need(state);
    const p = currentProposal(state);
    if (n.kind === 'execute' && p) {
      const action = lastVersion(p).output.actions[n.action];
      if (!action) throw new Error(`no action ${n.action} in ${p.id}`);
      const result = executeAction(this.files, proposalFileId(taskId, p.id), n.action, action);
      return { kind: 'input', input: { kind: 'executed', proposal: p.id, result } };
    }
    if (n.kind === 'check' && p) {
      const postconditions = checkPostconditions(lastVersion(p).output.actions, p.results, this.files);
      return { kind: 'input', input: { kind: 'checked', proposal: p.id, postconditions } };
    }
    if (n.kind === 'researcher') {
      const d = decision();
      if (d && d.proposal === n.proposal)
        return {
          kind: 'input',
          input: { kind: 'researcher', proposal: d.proposal, decision: d.decision, note: d.note },
        };
      // Nobody to decide now: the run stays where it is, resumable, and the proposal waits in pending/.
      return { kind: 'stop' };
    }
    return null;
  }

  private find(id: string): string {
    if (!/^[a-z0-9][a-z0-9-]{0,99}$/.test(id)) throw new UserError(`"${id}" is not a council task id`);
    const slugs = (() => {
      try {
        return readdirSync(join(this.ws.root, 'ideas'));
      } catch {
        return [];
      }
    })();
    for (const rel of [logPath(null, id), ...slugs.map((slug) => logPath(slug, id))])
      if (existsSync(join(this.ws.root, rel))) return rel;
    throw new UserError(`no council task "${id}" in this workspace`);
  }
}

function logPath(ideaSlug: string | null, id: string): string {
  return ideaSlug ? `ideas/${ideaSlug}/${councilEntry.folder}/${id}.jsonl` : `${councilEntry.folder}/${id}.jsonl`;
}

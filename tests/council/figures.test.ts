// The council's figures (COUNCIL-PROTOCOL.md, "Figures"): per task from its state and its log, and
// over time. The replay examples' figures are worked out by hand from their scripts (see
// docs/council-protocol.md); the live tasks' come from their logs, as `council figures` prints them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { councilRecorder, replayCouncil } from '../../core/council';
import { figuresOverTime, taskFigures } from '../../core/council/figures';
import { councilFigures } from '../../core/node/council/council-figures';
import { CouncilRuns } from '../../core/node/council/council-runs';
import { DebateService } from '../../core/node/debates/debate-service';
import { initWorkspace } from '../../core/node/workspace/init-workspace';
import { Workspace } from '../../core/node/workspace/workspace';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';
import { COUNCIL_FIXTURES, councilWorkspace } from './council-workspace';

function replayed(name: string, day: string) {
  const { files, cleanup } = councilWorkspace();
  try {
    const out = replayCouncil(readFileSync(join(COUNCIL_FIXTURES, `${name}.jsonl`), 'utf8'), files, {
      taskId: name,
      observer: councilRecorder(files, name),
    });
    return taskFigures(name, out.state, {
      startedAt: `${day}T10:00:00Z`,
      updatedAt: `${day}T10:01:00Z`,
      calls: out.state.calls,
      costUsd: 0.01,
    });
  } finally {
    cleanup();
  }
}

describe('council figures', () => {
  it('of the replay examples, per task and over time, as worked out by hand', () => {
    const tasks = [
      replayed('council-replay-small', '2026-04-01'),
      replayed('medium-compromise', '2026-04-01'),
      replayed('low-tiebreak', '2026-04-02'),
      replayed('medium-discussion', '2026-04-02'),
      replayed('high-awaiting', '2026-04-03'),
    ];
    const pick = (t: (typeof tasks)[number]) => [
      t.status,
      t.done,
      t.complexity,
      t.roundsPerProposal,
      t.dissentRate,
      t.conflicts,
      t.productiveConflicts,
      t.productiveConflictRate,
      t.calls,
    ];
    const over = figuresOverTime([...tasks].reverse());
    expect({
      tasks: tasks.map(pick),
      // council-replay-small: verifier transparency 0.5 → 0.55, so σ(0.5, 0.55, 0.9) = 0.178.
      transparency: tasks[0]?.weightDiversity.transparency,
      byStakes: tasks[1]?.roundsPerProposalByStakes,
      order: over.tasks.map((t) => t.taskId),
      byDay: over.byDay.map((d) => [
        d.day,
        d.tasks,
        d.roundsPerProposal,
        d.dissentRate,
        d.productiveConflictRate,
        d.calls,
      ]),
      overall: over.overall,
    }).toEqual({
      tasks: [
        // one round, a concern (dissent), no rejection
        ['COMPLETED', true, 'simple', 1, 1, 0, 0, null, 5],
        // v1 and three revisions rejected, the compromise approved: 5 rounds, a productive conflict
        ['COMPLETED', true, 'complex', 5, 1, 1, 1, 1, 17],
        // every version rejected, the tiebreak rejects: a conflict that produced nothing
        ['REJECTED', true, 'complex', 5, 1, 1, 0, 0, 16],
        // v1 rejected, the revision approved by all three
        ['COMPLETED', true, 'complex', 2, 1, 1, 1, 1, 8],
        // all three approve, the researcher has not decided: no dissent, not done
        ['AWAITING_RESEARCHER', false, 'simple', 1, 0, 0, 0, null, 3],
      ],
      transparency: 0.178,
      byStakes: { low: null, medium: 5, high: null },
      order: ['council-replay-small', 'medium-compromise', 'low-tiebreak', 'medium-discussion', 'high-awaiting'],
      byDay: [
        ['2026-04-01', 2, 3, 1, 1, 22],
        ['2026-04-02', 2, 3.5, 1, 0.5, 24],
        ['2026-04-03', 1, 1, 0, null, 3],
      ],
      overall: {
        tasks: 5,
        proposals: 5,
        roundsPerProposal: 2.8,
        dissentRate: 0.8,
        productiveConflictRate: 0.6667,
        memoryUseRate: 0,
        minWeightDiversity: tasks[4]?.minWeightDiversity,
        calls: 49,
        costUsd: 0.05,
        callsPerTask: 9.8,
        costPerTask: { simple: 0.01, complex: 0.01 },
      },
    });
  });

  describe('of live tasks, from their logs', { timeout: 120_000 }, () => {
    let root: string;
    let cleanup: () => void;
    let ws: string;
    beforeEach(() => {
      ({ root, cleanup } = tempWorkspace('crucible-council-figures-'));
      ws = join(root, 'lab');
      initWorkspace(ws);
    });
    afterEach(() => cleanup());

    it('count each task’s calls, and the memory a proposal cites', async () => {
      const workspace = Workspace.open(ws);
      let reports: { id: string; calls: number }[] = [];
      try {
        workspace.sync();
        // A debate on the idea first: its episode is in the council's memory, and the proposal cites it.
        const debate = await new DebateService(workspace).start({
          ideaSlug: 'soil-moisture-lora',
          agents: ['ethicist', 'investor'],
          provider: 'simulated',
          seed: 7,
        });
        const council = new CouncilRuns(workspace);
        const first = await council.start({
          task: 'Note the open questions',
          idea: 'soil-moisture-lora',
          provider: 'simulated',
          seed: 3,
        });
        const second = await council.start({
          task: 'Note the open questions',
          idea: 'city-lichens-field-guide',
          provider: 'simulated',
          seed: 1,
        });
        reports = [first, second].map((r) => ({ id: r.id, calls: r.result.figures.calls }));
        expect(debate.outcome.status).toBe('completed');
      } finally {
        workspace.close();
      }
      const figures = councilFigures(ws);
      const printed = JSON.parse(cli(['council', 'figures', '--workspace', ws, '--json']).stdout);
      const byId = new Map(figures.tasks.map((t) => [t.taskId, t]));
      expect({
        calls: reports.map((r) => byId.get(r.id)?.calls),
        memory: reports.map((r) => byId.get(r.id)?.memory),
        complexity: reports.map((r) => byId.get(r.id)?.complexity),
        problems: figures.problems,
        printed: printed.tasks.map((t: { taskId: string }) => t.taskId),
      }).toEqual({
        calls: reports.map((r) => r.calls),
        memory: [
          // The soil task's memory holds the debate's episode (same idea); its proposal cites it.
          { offered: 1, citingProposals: 1, rate: 1 },
          // The lichen task shares words with the first task's episode ("Note the open questions"): it is offered and cited.
          { offered: 1, citingProposals: 1, rate: 1 },
        ],
        complexity: ['simple', 'complex'],
        problems: [],
        printed: figures.tasks.map((t) => t.taskId),
      });
    });
  });
});

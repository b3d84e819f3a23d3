import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseDebateLog } from '../../core/engine/log-reader';
import { CouncilRuns } from '../../core/node/council/council-runs';
import { RunService } from '../../core/node/runs/run-service';
import { initWorkspace } from '../../core/node/workspace/init-workspace';
import { Workspace } from '../../core/node/workspace/workspace';
import { eventually, start } from '../helpers/cli-process';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// The live council on the simulated provider: a registered tenant of the one runner whose host does
// the workspace's work and waits for the researcher; run, approve, reject, revert, memory feeding the
// next task's flags, the general `run` path that cannot execute anything, and kill -9 then resume.

let root: string;
let cleanup: () => void;
let ws: string;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-council-live-'));
  ws = join(root, 'lab');
  initWorkspace(ws);
});
afterEach(() => cleanup());

async function withCouncil<T>(body: (council: CouncilRuns, workspace: Workspace) => Promise<T>): Promise<T> {
  const workspace = Workspace.open(ws);
  try {
    workspace.sync();
    return await body(new CouncilRuns(workspace), workspace);
  } finally {
    workspace.close();
  }
}

const README = 'ideas/reading-tracker-extension/README.md';
const read = (rel: string) => readFileSync(join(ws, rel));

describe('the live council', { timeout: 120_000 }, () => {
  it('waits for the researcher on high stakes (on every path), executes on approval, reverts byte for byte, and remembers', async () => {
    const before = read(README);
    const archive = {
      task: 'Archive this idea',
      idea: 'reading-tracker-extension',
      provider: 'simulated' as const,
      seed: 3,
    };
    const steps = await withCouncil(async (council, workspace) => {
      const waiting = await council.start(archive);
      const untouched = read(README).equals(before);
      // The general run path has no workspace host (it could neither execute nor ask): it is refused.
      const general = await new RunService(workspace)
        .start({
          protocol: 'council',
          ideaSlug: 'reading-tracker-extension',
          topic: archive.task,
          provider: 'simulated',
          seed: 3,
          setup: { task: archive.task, idea: 'reading-tracker-extension' },
        })
        .then(
          (report) => report.status as string,
          (error: Error) => error.message,
        );
      const stillUntouched = read(README).equals(before);
      const approved = await council.decide(`${waiting.id}-p1`, 'approve', 'idle for a year');
      const archived = read(README).toString('utf8').includes('stage: ARCHIVE');
      const reverted = council.revert(`${waiting.id}-p1`, 'changed my mind');
      const restored = read(README).equals(before);
      // The next task on the same target carries the reverted episode in its history.
      const again = await council.start(archive);
      return {
        waiting: [waiting.result.status, waiting.waitsFor, untouched],
        general: [general, stillUntouched],
        approved: [approved.result.status, approved.result.proposals[0]?.decidedBy, archived],
        reverted: [reverted.conflicts, restored],
        again: again.result.proposals[0]?.flags,
      };
    });
    expect(steps).toEqual({
      waiting: ['AWAITING_RESEARCHER', "the researcher's decision on p1", true],
      general: ['a council run is started with `council run`, which keeps what it needs beside the log', true],
      approved: ['COMPLETED', 'researcher', true],
      reverted: [[], true],
      again: ['REPEATS_FAILED'],
    });
    const files = ['pending', 'approved', 'rejected'].map((f) => {
      try {
        return readdirSync(join(ws, 'council/proposals', f)).length;
      } catch {
        return 0;
      }
    });
    const history = read('council/memory/consensus_history.jsonl')
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect({
      files,
      decisions: history.map((h) => [h.decision, h.decidedBy, h.precedent, h.note]),
      episodes: read('council/memory/episodes.jsonl').toString('utf8').trim().split('\n').length,
    }).toEqual({
      // The last task's proposal waits; the approved one was reverted (it stays in approved/). The
      // general run has no host, so nothing of it is under council/ (its log has it all).
      files: [1, 1, 0],
      decisions: [
        ['approved', 'researcher', true, 'idle for a year'],
        ['reverted', 'researcher', true, 'changed my mind'],
      ],
      episodes: 1,
    });
  });

  it('writes a note by consensus, and writes nothing when the researcher rejects', async () => {
    const out = await withCouncil(async (council) => {
      const note = await council.start({
        task: 'Write down the resume conditions',
        idea: 'soil-moisture-lora',
        provider: 'simulated',
        seed: 3,
      });
      const archive = await council.start({
        task: 'Archive it',
        idea: 'reading-tracker-extension',
        provider: 'simulated',
        seed: 3,
      });
      const before = read(README);
      const rejected = await council.decide(`${archive.id}-p1`, 'reject', 'not yet');
      return {
        note: [note.result.status, note.result.proposals[0]?.decidedBy, note.result.figures.calls],
        rejected: [rejected.result.status, read(README).equals(before)],
      };
    });
    expect(out).toEqual({
      // proposal, 2 reviews, outcome, "nothing more", episode.
      note: ['COMPLETED', 'consensus', 6],
      rejected: ['REJECTED', true],
    });
    expect(
      read('ideas/soil-moisture-lora/notes/council-write-down-the-resume-conditions.md').toString('utf8'),
    ).toContain('Written by the council');
  });

  it('resumes after kill -9 at random moments to the result of an uninterrupted run, each answer given once', async () => {
    // Seed 1: the verifier rejects every version of the executor's; the integrator's compromise settles it.
    const task = ['--task', 'Write down the resume conditions', '--idea', 'soil-moisture-lora', '--seed', '1'];
    const reference = await withCouncil((council) =>
      council.start({ task: task[1] as string, idea: 'soil-moisture-lora', provider: 'simulated', seed: 1 }),
    );
    const note = 'ideas/soil-moisture-lora/notes/council-write-down-the-resume-conditions.md';
    const referenceNote = read(note);
    const inputsOf = (rel: string) =>
      parseDebateLog(read(rel).toString('utf8'))
        .records.filter((r) => r.type === 'input')
        .map((r) => (r.type === 'input' ? r.input : null));
    const referenceInputs = inputsOf(reference.log);
    cleanup();
    ({ root, cleanup } = tempWorkspace('crucible-council-kill-'));
    ws = join(root, 'lab');
    initWorkspace(ws);

    const folder = join(ws, 'ideas/soil-moisture-lora/councils');
    const logs = () => {
      try {
        return readdirSync(folder).filter((f) => f.endsWith('.jsonl'));
      } catch {
        return [];
      }
    };
    let running = start(['council', 'run', ...task, '--workspace', ws, '--json'], 250);
    const name = await eventually(() => logs()[0], 'the council to start its log');
    const id = name.replace('.jsonl', '');
    const inputs = () => inputsOf(`ideas/soil-moisture-lora/councils/${name}`);
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let kill = 0; kill < 3; kill++) {
      const from = inputs().length;
      await eventually(
        () => (inputs().length >= from + 1 + Math.floor(random() * 3) ? true : null),
        'the council to go on',
      );
      await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 250)));
      running.child.kill('SIGKILL');
      expect((await running.exit).code).toBeNull();
      running = start(['council', 'resume', id, '--workspace', ws, '--json'], 250);
    }
    const last = await running.exit;
    const final = JSON.parse(last.stdout);
    expect({
      exit: last.code,
      result: final.result,
      note: read(note).equals(referenceNote),
      // Every input of the uninterrupted run, in its order: none repeated, none skipped.
      inputs: inputs(),
      conflictCopies: readdirSync(join(ws, 'ideas/soil-moisture-lora/notes')).filter((n) => n.includes('.conflict-')),
    }).toEqual({ exit: 0, result: reference.result, note: true, inputs: referenceInputs, conflictCopies: [] });
    expect(reference.result.proposals[0]).toMatchObject({
      ladder: 2,
      versions: 5,
      decidedBy: 'consensus',
      checked: true,
    });
    // The CLI lists what the council did.
    const listed = cli(['council', 'list', '--workspace', ws]);
    expect([listed.code, listed.stdout.trim()]).toEqual([
      0,
      `${id}-p1  RECORDED            Write down the resume conditions`,
    ]);
  });
});

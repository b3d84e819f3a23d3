import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProposal } from '../../core/council/recorder';
import type { CouncilRunReport } from '../../core/node/council/council-runs';
import { Workspace } from '../../core/node/workspace/workspace';
import { nodeEntry } from '../helpers/node-entry';
import {
  copyFolder,
  ideasTree,
  logInputs,
  SCRIPTED_TASK,
  scriptedCouncil,
  scriptedWorkspace,
  watchedFiles,
} from './scripted-council';

// A live council task killed with SIGKILL while it deliberates, at each step, then resumed, stops
// again where the researcher is needed with nothing of its high-stakes proposal done. Then the
// same task, its proposal (an edit, a note, a deletion, a merge, a rename) approved by the
// researcher, killed right after each change the council makes to a file from the approval to the
// end of the task — every journal entry, every idea file (so between a
// write and the journal entry saying it is done), every file under council/ — then carried on
// (`council approve` again if the proposal still seems to wait, else `council resume`). Each ends
// exactly as the uninterrupted task: the same result, the same files byte for byte, every input of
// its log once, no conflict copy. CRUCIBLE_COUNCIL_KILLS=N tries only every k-th step (N of them).

const KILL_AT = join(import.meta.dirname, 'kill-at.ts');

function killedAt(root: string, proposal: string, at: number): Promise<{ signal: string | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeEntry(KILL_AT), root, proposal, String(at)], {
      env: { ...process.env, CRUCIBLE_SIMULATED_LATENCY_MS: '0' },
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.once('exit', (_code, signal) => resolve({ signal, stderr }));
  });
}

async function withWorkspace<T>(root: string, body: (ws: Workspace) => Promise<T>): Promise<T> {
  const ws = Workspace.open(root);
  try {
    return await body(ws);
  } finally {
    ws.close();
  }
}

let fresh: { root: string; cleanup: () => void };
let template: { root: string; cleanup: () => void };
let proposal: string;
let reference: { report: CouncilRunReport; tree: Record<string, string>; inputs: unknown[]; steps: number };

let started: { report: CouncilRunReport; steps: number };

beforeAll(async () => {
  fresh = scriptedWorkspace();
  await withWorkspace(fresh.root, async (ws) => ws.sync());
  template = copyFolder(fresh.root);
  let steps = 0;
  const waiting = await withWorkspace(template.root, (ws) =>
    scriptedCouncil(ws, (files) => watchedFiles(files, (n) => (steps = n))).start(SCRIPTED_TASK),
  );
  started = { report: waiting, steps };
  proposal = `${waiting.id}-p1`;
  const copy = copyFolder(template.root);
  try {
    let steps = 0;
    const report = await withWorkspace(copy.root, (ws) =>
      scriptedCouncil(ws, (files) => watchedFiles(files, (n) => (steps = n))).decide(proposal, 'approve', 'Tidy them'),
    );
    reference = { report, tree: ideasTree(copy.root), inputs: logInputs(copy.root, report.log), steps };
  } finally {
    copy.cleanup();
  }
}, 120_000);
afterAll(() => {
  fresh.cleanup();
  template.cleanup();
});

describe('a council task killed at every step', () => {
  it('stops where the researcher is needed, nothing of its proposal done, when killed while it deliberates', {
    timeout: 600_000,
  }, async () => {
    expect([started.report.result.status, started.steps > 0]).toEqual(['AWAITING_RESEARCHER', true]);
    const untouched = ideasTree(fresh.root);
    const differences: unknown[] = [];
    for (let at = 1; at <= started.steps; at++) {
      const copy = copyFolder(fresh.root);
      try {
        const killed = await killedAt(copy.root, 'start', at);
        if (killed.signal !== 'SIGKILL') throw new Error(`step ${at}: not killed (${killed.signal}) ${killed.stderr}`);
        const logs = join(copy.root, 'ideas', SCRIPTED_TASK.idea, 'councils');
        const task = (readdirSync(logs)[0] as string).replace(/\.jsonl$/, '');
        const report = await withWorkspace(copy.root, (ws) => scriptedCouncil(ws).resume(task));
        const got = { result: report.result, tree: ideasTree(copy.root), inputs: logInputs(copy.root, report.log) };
        const want = {
          result: started.report.result,
          tree: untouched,
          inputs: logInputs(template.root, started.report.log),
        };
        if (JSON.stringify(got) !== JSON.stringify(want)) differences.push({ at, got, want });
      } finally {
        copy.cleanup();
      }
    }
    expect(differences).toEqual([]);
  });

  it('after the approval, ends as the uninterrupted task: same result, same files, each input once', {
    timeout: 900_000,
  }, async () => {
    expect([reference.report.result.status, reference.report.result.proposals[0]?.checked]).toEqual([
      'COMPLETED',
      true,
    ]);
    // The task's own work, before the index syncs what it wrote: the journal around each of the five
    // actions' operations, the proposal's file moving through its folders, the history, the episode.
    expect(reference.steps).toBeGreaterThanOrEqual(25);
    const wanted = Number(process.env.CRUCIBLE_COUNCIL_KILLS ?? reference.steps);
    const every = Math.max(1, Math.floor(reference.steps / wanted));
    const differences: unknown[] = [];
    for (let at = 1; at <= reference.steps; at += every) {
      const copy = copyFolder(template.root);
      try {
        const killed = await killedAt(copy.root, proposal, at);
        if (killed.signal !== 'SIGKILL') throw new Error(`step ${at}: not killed (${killed.signal}) ${killed.stderr}`);
        const report = await withWorkspace(copy.root, async (ws) => {
          const council = scriptedCouncil(ws, (files) => watchedFiles(files, () => {}));
          // What the researcher sees after the crash: the proposal still waiting (the approval was
          // not yet logged, or its file not yet rewritten), or the task under way.
          const found = findProposal(council.files, proposal);
          return found?.record.proposal.status === 'AWAITING_RESEARCHER'
            ? council.decide(proposal, 'approve', 'Tidy them')
            : council.resume(proposal.replace(/-p1$/, ''));
        });
        const got = { result: report.result, tree: ideasTree(copy.root), inputs: logInputs(copy.root, report.log) };
        const want = { result: reference.report.result, tree: reference.tree, inputs: reference.inputs };
        if (JSON.stringify(got) !== JSON.stringify(want)) differences.push({ at, got, want });
      } finally {
        copy.cleanup();
      }
    }
    expect(differences).toEqual([]);
  });
});

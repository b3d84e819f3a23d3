import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initWorkspace } from '../../core/node/workspace/init-workspace';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// The council on the CLI, each command as the issue spells it, on a high-stakes task of the
// simulator (seed 3: the three agents agree at once to archive the idea). Nothing is written on any
// path but the researcher's `council approve`: not `council resume`, not `runs resume`, not a
// proposal file edited to say it was approved, not one whose actions were edited (what executes,
// and what the preview shows, is what the council voted on, from its log).

const IDEA = 'reading-tracker-extension';
const README = `ideas/${IDEA}/README.md`;
let root: string;
let cleanup: () => void;
let ws: string;
beforeAll(() => {
  ({ root, cleanup } = tempWorkspace('crucible-council-cli-'));
  ws = join(root, 'lab');
  initWorkspace(ws);
});
afterAll(() => cleanup());

const run = (...args: string[]) => cli([...args, '--workspace', ws]);
const json = (...args: string[]) => {
  const out = run(...args, '--json');
  if (out.code !== 0) throw new Error(`${args.join(' ')} exited ${out.code}: ${out.stderr}`);
  return JSON.parse(out.stdout);
};
const readme = () => readFileSync(join(ws, README));
const pendingFile = (id: string) => join(ws, 'council/proposals/pending', `${id}.json`);

describe('council on the CLI', { timeout: 240_000 }, () => {
  it('runs, lists, shows, resumes, approves, rejects and reverts; only the approval executes a high-stakes proposal', () => {
    const before = readme();
    const started = json(
      'council',
      'run',
      '--task',
      'Archive this idea',
      '--idea',
      IDEA,
      '--provider',
      'simulated',
      '--seed',
      '3',
    );
    const id = `${started.id}-p1`;
    const listed = run('council', 'list');
    const shown = json('council', 'show', id);

    const resumed = json('council', 'resume', started.id);
    const generalResume = run('runs', 'resume', started.id, '--json');

    // A proposal file edited to say it was approved and done, and moved among the approved.
    const forged = JSON.parse(readFileSync(pendingFile(id), 'utf8'));
    forged.proposal = {
      ...forged.proposal,
      status: 'RECORDED',
      decision: 'approved',
      decidedBy: 'researcher',
      awaiting: null,
    };
    writeFileSync(pendingFile(id), JSON.stringify(forged));
    mkdirSync(join(ws, 'council/proposals/approved'), { recursive: true });
    renameSync(pendingFile(id), join(ws, 'council/proposals/approved', `${id}.json`));
    const afterForgedStatus = json('council', 'resume', started.id);
    const backInPending = readdirSync(join(ws, 'council/proposals/pending'));

    // Its actions edited: a deletion of the README in place of the archiving the council agreed on.
    const edited = JSON.parse(readFileSync(pendingFile(id), 'utf8'));
    edited.proposal.versions[0].output.actions = [{ tool: 'delete_file', args: { path: README } }];
    writeFileSync(pendingFile(id), JSON.stringify(edited));
    const preview = json('council', 'preview', id);
    const inbox = json('council', 'inbox');
    const neverExecuted = run('council', 'revert', id);
    const untouched = readme().equals(before);

    const approved = json('council', 'approve', id, '--note', 'Idle for a year');
    const archived = readme().toString('utf8');
    // Its file, done now, edited back to say it waits: the log says the task is over.
    const done = JSON.parse(readFileSync(join(ws, 'council/proposals/approved', `${id}.json`), 'utf8'));
    done.proposal = { ...done.proposal, status: 'AWAITING_RESEARCHER', decision: 'awaiting_researcher' };
    writeFileSync(pendingFile(id), JSON.stringify(done));
    const approvedAgain = run('council', 'approve', id);
    rmSync(pendingFile(id));
    const reverted = run('council', 'revert', id, '--note', 'Changed my mind');
    const restored = readme().equals(before);
    const twice = run('council', 'revert', id);

    const again = json(
      'council',
      'run',
      '--task',
      'Archive this idea',
      '--idea',
      IDEA,
      '--provider',
      'simulated',
      '--seed',
      '3',
    );
    const rejected = json('council', 'reject', `${again.id}-p1`, '--note', 'Not yet');

    expect({
      started: [started.result.status, started.waitsFor],
      listed: [listed.code, listed.stdout.trim()],
      shown: [shown.id, shown.proposal.status, shown.proposal.versions[0].stakes],
      resumed: [resumed.result.status, resumed.waitsFor],
      generalResume: [
        generalResume.code,
        generalResume.code === 0 ? JSON.parse(generalResume.stdout).result.status : generalResume.stderr.trim(),
      ],
      afterForgedStatus: [afterForgedStatus.result.status, backInPending],
      inbox: inbox.map((p: { id: string; versions: { output: { actions: { tool: string }[] } }[] }) => [
        p.id,
        p.versions[0]?.output.actions.map((a) => a.tool),
      ]),
      approvedAgain: [approvedAgain.code, approvedAgain.stderr.trim()],
      preview: preview.files.map((f: { path: string; change: string; after: string | null }) => [
        f.path,
        f.change,
        /^stage: ARCHIVE$/m.test(f.after ?? ''),
      ]),
      neverExecuted: [neverExecuted.code, neverExecuted.stderr.trim()],
      untouched,
      approved: [approved.result.status, approved.result.proposals[0].decidedBy, /^stage: ARCHIVE$/m.test(archived)],
      reverted: [reverted.code, reverted.stdout.trim(), restored],
      twice: [twice.code, twice.stderr.trim()],
      rejected: [rejected.result.status, readme().equals(before)],
    }).toEqual({
      started: ['AWAITING_RESEARCHER', "the researcher's decision on p1"],
      listed: [0, `${id}  AWAITING_RESEARCHER Archive this idea`],
      shown: [id, 'AWAITING_RESEARCHER', 'high'],
      resumed: ['AWAITING_RESEARCHER', "the researcher's decision on p1"],
      generalResume: [0, 'AWAITING_RESEARCHER'],
      afterForgedStatus: ['AWAITING_RESEARCHER', [`${id}.json`]],
      preview: [[README, 'modified', true]],
      inbox: [[id, ['archive_idea']]],
      approvedAgain: [
        1,
        `error: ${id} does not wait for the researcher (its task waits for nothing more (the task is over))`,
      ],
      neverExecuted: [1, `error: ${id} was never executed: there is nothing to revert`],
      untouched: true,
      approved: ['COMPLETED', 'researcher', true],
      reverted: [0, `reverted ${id}: 1 file change(s) undone`, true],
      twice: [1, expect.stringMatching(new RegExp(`^error: ${id} was already reverted`))],
      rejected: ['REJECTED', true],
    });
  });
});

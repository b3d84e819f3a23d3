import { Workspace } from '../../core/node/workspace/workspace';
import { SCRIPTED_TASK, scriptedCouncil, watchedFiles } from './scripted-council';

/**
 * A child process for the kill tests: approves a waiting proposal of the scripted council task in
 * the workspace at ROOT (or, given `start`, starts the task), and SIGKILLs itself right after the
 * AT-th change the council makes to a file (its journal, the files under council/, the idea files):
 * a kill -9 at an exact step.
 *
 *   node --import tsx tests/council/kill-at.ts ROOT PROPOSAL|start AT
 */
const [root, proposal, at] = process.argv.slice(2);
if (!root || !proposal || !at) throw new Error('usage: kill-at.ts ROOT PROPOSAL AT');
const ws = Workspace.open(root);
const council = scriptedCouncil(ws, (files) =>
  watchedFiles(files, (n) => {
    if (n === Number(at)) process.kill(process.pid, 'SIGKILL');
  }),
);
if (proposal === 'start') await council.start(SCRIPTED_TASK);
else await council.decide(proposal, 'approve', 'Tidy them');
ws.close();

import { ScriptError } from '../text/script-lines';
import { CouncilInputError } from './errors';
import { executeAction } from './execution';
import type { CouncilFiles } from './files-port';
import type { CouncilEvent, CouncilInput } from './inputs';
import { describeNeed, need, step } from './lifecycle';
import { checkPostconditions } from './postconditions';
import { type CouncilResult, councilResult } from './result';
import { parseCouncilScript, type ScriptLine } from './replay-script';
import { type CouncilState, currentProposal, initCouncil, lastVersion } from './state';

/**
 * The replay driver: the council asks, the script answers, in order. The actions of an approved
 * proposal really run on the workspace (through `files`, the workspace's safe writes) and are
 * checked there; the researcher's decisions come from the script, and a script that stops where
 * the council waits for one ends AWAITING_RESEARCHER with nothing of that proposal executed.
 * Anything the script gets wrong stops the replay with the line at fault.
 */

export interface CouncilObserver {
  /** Called after every input with the state it made and the events it caused. */
  after(state: CouncilState, events: CouncilEvent[]): void;
}

export interface CouncilReplay {
  taskId: string;
  state: CouncilState;
  result: CouncilResult;
}

/** The file id of a proposal: unique across tasks, as the files under `council/` need. */
export const proposalFileId = (taskId: string, proposal: string) => `${taskId}-${proposal}`;

export function replayCouncil(
  text: string,
  files: CouncilFiles,
  options: { taskId?: string; observer?: CouncilObserver } = {},
): CouncilReplay {
  const script = parseCouncilScript(text);
  const header = script.header.entry;
  if (header.idea !== null && files.meta(header.idea) === null)
    throw new ScriptError(script.header.line, `schema violation at idea: the workspace has no idea "${header.idea}"`);
  const taskId = options.taskId ?? files.newId();
  let state = initCouncil(header);
  const apply = (input: CouncilInput, line: number) => {
    let out: ReturnType<typeof step>;
    try {
      out = step(state, input);
    } catch (e) {
      if (e instanceof CouncilInputError) throw new ScriptError(line, e.message);
      throw e;
    }
    state = out.state;
    options.observer?.after(state, out.events);
  };

  let next = 0;
  for (;;) {
    const due = need(state);
    const at = script.lines[next];
    if (due.kind === 'done') {
      if (at)
        throw new ScriptError(
          at.line,
          `the council asks for nothing more (the task is over); found ${article(at.entry.type)} line`,
        );
      break;
    }
    if (due.kind === 'execute') {
      const p = currentProposal(state);
      const action = p ? lastVersion(p).output.actions[due.action] : undefined;
      if (!p || !action) throw new Error(`no action ${due.action} to execute`);
      const result = executeAction(files, proposalFileId(taskId, p.id), due.action, action);
      apply({ kind: 'executed', proposal: p.id, result }, at?.line ?? script.end);
      continue;
    }
    if (due.kind === 'check') {
      const p = currentProposal(state);
      if (!p) throw new Error('no proposal to check');
      const postconditions = checkPostconditions(lastVersion(p).output.actions, p.results, files);
      apply({ kind: 'checked', proposal: p.id, postconditions }, at?.line ?? script.end);
      continue;
    }
    if (!at) {
      // The researcher may simply not have decided yet; every other answer the script owes.
      if (due.kind === 'researcher') break;
      throw new ScriptError(script.end, `the script ends where the council asks for ${describeNeed(due)}`);
    }
    const entry = at.entry;
    if (due.kind === 'researcher') {
      if (entry.type !== 'researcher')
        throw new ScriptError(
          at.line,
          `expected ${describeNeed(due)} (a researcher line), found ${article(entry.type)} line`,
        );
      apply({ kind: 'researcher', proposal: entry.proposal, decision: entry.decision, note: entry.note }, at.line);
      next++;
      continue;
    }
    const ask = due.ask;
    if (ask.role === 'proposal' && entry.type === 'episode') {
      // No further proposal: the executor is done, and this line answers the episode that follows.
      apply({ kind: 'finish', call: false }, at.line);
      continue;
    }
    const input = inputFor(ask.role, ask.agent, entry);
    if (!input) {
      const found = entry.type === 'review' ? `a review by the ${entry.agent}` : `${article(entry.type)} line`;
      throw new ScriptError(at.line, `expected ${describeNeed(due)}, found ${found}`);
    }
    apply(input, at.line);
    next++;
  }
  return { taskId, state, result: councilResult(state) };
}

/** "a review", "an episode". */
function article(word: string): string {
  return `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;
}

function inputFor(role: string, agent: string, entry: ScriptLine): CouncilInput | null {
  if (entry.type !== role) return null;
  switch (entry.type) {
    case 'proposal':
      return { kind: 'proposal', output: entry.output };
    case 'review':
      return entry.agent === agent ? { kind: 'review', agent: entry.agent, output: entry.output } : null;
    case 'revision':
      return { kind: 'revision', output: entry.output };
    case 'compromise':
      return { kind: 'compromise', output: entry.output };
    case 'outcome':
      return { kind: 'outcome', output: entry.output };
    case 'episode':
      return { kind: 'episode', output: entry.output };
    default:
      return null;
  }
}

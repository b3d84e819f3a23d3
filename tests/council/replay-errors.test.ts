import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayCouncil } from '../../core/council';
import { COUNCIL_FIXTURES, councilWorkspace } from './council-workspace';

const lines = readFileSync(join(COUNCIL_FIXTURES, 'council-replay-small.jsonl'), 'utf8').trim().split('\n');

/** The error a script raises (always `line N: reason`). */
function failure(script: string[]): string {
  const { files, cleanup } = councilWorkspace();
  try {
    replayCouncil(script.join('\n'), files, { taskId: 'T' });
  } catch (error) {
    return (error as Error).message;
  } finally {
    cleanup();
  }
  throw new Error('the script was accepted');
}

describe('a bad council script', () => {
  it('names the line and the reason, whatever is wrong with it', () => {
    const proposal = JSON.parse(lines[1] as string);
    const unknownTool = structuredClone(proposal);
    unknownTool.output.actions[0].tool = 'run_shell';
    const escaping = structuredClone(proposal);
    escaping.output.actions[0].args.path = 'ideas/../../etc/passwd.md';
    const header = JSON.parse(lines[0] as string);
    expect([
      failure([lines[1] as string]),
      failure([lines[0] as string, '{"type":"review",']),
      failure([JSON.stringify({ ...header, config: { maxRound: 3 } })]),
      failure([JSON.stringify({ ...header, idea: 'no-such-idea' })]),
      failure([lines[0] as string, JSON.stringify(unknownTool)]),
      failure([lines[0] as string, JSON.stringify(escaping)]),
      failure(lines.slice(0, 3)),
      failure([...lines.slice(0, 4), '{"type":"researcher","proposal":"p1","decision":"approve"}']),
      failure([...lines, lines[5] as string]),
    ]).toEqual([
      'line 1: the first line must be a council line',
      expect.stringMatching(/^line 2: malformed JSON: /),
      'line 1: schema violation at config: Unrecognized key: "maxRound"',
      'line 1: schema violation at idea: the workspace has no idea "no-such-idea"',
      expect.stringMatching(/^line 2: schema violation at output\.actions\[0\]\.tool: /),
      'line 2: schema violation at output.actions[0].args.path: must not hold empty, "." or ".." parts, nor hidden names',
      'line 4: the script ends where the council asks for a review by the integrator of p1',
      "line 5: expected the verifier's outcome review of p1, found a researcher line",
      'line 7: the council asks for nothing more (the task is over); found an episode line',
    ]);
  });
});

import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { councilRecorder, executeAction, replayCouncil, revertExecution } from '../../core/council';
import { findProposal } from '../../core/council/recorder';
import type { CouncilAction } from '../../core/council/actions';
import type { CouncilFiles } from '../../core/council/files-port';
import { nodeCouncilFiles } from '../../core/node/council/council-files';
import { loadTaxonomy } from '../../core/node/taxonomy-loader';
import { COUNCIL_FIXTURES, councilWorkspace } from './council-workspace';

// Execution on a real folder: nothing is written without consensus, nothing high-stakes without the
// researcher, a revert gives back every byte, an edit made meanwhile is never lost, and a kill at
// any point of an execution, then a resume, neither repeats nor skips an action.

/**
 * Every file under `ideas/` by its hash, and every folder: the whole tree, to compare two moments (a
 * folder left behind by a revert or a rename is a difference too: an empty idea folder still takes
 * the idea's name).
 */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      if (statSync(abs).isDirectory()) {
        out[`${relative(root, abs)}/`] = 'folder';
        walk(abs);
      } else out[relative(root, abs)] = createHash('sha256').update(readFileSync(abs)).digest('hex');
    }
  };
  walk(join(root, 'ideas'));
  return out;
}

const header = (task: string, idea: string | null = 'soil-moisture-lora') => ({
  type: 'council',
  task,
  idea,
  config: {},
});
const justification = { truth: { text: 'every word of it restates what the folder already holds', strength: 0.6 } };
const proposal = (actions: CouncilAction[], expectedOutcomes: string[]) => ({
  type: 'proposal',
  agent: 'executor',
  output: {
    goal: 'tidy the idea',
    actions,
    valueJustification: justification,
    expectedOutcomes,
    risks: [{ risk: 'a file could change', mitigation: 'the safe writes keep both', severity: 'low' }],
  },
});
const review = (agent: string, decision: string) => ({
  type: 'review',
  agent,
  output: { decision, rationale: 'weighed', concerns: [], values: { safety: 0.5 } },
});
const outcome = { type: 'outcome', agent: 'verifier', output: { confirmed: true, notes: 'seen' } };
const episode = {
  type: 'episode',
  agent: 'integrator',
  output: { keyLearnings: [], valuesServed: [], weightAdjustments: [] },
};
const script = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n');

const SOIL = 'ideas/soil-moisture-lora';
/** Every tool that writes, high stakes included: what a revert and a kill must handle. The rename comes last. */
const EVERYTHING: CouncilAction[] = [
  {
    tool: 'edit_section',
    args: { path: `${SOIL}/README.md`, section: 'Open questions', content: '- Is the probe loan confirmed?' },
  },
  { tool: 'write_note', args: { path: `${SOIL}/notes/loan.md`, content: '# Loan\n\nFrom April.\n' } },
  { tool: 'add_tags', args: { idea: 'soil-moisture-lora', tags: ['paused-on-purpose'] } },
  { tool: 'link_ideas', args: { idea: 'soil-moisture-lora', other: 'city-lichens-field-guide', kind: 'related' } },
  { tool: 'set_stage', args: { idea: 'soil-moisture-lora', stage: 'RESEARCH' } },
  // The last file of research/: the folder goes with it.
  { tool: 'delete_file', args: { path: `${SOIL}/research/capacitive-sensor-bench-test.md` } },
  { tool: 'capture_idea', args: { title: 'Probe lending library', text: 'Lend reference probes between groups.' } },
  { tool: 'archive_idea', args: { idea: 'dataset-diff-tool' } },
  // Two writes in one action.
  { tool: 'merge_ideas', args: { idea: 'reading-tracker-extension', into: 'soil-moisture-lora' } },
  // Every file moved (each a copy placed, then the original removed), the README written anew, the old one removed.
  { tool: 'rename_idea', args: { idea: 'soil-moisture-lora', to: 'soil-sensing' } },
];

describe('council execution on a workspace', () => {
  it('writes nothing outside council/ for any example whose proposals were not approved', () => {
    const results: Record<string, boolean> = {};
    for (const name of ['low-tiebreak', 'medium-researcher', 'limit-rounds', 'high-awaiting']) {
      const { root, files, cleanup } = councilWorkspace();
      try {
        const before = tree(root);
        replayCouncil(readFileSync(join(COUNCIL_FIXTURES, `${name}.jsonl`), 'utf8'), files, {
          taskId: 'T',
          observer: councilRecorder(files, 'T'),
        });
        results[name] = JSON.stringify(tree(root)) === JSON.stringify(before);
      } finally {
        cleanup();
      }
    }
    expect(results).toEqual({
      'low-tiebreak': true,
      'medium-researcher': true,
      'limit-rounds': true,
      'high-awaiting': true,
    });
  });

  it('leaves a high-stakes action undone until the researcher approves it, however the agents vote', () => {
    const target = `${SOIL}/research/capacitive-sensor-bench-test.md`;
    const lines = [
      header('Remove the bench test'),
      proposal([{ tool: 'delete_file', args: { path: target } }], [`${target} is gone`]),
      review('verifier', 'approve'),
      review('integrator', 'approve'),
    ];
    const states: string[] = [];
    for (const ending of [[], [{ type: 'researcher', proposal: 'p1', decision: 'reject', note: 'keep it' }, episode]]) {
      const { root, files, cleanup } = councilWorkspace();
      try {
        const out = replayCouncil(script([...lines, ...ending]), files, {
          taskId: 'T',
          observer: councilRecorder(files, 'T'),
        });
        const folder = ['pending', 'rejected'].find((f) => existsSync(join(root, `council/proposals/${f}/T-p1.json`)));
        states.push(`${out.result.status} ${existsSync(join(root, target))} ${folder}`);
      } finally {
        cleanup();
      }
    }
    expect(states).toEqual(['AWAITING_RESEARCHER true pending', 'REJECTED true rejected']);
  });

  it('reverts an executed proposal in one step, byte for byte — files it created removed, files it deleted or moved back — and a second revert changes nothing', () => {
    const { root, files, cleanup } = councilWorkspace();
    try {
      const before = tree(root);
      replayCouncil(
        script([
          header('Tidy soil-moisture-lora'),
          proposal(EVERYTHING, [`${SOIL} is tidied`]),
          review('verifier', 'approve'),
          review('integrator', 'approve'),
          { type: 'researcher', proposal: 'p1', decision: 'approve', note: 'go' },
          outcome,
          episode,
        ]),
        files,
        { taskId: 'T', observer: councilRecorder(files, 'T') },
      );
      const after = tree(root);
      expect({
        results: findProposal(files, 'T-p1')?.record.proposal.results.map((r) => [r.action, r.ok]),
        created: Object.keys(after).filter((p) => !(p in before)),
        gone: Object.keys(before).filter((p) => !(p in after)),
      }).toEqual({
        results: EVERYTHING.map((_, i) => [i, true]),
        created: [
          'ideas/probe-lending-library/',
          'ideas/probe-lending-library/README.md',
          'ideas/soil-sensing/',
          'ideas/soil-sensing/README.md',
          'ideas/soil-sensing/development.md',
          'ideas/soil-sensing/notes/',
          'ideas/soil-sensing/notes/loan.md',
        ],
        // The renamed idea's old folder goes with its last file; so does the emptied research/.
        gone: [
          'ideas/soil-moisture-lora/',
          'ideas/soil-moisture-lora/README.md',
          'ideas/soil-moisture-lora/development.md',
          'ideas/soil-moisture-lora/research/',
          'ideas/soil-moisture-lora/research/capacitive-sensor-bench-test.md',
        ],
      });
      const reverted = revertExecution(files, 'T-p1');
      expect(reverted.conflicts).toEqual([]);
      expect(tree(root)).toEqual(before);
      expect(revertExecution(files, 'T-p1')).toEqual({ changes: reverted.changes, conflicts: [] });
      expect(tree(root)).toEqual(before);
    } finally {
      cleanup();
    }
  });

  it('moves a renamed idea back, every file of it, on revert', () => {
    const { root, files, cleanup } = councilWorkspace();
    try {
      const before = tree(root);
      const result = executeAction(files, 'R-p1', 0, {
        tool: 'rename_idea',
        args: { idea: 'soil-moisture-lora', to: 'soil-sensing' },
      });
      expect(result.ok).toBe(true);
      expect(existsSync(join(root, 'ideas/soil-sensing/research/capacitive-sensor-bench-test.md'))).toBe(true);
      expect(readFileSync(join(root, 'ideas/soil-sensing/README.md'), 'utf8')).toContain('slug: "soil-sensing"');
      expect(existsSync(join(root, SOIL))).toBe(false);
      revertExecution(files, 'R-p1');
      expect(tree(root)).toEqual(before);
    } finally {
      cleanup();
    }
  });

  it('never takes back a file at a move’s target that it did not place, when the original changes meanwhile', () => {
    const { root, files, cleanup } = councilWorkspace();
    try {
      const from = `${SOIL}/research/capacitive-sensor-bench-test.md`;
      const to = 'ideas/soil-sensing/research/capacitive-sensor-bench-test.md';
      const original = readFileSync(join(root, from), 'utf8');
      const edited = `${original}\nA result the researcher added while the council worked.\n`;
      let copied = false;
      let edit = false;
      // Once the action is journalled the researcher copies the file to where the move will put it
      // (the very bytes planned), and then edits the original just as the move goes to remove it.
      const racing: CouncilFiles = {
        ...files,
        write(path, content, expected) {
          const out = files.write(path, content, expected);
          if (path.startsWith('council/executions/') && !copied) {
            copied = true;
            files.restore(to, files.snapshot(from) ?? '', null);
          }
          return out;
        },
        remove(path, expected) {
          if (path === from && !edit) {
            edit = true;
            writeFileSync(join(root, from), edited);
          }
          return files.remove(path, expected);
        },
      };
      const result = executeAction(racing, 'M-p1', 0, {
        tool: 'rename_idea',
        args: { idea: 'soil-moisture-lora', to: 'soil-sensing' },
      });
      expect({
        ok: result.ok,
        failed: result.detail.includes(`${from} changed while it was being moved`),
        from: existsSync(join(root, from)) && readFileSync(join(root, from), 'utf8'),
        to: existsSync(join(root, to)) && readFileSync(join(root, to), 'utf8'),
      }).toEqual({ ok: false, failed: true, from: edited, to: original });
    } finally {
      cleanup();
    }
  });

  it('keeps an edit made during the execution, puts its own version in a conflict copy, and fails the check', () => {
    const { root, files, cleanup } = councilWorkspace();
    try {
      const readme = `${SOIL}/README.md`;
      const theirs = `${readFileSync(join(root, readme), 'utf8')}\nA line the researcher added while the council worked.\n`;
      // The researcher saves the README between the council's read of it and its write.
      const racing: CouncilFiles = {
        ...files,
        write(path, content, expected) {
          if (path === readme) writeFileSync(join(root, readme), theirs);
          return files.write(path, content, expected);
        },
      };
      const out = replayCouncil(
        script([
          header('Fill the open questions'),
          proposal([EVERYTHING[0] as CouncilAction], [`${readme} has new open questions`]),
          review('verifier', 'approve'),
          review('integrator', 'approve'),
          outcome,
          episode,
        ]),
        racing,
        { taskId: 'T' },
      );
      const copies = readdirSync(join(root, SOIL)).filter((n) => n.startsWith('README.conflict-'));
      expect([
        out.result.status,
        out.result.proposals[0]?.checked,
        readFileSync(join(root, readme), 'utf8') === theirs,
        copies.length,
      ]).toEqual(['FAILED', false, true, 1]);
      expect(readFileSync(join(root, SOIL, copies[0] as string), 'utf8')).toContain('- Is the probe loan confirmed?');
    } finally {
      cleanup();
    }
  });

  /**
   * A port that dies (like a kill -9) right after its `at`-th operation that changes a file: the
   * operation is on disk, and the process never hears it returned. Every moment of an execution is
   * one of these: after a journal entry and before the file operation it announces, after a file
   * operation and before the journal records it done, after the journal and before the runner hears.
   */
  const dying = (files: CouncilFiles, at: number): CouncilFiles => {
    let n = 0;
    const guard =
      <A extends unknown[], R>(f: (...a: A) => R) =>
      (...a: A): R => {
        const out = f(...a);
        if (++n === at) throw new Error('killed');
        return out;
      };
    return { ...files, write: guard(files.write), restore: guard(files.restore), remove: guard(files.remove) };
  };
  /** The port with its changing operations counted. */
  const counting = (files: CouncilFiles): { files: CouncilFiles; count: () => number } => {
    let n = 0;
    const counted =
      <A extends unknown[], R>(f: (...a: A) => R) =>
      (...a: A): R => {
        n++;
        return f(...a);
      };
    return {
      files: { ...files, write: counted(files.write), restore: counted(files.restore), remove: counted(files.remove) },
      count: () => n,
    };
  };
  // One id for every new idea, so a plan made twice (killed before it was journalled) reads the same.
  const fixedIds = (files: CouncilFiles): CouncilFiles => ({ ...files, newId: () => '01FIXEDID' });

  it('neither repeats nor skips an action when killed after any file operation or journal entry and resumed', () => {
    /** Runs every action as a runner would: an action whose result came back is never asked again. */
    const runAll = (files: CouncilFiles, killAt: number | null, root: string) => {
      const results: boolean[] = [];
      let port = killAt === null ? files : dying(files, killAt);
      let kills = 0;
      while (results.length < EVERYTHING.length) {
        const i = results.length;
        try {
          results.push(executeAction(port, 'K-p1', i, EVERYTHING[i] as CouncilAction).ok);
        } catch (error) {
          if ((error as Error).message !== 'killed') throw error;
          kills++;
          port = files; // the resumed process
        }
      }
      return { results, kills, tree: tree(root) };
    };
    const clean = councilWorkspace();
    const counted = counting(fixedIds(clean.files));
    const expected = runAll(counted.files, null, clean.root);
    const operations = counted.count();
    clean.cleanup();
    // Each action writes its journal before and after its file operations: 8 actions with one
    // operation (3 each), the merge with two (4), the rename with two moves of two halves each (a
    // copy placed and recorded in the journal, the original removed), the new README and the old
    // one's removal (10): 38 moments.
    expect([expected.results.every(Boolean), operations]).toEqual([true, 38]);
    for (let at = 1; at <= operations; at++) {
      const { root, files, cleanup } = councilWorkspace();
      try {
        const run = runAll(fixedIds(files), at, root);
        expect({ at, results: run.results, tree: run.tree, kills: run.kills }).toEqual({
          at,
          results: expected.results,
          tree: expected.tree,
          kills: 1,
        });
      } finally {
        cleanup();
      }
    }
  });

  it('reverts the same bytes when the revert is killed after any of its operations and run again', () => {
    // Executed once; each trial reverts a copy of that folder.
    const template = councilWorkspace();
    const before = tree(template.root);
    for (const [i, action] of EVERYTHING.entries()) executeAction(fixedIds(template.files), 'V-p1', i, action);
    const copy = () => {
      const { root, cleanup } = councilWorkspace();
      rmSync(join(root, 'ideas'), { recursive: true });
      cpSync(template.root, root, { recursive: true });
      return { root, files: nodeCouncilFiles(root, { stages: [...loadTaxonomy(null).stageIds] }), cleanup };
    };
    const clean = copy();
    const counted = counting(clean.files);
    const expected = revertExecution(counted.files, 'V-p1');
    const operations = counted.count();
    expect([tree(clean.root), expected.conflicts, operations > 20]).toEqual([before, [], true]);
    clean.cleanup();
    try {
      for (let at = 1; at <= operations; at++) {
        const { root, files, cleanup } = copy();
        try {
          expect(() => revertExecution(dying(files, at), 'V-p1')).toThrow('killed');
          const again = revertExecution(files, 'V-p1');
          expect({ at, tree: tree(root), again }).toEqual({ at, tree: before, again: expected });
        } finally {
          cleanup();
        }
      }
    } finally {
      template.cleanup();
    }
  });

  it('keeps an edit made after the execution when reverting: the version from before goes beside it', () => {
    const { root, files, cleanup } = councilWorkspace();
    try {
      const readme = join(root, SOIL, 'README.md');
      const original = readFileSync(readme);
      executeAction(files, 'E-p1', 0, { tool: 'set_stage', args: { idea: 'soil-moisture-lora', stage: 'RESEARCH' } });
      const theirs = `${readFileSync(readme, 'utf8')}\nA line the researcher wrote after the council.\n`;
      writeFileSync(readme, theirs);
      const out = revertExecution(files, 'E-p1');
      const copies = readdirSync(join(root, SOIL)).filter((n) => n.startsWith('README.conflict-'));
      expect({
        changes: out.changes,
        conflicts: out.conflicts.length,
        kept: readFileSync(readme, 'utf8') === theirs,
        copies: copies.map((c) => readFileSync(join(root, SOIL, c)).equals(original)),
      }).toEqual({ changes: [], conflicts: 1, kept: true, copies: [true] });
    } finally {
      cleanup();
    }
  });
});

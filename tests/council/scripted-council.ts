import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { CouncilAction } from '../../core/council/actions';
import type { ProposalOutput } from '../../core/council/answers';
import type { CouncilBrief } from '../../core/council/briefs';
import type { CouncilFiles } from '../../core/council/files-port';
import { parseDebateLog } from '../../core/engine/log-reader';
import { appRoot } from '../../core/node/app-root';
import { CouncilRuns } from '../../core/node/council/council-runs';
import { type ProviderFactory, providerFor } from '../../core/node/debates/providers';
import type { Workspace } from '../../core/node/workspace/workspace';
import type { LlmRequest } from '../../core/ports/llm';

/**
 * A live council task whose executor proposes one high-stakes proposal of many actions (every kind
 * of file operation: an edit, a new note, a deletion, a merge's two writes, a rename's move), the
 * rest played by the simulator (seed 3: everyone approves at once). It waits for the researcher;
 * what follows the approval is what the kill tests interrupt.
 */
export const SCRIPTED_IDEAS = ['soil-moisture-lora', 'reading-tracker-extension', 'dataset-diff-tool'] as const;
const SOIL = 'ideas/soil-moisture-lora';

export const SCRIPTED_ACTIONS: CouncilAction[] = [
  {
    tool: 'edit_section',
    args: { path: `${SOIL}/README.md`, section: 'Open questions', content: '- Is the loan on?' },
  },
  { tool: 'write_note', args: { path: `${SOIL}/notes/loan.md`, content: '# Loan\n\nFrom April.\n' } },
  { tool: 'delete_file', args: { path: `${SOIL}/research/capacitive-sensor-bench-test.md` } },
  { tool: 'merge_ideas', args: { idea: 'reading-tracker-extension', into: 'soil-moisture-lora' } },
  { tool: 'rename_idea', args: { idea: 'dataset-diff-tool', to: 'dataset-diff' } },
];

export const SCRIPTED_PROPOSAL: ProposalOutput = {
  goal: 'Tidy the soil idea and fold the reading tracker into it',
  actions: SCRIPTED_ACTIONS,
  valueJustification: {
    coherence: { text: 'One idea folder should hold what belongs together, named as it is known', strength: 0.7 },
  },
  expectedOutcomes: [
    `${SOIL}/README.md has its open questions, ${SOIL}/notes/loan.md exists`,
    `${SOIL}/research/capacitive-sensor-bench-test.md is gone, ideas/reading-tracker-extension is merged`,
    'ideas/dataset-diff-tool is now ideas/dataset-diff',
  ],
  risks: [{ risk: 'The merge hides the tracker', mitigation: 'It is archived, not deleted', severity: 'medium' }],
};

export const SCRIPTED_TASK = {
  task: 'Tidy these ideas',
  idea: 'soil-moisture-lora',
  provider: 'simulated',
  seed: 3,
} as const;

/** The simulated provider, with the executor's first proposal replaced by the scripted one. */
export const scriptedProviders: ProviderFactory = (name, root, seed) => {
  const inner = providerFor(name, root, seed);
  return {
    ...inner,
    llm: {
      provider: inner.llm.provider,
      async call<T>(request: LlmRequest<T>) {
        const result = await inner.llm.call(request);
        const brief = request.brief as CouncilBrief | undefined;
        if (brief?.kind === 'proposal' && brief.proposals === 0)
          return { ...result, value: { done: false, summary: 'One proposal.', proposal: SCRIPTED_PROPOSAL } as T };
        return result;
      },
    },
  };
};

/** The council's host on `ws` with the scripted provider, its file port wrapped by `wrap`. */
export function scriptedCouncil(ws: Workspace, wrap: (files: CouncilFiles) => CouncilFiles = (f) => f): CouncilRuns {
  const runs = new CouncilRuns(ws, scriptedProviders);
  // The host keeps its port in a readonly field: tests swap it for one that counts or dies.
  (runs as { files: CouncilFiles }).files = wrap(runs.files);
  return runs;
}

/**
 * The port with each operation that changed something counted, and `onChange(n)` called right after
 * the n-th (a kill test SIGKILLs its process there: the change is on disk, nothing after it runs).
 */
export function watchedFiles(files: CouncilFiles, onChange: (n: number) => void): CouncilFiles {
  let n = 0;
  const changed = () => onChange(++n);
  return {
    ...files,
    // One id for a new idea's README, so a plan made again after a kill reads the same.
    newId: () => '01SCRIPTEDIDEA00000000000',
    write(...a) {
      const out = files.write(...a);
      changed();
      return out;
    },
    restore(...a) {
      const out = files.restore(...a);
      changed();
      return out;
    },
    remove(...a) {
      const out = files.remove(...a);
      if (out.removed) changed();
      return out;
    },
  };
}

/** A workspace folder holding the scripted ideas, and a copy of any folder. */
export function scriptedWorkspace(): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'crucible-council-scripted-'));
  for (const slug of SCRIPTED_IDEAS)
    cpSync(join(appRoot(), 'ideas', slug), join(root, 'ideas', slug), { recursive: true });
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export function copyFolder(from: string): { root: string; cleanup: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'crucible-council-copy-'));
  cpSync(from, root, { recursive: true });
  return { root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Every file and folder under `ideas/` (the council's run logs and the index's `_index.md` aside), files by hash. */
export function ideasTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const abs = join(dir, name);
      if (name === 'councils' || name === '_index.md') continue;
      if (statSync(abs).isDirectory()) {
        out[`${relative(root, abs)}/`] = 'folder';
        walk(abs);
      } else out[relative(root, abs)] = createHash('sha256').update(readFileSync(abs)).digest('hex');
    }
  };
  walk(join(root, 'ideas'));
  return out;
}

/** The inputs a run's log holds, in order. */
export function logInputs(root: string, rel: string): unknown[] {
  return parseDebateLog(readFileSync(join(root, rel), 'utf8')).records.flatMap((r) =>
    r.type === 'input' ? [r.input] : [],
  );
}

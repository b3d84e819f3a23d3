import { debateArgs, EVALUATIONS } from '../../tests/goldens/record';
import { cliAsync } from '../../tests/helpers/run-cli-async';

/**
 * The two runs the kill-resume check interrupts, each as a user drives it from the CLI: how it is
 * started, how it is resumed, and what it finally shows (`debates show` / `evaluations show`, as
 * JSON). They are the seeded simulated runs the goldens record (tests/goldens/record.ts).
 */
export interface Subject {
  kind: 'debate' | 'evaluation';
  /** The placeholder its id becomes in the shown JSON. */
  idName: string;
  /**
   * CRUCIBLE_SIMULATED_LATENCY_MS for every process of this subject: the simulator answers at once,
   * and a run must last long enough to be killed halfway through.
   */
  latencyMs: number;
  start(ws: string): string[];
  resume(ws: string, id: string): string[];
  /** `… show ID --json` as printed. */
  show(ws: string, id: string): Promise<string>;
  /** The same, or null when the workspace does not know the run (killed before it saved anything). */
  shownOrNull(ws: string, id: string): Promise<string | null>;
  /** Whether a shown run has ended (no resume could move it further). */
  ended(shown: string): boolean;
}

/** `debates show` / `evaluations show` of `id` as JSON; null when the CLI says there is no such run. */
async function shown(kind: 'debate' | 'evaluation', ws: string, id: string): Promise<string | null> {
  const args = [`${kind}s`, 'show', id, '--workspace', ws, '--json'];
  // Not the synchronous helper: the debate's and the evaluation's trials run side by side.
  const run = await cliAsync(args);
  if (run.code === 1 && run.stderr.startsWith(`error: no ${kind} "${id}"`)) return null;
  if (run.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${run.code}: ${run.stderr}`);
  return run.stdout;
}

async function mustShow(kind: 'debate' | 'evaluation', ws: string, id: string): Promise<string> {
  const text = await shown(kind, ws, id);
  if (text === null) throw new Error(`the ${kind} ${id} is gone`);
  return text;
}

export const debateSubject: Subject = {
  kind: 'debate',
  idName: '<debate-id>',
  latencyMs: 40,
  start: debateArgs,
  resume: (ws, id) => ['resume', id, '--workspace', ws, '--json'],
  show: (ws, id) => mustShow('debate', ws, id),
  shownOrNull: (ws, id) => shown('debate', ws, id),
  ended: (text) =>
    ['completed', 'partial', 'cancelled', 'failed'].includes((JSON.parse(text) as { status: string }).status),
};

/** The standard mode: three rounds, the one a user gets by default. */
const EVALUATION = EVALUATIONS.standard;

export const evaluationSubject: Subject = {
  kind: 'evaluation',
  idName: '<evaluation-id>',
  latencyMs: 100,
  start: (ws) => [
    'evaluate',
    EVALUATION.idea,
    '--workspace',
    ws,
    '--mode',
    'standard',
    '--provider',
    'simulated',
    '--seed',
    String(EVALUATION.seed),
    '--json',
  ],
  resume: (ws, id) => ['evaluate', '--resume', id, '--workspace', ws, '--json'],
  show: (ws, id) => mustShow('evaluation', ws, id),
  shownOrNull: (ws, id) => shown('evaluation', ws, id),
  // `evaluations show` says a locked evaluation's run is `completed` (it said `locked` before).
  ended: (text) => ['completed', 'locked', 'failed'].includes((JSON.parse(text) as { status: string }).status),
};

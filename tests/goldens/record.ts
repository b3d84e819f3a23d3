import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { MODES, type Mode } from '../../core/evaluation/vocabulary';
import { cli } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';
import { normalise } from './normalise';

/**
 * Every golden, made the way a user gets it: the CLI as a real process with `--json`. Replays print
 * what their script fixes; the seeded simulated runs are made in a fresh copy of the sample
 * workspace (`init`), then shown again through `debates show` / `evaluations show`.
 */

export interface Golden {
  /** The file name under tests/goldens/data/. */
  name: string;
  text: string;
}

const ROOT = join(import.meta.dirname, '..', '..');
/** The repository's copy of the shared crux examples (tests/crux/example.test.ts reads it too). */
export const CRUX_EXAMPLES = join(ROOT, 'tests', 'fixtures', 'crux');
export const EVALUATION_FIXTURES = join(ROOT, 'tests', 'evaluation', 'fixtures');

/** The seeded simulated debate: four personas on one of the sample ideas. */
export const DEBATE = {
  idea: 'community-solar-coop',
  agents: ['ethicist', 'field-researcher', 'investor', 'regulator'],
  seed: 7,
};

/** The CLI arguments that start the seeded simulated debate in workspace `ws`. */
export const debateArgs = (ws: string): string[] => [
  'debate',
  '--workspace',
  ws,
  '--idea',
  DEBATE.idea,
  '--agents',
  DEBATE.agents.join(','),
  '--provider',
  'simulated',
  '--seed',
  String(DEBATE.seed),
  '--json',
];
/** One seeded simulated evaluation per mode, each on its own sample idea so none sees another. */
export const EVALUATIONS: Record<Mode, { idea: string; seed: number }> = {
  quick: { idea: 'community-solar-coop', seed: 3 },
  standard: { idea: 'llm-judge-calibration', seed: 3 },
  deep: { idea: 'dataset-diff-tool', seed: 3 },
};

export const replayFiles = (dir: string, pattern: RegExp): string[] =>
  readdirSync(dir)
    .filter((f) => pattern.test(f))
    .sort();

function run(args: string[]): string {
  const done = cli(args);
  if (done.code !== 0) throw new Error(`cli ${args.join(' ')} exited ${done.code}: ${done.stderr}`);
  return done.stdout;
}

export function recordGoldens(): Golden[] {
  const goldens: Golden[] = [];
  for (const file of replayFiles(CRUX_EXAMPLES, /^crux-.*\.jsonl$/)) {
    goldens.push({
      name: `replay-${file.replace(/\.jsonl$/, '')}.json`,
      text: run(['replay', join(CRUX_EXAMPLES, file), '--json']),
    });
  }
  for (const file of replayFiles(EVALUATION_FIXTURES, /\.jsonl$/)) {
    goldens.push({
      name: `evaluate-replay-${file.replace(/\.jsonl$/, '')}.json`,
      text: run(['evaluate', '--replay', join(EVALUATION_FIXTURES, file), '--json']),
    });
  }

  const { root, cleanup } = tempWorkspace('crucible-goldens-');
  const ws = join(root, 'lab');
  try {
    run(['init', ws, '--json']);
    if (!existsSync(join(ws, 'ideas', DEBATE.idea))) throw new Error(`the sample workspace lost ${DEBATE.idea}`);

    const debated = run(debateArgs(ws));
    const debateId = (JSON.parse(debated) as { id: string }).id;
    const debateKnown = { [ws]: '<workspace>', [debateId]: '<debate-id>' };
    const debateName = `debate-simulated-${DEBATE.agents.length}-agents-seed-${DEBATE.seed}`;
    goldens.push({ name: `${debateName}.run.json`, text: normalise(debated, debateKnown) });
    goldens.push({
      name: `${debateName}.show.json`,
      text: normalise(run(['debates', 'show', debateId, '--workspace', ws, '--json']), debateKnown),
    });

    for (const mode of MODES) {
      const { idea, seed } = EVALUATIONS[mode];
      const evaluated = run([
        'evaluate',
        idea,
        '--workspace',
        ws,
        '--mode',
        mode,
        '--provider',
        'simulated',
        '--seed',
        String(seed),
        '--json',
      ]);
      const id = (JSON.parse(evaluated) as { evaluationId: string }).evaluationId;
      const known = { [ws]: '<workspace>', [id]: '<evaluation-id>' };
      const name = `evaluate-simulated-${mode}-seed-${seed}`;
      goldens.push({ name: `${name}.run.json`, text: normalise(evaluated, known) });
      goldens.push({
        name: `${name}.show.json`,
        text: normalise(run(['evaluations', 'show', id, '--workspace', ws, '--json']), known),
      });
    }
  } finally {
    cleanup();
  }
  return goldens;
}

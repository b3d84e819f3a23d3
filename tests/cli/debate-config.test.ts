import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliJson } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// The protocol config from the command line to the debate that runs: `--config FILE` and the flags
// reach the debate's header (the values it ran with, the others grown with its six agents), and a
// wrong value stops the command before anything starts, naming the file or flag and the field.
// (core/node/cli/debate-config.test.ts checks the parsing itself, case by case.)

let root: string;
let cleanup: () => void;
let ws: string;
const AGENTS = 'ethicist,field-researcher,investor,regulator,optimist-engineer,skeptical-economist';

describe('debate --config FILE and the config flags', { timeout: 180_000 }, () => {
  beforeAll(() => {
    ({ root, cleanup } = tempWorkspace('crucible-cli-config-'));
    ws = join(root, 'lab');
    cliJson(['init', ws]);
  });
  afterAll(() => cleanup());

  it('runs the debate with them, the flags over the file, and grows only what it was not given', () => {
    const file = join(root, 'debate.yaml');
    writeFileSync(file, 'maxLockAttempts: 2\nbudgets:\n  DISCOVERY: 9\n  CRUX_LOCK: 5\nsteelmanRule: pairwise\n');
    const base = ['debate', '--workspace', ws, '--topic', 'Should the allotment buy its own gateway?'];
    const run = cliJson<{ id: string }>([
      ...base,
      '--agents',
      AGENTS,
      '--provider',
      'simulated',
      '--config',
      file,
      '--lock-budget',
      '14',
      '--lock-attempts',
      '4',
    ]);
    const shown = cliJson<{ header: { config: Record<string, unknown> } }>(['debates', 'show', run.id, '--workspace', ws]);
    // Six agents: ×1.5 for every count it was not given (EVIDENCE 14 → 21, the retry budget 4 → 6 …).
    expect(shown.header.config).toMatchObject({
      maxLockAttempts: 4,
      steelmanRule: 'pairwise',
      budgets: { DISCOVERY: 9, CRUX_LOCK: 14, EVIDENCE: 21 },
      lockRetryBudget: 6,
      threadHardCap: 60,
    });

    writeFileSync(file, 'budgets:\n  EVIDENCE: 0\n');
    const refused = [
      cli([...base, '--agents', AGENTS, '--provider', 'simulated', '--config', file]),
      cli([...base, '--agents', AGENTS, '--provider', 'simulated', '--evidence-budget', 'lots']),
    ];
    expect(refused.map((r) => [r.code, r.stdout, r.stderr.trim()])).toEqual([
      [1, '', 'error: debate.yaml: budgets.EVIDENCE: Too small: expected number to be >0'],
      [1, '', 'error: --evidence-budget: budgets.EVIDENCE: Invalid input: expected number, received string'],
    ]);
    // Nothing started: the one debate is the first.
    const listed = cliJson<{ debates: unknown[] }>(['debates', 'list', '--workspace', ws]);
    expect(listed.debates).toHaveLength(1);
  });
});

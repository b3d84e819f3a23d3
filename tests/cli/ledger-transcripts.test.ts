import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../core/node/app/create-app';
import { cli, cliJson } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

let root: string;
let cleanup: () => void;
let ws: string;
let slug: string;
let debateId: string;

interface LedgerJson {
  falsifiers: {
    key: string;
    agent: string;
    status: string;
    agentName: string;
    deadline: string;
    deadlineDate: string | null;
    resolution: { outcome: string; resolvedOn: string; note: string } | null;
  }[];
}

// Each step is the CLI as a real process on one workspace: a simulated debate gives the ledger its
// falsifiers and the transcripts their messages.
describe('the CLI reaches the ledger, transcripts, configs and evaluation exports', { timeout: 240_000 }, () => {
  beforeAll(() => {
    ({ root, cleanup } = tempWorkspace('crucible-cli-ledger-'));
    ws = join(root, 'lab');
    cliJson(['init', ws]);
    slug = cliJson<{ ideas: { slug: string }[] }>(['list', '--workspace', ws]).ideas[0]?.slug as string;
    const run = cliJson<{ id: string; status: string }>([
      'debate',
      '--workspace',
      ws,
      '--idea',
      slug,
      '--agents',
      'ethicist,field-researcher,end-user-advocate',
      '--seed',
      '2',
    ]);
    expect(run.status).toBe('completed');
    debateId = run.id;
  });
  afterAll(() => cleanup());

  it('resolves a falsifier into ledger.md, and list and calibration read it back', () => {
    const before = cliJson<LedgerJson>(['ledger', 'list', '--workspace', ws]);
    const target = before.falsifiers.find((f) => f.key.startsWith(`${debateId}/`));
    expect(target?.resolution).toBeNull();
    const key = target?.key as string;

    const bad = cli(['ledger', 'resolve', key, '--outcome', 'maybe', '--workspace', ws]);
    expect([bad.code, bad.stderr]).toEqual([
      1,
      'error: outcome: must be one of falsified, survived, ambiguous, void\n',
    ]);

    const resolved = cliJson<{ path: string; conflict: boolean }>([
      'ledger',
      'resolve',
      key,
      '--outcome',
      'falsified',
      '--on',
      '2026-03-04',
      '--note',
      'The pilot missed its target.',
      '--workspace',
      ws,
    ]);
    expect(resolved).toMatchObject({ path: 'ledger.md', conflict: false });
    const file = readFileSync(join(ws, 'ledger.md'), 'utf8');
    expect(file).toContain(`## ${key}\n- outcome: falsified\n- resolved: 2026-03-04\n`);
    expect(file).toContain('The pilot missed its target.');

    const after = cliJson<LedgerJson>(['ledger', 'list', '--workspace', ws]).falsifiers.find((f) => f.key === key);
    expect(after).toMatchObject({
      status: 'resolved',
      resolution: { outcome: 'falsified', resolvedOn: '2026-03-04', note: 'The pilot missed its target.' },
    });
    const calibration = cliJson<{ agents: { agent: string; scored: number; falsified: number }[] }>([
      'ledger',
      'calibration',
      '--workspace',
      ws,
    ]);
    expect(calibration.agents).toEqual([expect.objectContaining({ agent: target?.agent, scored: 1, falsified: 1 })]);
  });

  it('refuses "survived" before the deadline, naming the falsifier and its deadline, and wants --early for void then', () => {
    // A day before any deadline the simulated debate can write (its relative ones count from today).
    const day = '2020-01-02';
    const { falsifiers } = cliJson<LedgerJson>(['ledger', 'list', '--workspace', ws]);
    const ahead = falsifiers.find((f) => f.deadlineDate !== null && f.deadlineDate > day);
    if (!ahead) throw new Error('the simulated debate declared no falsifier with a readable deadline');
    const before = readFileSync(join(ws, 'ledger.md'), 'utf8');
    const resolve = (outcome: string, ...more: string[]) =>
      cli(['ledger', 'resolve', ahead.key, '--outcome', outcome, '--on', day, ...more, '--workspace', ws]);
    // "Survived" a deadline still to come: refused, --early or not, and nothing written.
    for (const early of [[], ['--early']]) {
      const survived = resolve('survived', ...early);
      expect(survived.code).toBe(1);
      expect(survived.stderr).toContain(`${ahead.agentName}'s falsifier (`);
      expect(survived.stderr).toContain(`by ${ahead.deadline}) is due ${ahead.deadlineDate}, after ${day}`);
    }
    const voidEarly = resolve('void');
    expect(voidEarly.code).toBe(1);
    expect(voidEarly.stderr).toContain('--early');
    expect(readFileSync(join(ws, 'ledger.md'), 'utf8')).toBe(before);
    expect(resolve('void', '--early', '--note', 'The co-op dissolved.').code).toBe(0);
    expect(readFileSync(join(ws, 'ledger.md'), 'utf8')).toContain(
      `## ${ahead.key}\n- outcome: void\n- resolved: ${day}\n`,
    );
  });

  it('searches transcripts exactly as the app does, filters included', async () => {
    const filter = { text: 'pilot', kind: 'debate' as const, agent: 'ethicist' };
    const fromCli = cliJson<{ hits: { id: string; index: number }[]; total: number }>([
      'transcripts',
      'search',
      'pilot',
      '--kind',
      'debate',
      '--agent',
      'ethicist',
      '--workspace',
      ws,
    ]);
    const app = await createApp({ workspaceRoot: ws, watch: false });
    try {
      const fromApp = await app.client.invoke('transcripts:search', filter);
      expect(fromApp.total).toBeGreaterThan(0);
      expect(fromCli).toEqual(JSON.parse(JSON.stringify(fromApp)));
    } finally {
      await app.close();
    }
    const bad = cli(['transcripts', 'search', 'pilot', '--from', '2026-02-30', '--workspace', ws]);
    expect([bad.code, bad.stderr]).toEqual([1, 'error: from: is not a day of the calendar\n']);
  });

  it('takes a protocol config and an evaluation config from files, naming a wrong field', () => {
    const debateConfig = join(root, 'debate.yaml');
    writeFileSync(debateConfig, 'budgets:\n  DISCOVERY: 0\n');
    const bad = cli([
      'debate',
      '--workspace',
      ws,
      '--topic',
      'Moss walls',
      '--agents',
      'ethicist,field-researcher',
      '--config',
      debateConfig,
    ]);
    expect([bad.code, bad.stderr]).toEqual([
      1,
      'error: debate.yaml: budgets.DISCOVERY: Too small: expected number to be >0\n',
    ]);
    writeFileSync(debateConfig, 'maxLockAttempts: 1\nbudgets:\n  DISCOVERY: 3\n');
    const run = cliJson<{ id: string }>([
      'debate',
      '--workspace',
      ws,
      '--topic',
      'Moss walls',
      '--agents',
      'ethicist,field-researcher',
      '--config',
      debateConfig,
      // A flag wins over the file.
      '--lock-attempts',
      '2',
    ]);
    const shown = cliJson<{ header: { config: Record<string, unknown> } }>([
      'debates',
      'show',
      run.id,
      '--workspace',
      ws,
    ]);
    expect(shown.header.config).toEqual({ maxLockAttempts: 2, budgets: { DISCOVERY: 3 } });

    const evalConfig = join(root, 'evaluation.json');
    writeFileSync(evalConfig, JSON.stringify({ mode: 'quick', budgetUsd: 2, rounds: 4 }));
    const refused = cli(['evaluate', slug, '--workspace', ws, '--config', evalConfig]);
    expect([refused.code, refused.stderr]).toEqual([
      1,
      'error: evaluation.json: rounds: is not a field of this input\n',
    ]);
    writeFileSync(evalConfig, JSON.stringify({ mode: 'quick', budgetUsd: 2 }));
    const locked = cliJson<{ evaluationId: string; mode: string }>([
      'evaluate',
      slug,
      '--workspace',
      ws,
      '--config',
      evalConfig,
    ]);
    expect(locked.mode).toBe('quick');
    const listed = cliJson<{ evaluations: { id: string; mode: string; budgetUsd: number | null; status: string }[] }>([
      'evaluations',
      'list',
      '--idea',
      slug,
      '--workspace',
      ws,
    ]);
    expect(listed.evaluations.find((e) => e.id === locked.evaluationId)).toMatchObject({
      mode: 'quick',
      budgetUsd: 2,
      status: 'completed',
    });

    // Its transcript exported: every entry of the transcripts view, in order.
    const out = join(root, 'evaluation-transcript.md');
    cliJson(['export', '--evaluation', locked.evaluationId, '--format', 'md', '--out', out, '--workspace', ws]);
    const transcript = cliJson<{ entries: { seq: number; title: string }[] }>([
      'transcripts',
      'show',
      'evaluation',
      locked.evaluationId,
      '--workspace',
      ws,
    ]);
    const headings = readFileSync(out, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('### '));
    expect(transcript.entries.length).toBeGreaterThan(5);
    expect(headings.map((h) => Number(/^### (\d+)\. /.exec(h)?.[1]))).toEqual(transcript.entries.map((e) => e.seq));
    expect(headings.every((h, i) => h.includes(transcript.entries[i]?.title as string))).toBe(true);
  });
});

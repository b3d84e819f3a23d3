import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { debateDetailSchema } from '../../core/contract';
import { appRoot } from '../../core/node/app-root';
import { debateDetail } from '../../core/node/app/views';
import { DebateService } from '../../core/node/debates/debate-service';
import { Workspace } from '../../core/node/workspace/workspace';
import { cliJson } from '../helpers/run-cli';
import { tempWorkspace } from '../helpers/temp-workspace';

// `debate --baseline`: after the debate, each agent is asked once, alone, through the same provider
// (here the simulator), and that single pass is shown beside the result with both costs; it is kept
// beside the log, so `debates show` and the debate view find it later.

const IDEA = 'community-solar-coop';
const AGENTS = ['ethicist', 'investor', 'regulator'];

let root: string;
let cleanup: () => void;
beforeEach(() => {
  ({ root, cleanup } = tempWorkspace('crucible-baseline-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
});
afterEach(() => cleanup());

interface Ran {
  id: string;
  log: string;
  result: { systemMetrics: { llmCalls: number; costUsd: number } };
  baseline?: {
    agents: { agent: string; single: { side: string; crux: string } | null; debate: unknown }[];
    cost: { single: { llmCalls: number; costUsd: number }; debate: { llmCalls: number; costUsd: number } };
  };
}

const debate = (...extra: string[]) =>
  cliJson<Ran>([
    'debate',
    '--workspace',
    root,
    '--idea',
    IDEA,
    '--agents',
    AGENTS.join(','),
    '--provider',
    'simulated',
    '--seed',
    '5',
    ...extra,
  ]);

describe('debate --baseline', () => {
  it('sets a single pass of one call per agent beside the result, with both costs, and the debate view reads it', () => {
    const ran = debate('--baseline');
    const b = ran.baseline;
    expect({
      agents: b?.agents.map((a) => [a.agent, a.single?.side, a.single?.crux.endsWith('?')]),
      cost: b?.cost,
      stored: existsSync(join(root, ran.log.replace(/\.jsonl$/, '.baseline.json'))),
    }).toEqual({
      agents: [
        ['ethicist', 'UNCERTAIN', true],
        ['investor', 'YES', true],
        ['regulator', 'NO', true],
      ],
      cost: {
        single: { llmCalls: 3, costUsd: 0 },
        debate: { llmCalls: ran.result.systemMetrics.llmCalls, costUsd: 0 },
      },
      stored: true,
    });
    expect(ran.result.systemMetrics.llmCalls).toBeGreaterThan(3);

    const ws = Workspace.open(root);
    try {
      const detail = debateDetailSchema.parse(debateDetail(new DebateService(ws).show(ran.id), null, false));
      expect(detail.baseline).toEqual(b);
    } finally {
      ws.close();
    }
  });

  it('is set beside an ended debate later with `debates baseline ID`, priced first with --estimate', () => {
    const ran = debate();
    const cli = <T>(...extra: string[]) => cliJson<T>(['debates', 'baseline', ran.id, '--workspace', root, ...extra]);
    const estimate = cli<{ calls: number; usd: number; cannotRun: string | null }>('--estimate');
    expect(existsSync(join(root, ran.log.replace(/\.jsonl$/, '.baseline.json')))).toBe(false);
    const comparison = cli<NonNullable<Ran['baseline']>>();
    const shown = cliJson<{ baseline?: unknown }>(['debates', 'show', ran.id, '--workspace', root]);
    expect({ estimate, single: comparison.cost.single, shown: shown.baseline }).toEqual({
      estimate: expect.objectContaining({ calls: AGENTS.length, usd: 0, cannotRun: null }),
      single: { llmCalls: AGENTS.length, costUsd: 0 },
      shown: comparison,
    });
  });

  it('adds nothing when not asked for', () => {
    const ran = debate();
    expect({
      baseline: 'baseline' in ran,
      stored: existsSync(join(root, ran.log.replace(/\.jsonl$/, '.baseline.json'))),
    }).toEqual({
      baseline: false,
      stored: false,
    });
    const ws = Workspace.open(root);
    try {
      expect('baseline' in new DebateService(ws).show(ran.id)).toBe(false);
    } finally {
      ws.close();
    }
  });
});

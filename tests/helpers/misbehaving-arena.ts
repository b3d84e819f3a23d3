import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SimilarityMeasure } from '../../core/arena/config';
import type { DebateRecord } from '../../core/engine/debate-record';
import { appRoot } from '../../core/node/app-root';
import { arenaSetupFor } from '../../core/node/arena/arena-setup';
import { readDebateLog } from '../../core/node/debates/journal';
import type { Provider } from '../../core/node/debates/providers';
import { createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { RunService } from '../../core/node/runs/run-service';
import { Workspace } from '../../core/node/workspace/workspace';
import type { LlmCallRecord } from '../../core/ports/llm';
import { describeError, fakeFor, figures, metered, type RunOptions, type SlipRun } from './misbehaving-runs';

/**
 * An arena with simulated content, through the run service, the one runner and the real SDK,
 * against the fake server slipping like a model on a share of its answers: the arena must end
 * itself (completed, or failed or partial with its reason), never with an exception.
 */

const IDEA = 'llm-judge-calibration';
const DEBATERS = ['investor', 'historian', 'regulator', 'ethicist', 'systems-thinker', 'field-researcher'];

export interface ArenaSlipRun extends Omit<SlipRun, 'records'> {
  /** The arena's log, header first. */
  records: DebateRecord[];
  summary: Record<string, unknown>;
}

export async function misbehavingArena(
  options: RunOptions & { agents: number; trickster?: boolean; similarity?: SimilarityMeasure },
): Promise<ArenaSlipRun> {
  const root = mkdtempSync(join(tmpdir(), 'crucible-arena-slips-'));
  const fake = fakeFor(options);
  await fake.start();
  mkdirSync(join(root, 'ideas'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  const ws = Workspace.open(root);
  const meter = { calls: [] as LlmCallRecord[], structured: 0, failed: 0 };
  let id = '';
  const log = (): DebateRecord[] => {
    if (id === '') return [];
    try {
      return readDebateLog(root, new RunService(ws).logPathOf(id)).records;
    } catch {
      return [];
    }
  };
  try {
    ws.sync();
    const models = loadModelsConfig(null);
    const provider = (): Provider => ({
      llm: metered(
        createAnthropicLlm({
          apiKey: 'test-key',
          baseURL: fake.baseURL,
          prices: models,
          maxRetries: 0,
          sendBriefHeader: true,
        }),
        meter,
      ),
      estimate: () => 0,
      likely: () => 0,
    });
    // As `arena --idea … --provider anthropic` sets one up.
    const { topic, setup } = arenaSetupFor(ws, {
      ideaSlug: IDEA,
      agents: DEBATERS.slice(0, options.agents),
      judge: 'judge',
      trickster: options.trickster ?? false,
      similarity: options.similarity ?? 'judged',
      provider: 'anthropic',
      ledger: { cruxes: [], falsifiers: [] },
    });
    try {
      const report = await new RunService(ws, undefined, provider).start(
        {
          protocol: 'arena',
          ideaSlug: IDEA,
          topic,
          provider: 'anthropic',
          seed: options.seed,
          setup,
          limits: { concurrency: Math.max(4, options.agents), budgetUsd: 50 },
        },
        {
          onStarted: (started) => {
            id = started;
          },
        },
      );
      const run = figures(fake, meter, { ended: report.status, reason: report.reason, exception: null });
      return { ...run, records: log(), summary: report.summary };
    } catch (error) {
      const run = figures(fake, meter, { ended: 'exception', reason: null, exception: describeError(error) });
      return { ...run, records: log(), summary: {} };
    }
  } finally {
    ws.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

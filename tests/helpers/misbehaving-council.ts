import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appRoot } from '../../core/node/app-root';
import { CouncilRuns } from '../../core/node/council/council-runs';
import type { Provider } from '../../core/node/debates/providers';
import { createAnthropicLlm } from '../../core/node/llm/anthropic';
import { loadModelsConfig } from '../../core/node/llm/prices-loader';
import { Workspace } from '../../core/node/workspace/workspace';
import type { LlmCallRecord } from '../../core/ports/llm';
import { describeError, fakeFor, figures, metered, type RunOptions, type SlipRun } from './misbehaving-runs';

/**
 * A council task played by the simulator through the real SDK against the fake server, slips and
 * all, in a temporary copy of one sample idea. The engine must end it itself — completed, partial
 * with its reason, or stopped where the researcher is needed — never with an exception.
 */
export interface CouncilSlipRun extends SlipRun {
  /** The task's result status (COMPLETED, REJECTED, FAILED, LIMIT, AWAITING_RESEARCHER), or null after an exception. */
  result: string | null;
}

export const COUNCIL_SLIP_IDEA = 'soil-moisture-lora';

/** `approve`: the researcher approves whatever waits for them, so the task goes on to execute it. */
export async function misbehavingCouncil(
  options: RunOptions & { task: string; approve?: boolean },
): Promise<CouncilSlipRun> {
  const root = mkdtempSync(join(tmpdir(), 'crucible-council-slips-'));
  const fake = fakeFor(options);
  await fake.start();
  mkdirSync(join(root, 'ideas'));
  cpSync(join(appRoot(), 'ideas', COUNCIL_SLIP_IDEA), join(root, 'ideas', COUNCIL_SLIP_IDEA), { recursive: true });
  const ws = Workspace.open(root);
  const meter = { calls: [] as LlmCallRecord[], structured: 0, failed: 0 };
  try {
    ws.sync();
    const prices = loadModelsConfig(null);
    const provider = (): Provider => ({
      llm: metered(
        createAnthropicLlm({ apiKey: 'test-key', baseURL: fake.baseURL, prices, maxRetries: 0, sendBriefHeader: true }),
        meter,
      ),
      estimate: () => 0,
      likely: () => 0,
    });
    try {
      const council = new CouncilRuns(ws, provider);
      let report = await council.start({
        task: options.task,
        idea: COUNCIL_SLIP_IDEA,
        provider: 'anthropic',
        seed: options.seed,
      });
      for (let guard = 0; options.approve && guard < 10; guard++) {
        const waiting = report.result.proposals.find((p) => p.decision === 'awaiting_researcher');
        if (!waiting || report.status !== 'running') break;
        report = await council.decide(`${report.id}-${waiting.id}`, 'approve', 'go ahead');
      }
      // A task that stops for the researcher is `running` with nothing more to do until a decision.
      const reason = report.reason ?? (report.status === 'running' ? `waits for ${report.waitsFor}` : null);
      return {
        ...figures(fake, meter, { ended: report.status, reason, exception: null }),
        result: report.result.status,
      };
    } catch (error) {
      return {
        ...figures(fake, meter, { ended: 'exception', reason: null, exception: describeError(error) }),
        result: null,
      };
    }
  } finally {
    ws.close();
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}

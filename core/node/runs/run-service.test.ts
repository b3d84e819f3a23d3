import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot } from '../app-root';
import { DebateService } from '../debates/debate-service';
import { EvaluationService } from '../evaluations/evaluation-service';
import { Workspace } from '../workspace/workspace';
import { tempWorkspace } from '../../../tests/helpers/temp-workspace';
import { RunService } from './run-service';

// Crux and evaluation are entries of the one registry (core/protocols.ts): their own services start
// them, and the general run service reads their logs through the entries like any protocol's,
// folding each to what the service that ran it reported.

const IDEA = 'llm-judge-calibration';
let root: string;
let cleanup: () => void;
let ws: Workspace;

beforeAll(() => {
  ({ root, cleanup } = tempWorkspace('crucible-run-service-'));
  cpSync(join(appRoot(), 'ideas', IDEA), join(root, 'ideas', IDEA), { recursive: true });
  ws = Workspace.open(root);
  ws.sync();
});
afterAll(() => {
  ws.close();
  cleanup();
});

describe('crux and evaluation in the registry', () => {
  it('reads a debate and an evaluation through their entries to what their services reported, and starts neither', async () => {
    const debate = await new DebateService(ws).start({
      ideaSlug: IDEA,
      agents: ['optimist-engineer', 'skeptical-economist', 'regulator'],
      provider: 'simulated',
      seed: 2,
    });
    const evaluation = await new EvaluationService(ws).evaluate(IDEA, { mode: 'quick', provider: 'simulated' });
    const runs = new RunService(ws);
    const shownDebate = runs.show(debate.id);
    const shownEvaluation = runs.show(evaluation.document.evaluationId);
    const refusal = await runs
      .start({ protocol: 'crux', topic: 'x', provider: 'simulated', setup: {} })
      .then(() => 'started', (error: Error) => error.message);

    const { result } = debate.outcome;
    expect({
      debate: [shownDebate.protocol, shownDebate.status, shownDebate.log],
      // The whole result but its usage (which the run report gives as costUsd).
      result: { ...shownDebate.summary, systemMetrics: null },
      said: [...new Set(shownDebate.transcript.map((line) => line.author))].sort(),
      evaluation: [shownEvaluation.protocol, shownEvaluation.status, shownEvaluation.log],
      figures: [shownEvaluation.summary.phase, shownEvaluation.summary.overallScore, shownEvaluation.costUsd],
      refusal,
    }).toEqual({
      debate: ['crux', debate.outcome.status, `ideas/${IDEA}/debates/${debate.id}.jsonl`],
      result: JSON.parse(JSON.stringify({ ...result, systemMetrics: null })),
      // Who spoke: every debater by name, and the moderator.
      said: ['Optimist Engineer', 'Regulator', 'Skeptical Economist', 'moderator'],
      evaluation: [
        'evaluation',
        'completed',
        `ideas/${IDEA}/evaluations/${evaluation.document.evaluationId}.run.jsonl`,
      ],
      figures: ['LOCKED', evaluation.document.composites.overallScore, evaluation.costUsd],
      refusal: 'a crux run is started with `debate`, which keeps what it needs beside the log',
    });
  }, 120_000);
});

import { z } from 'zod';
import type { ProtocolEntry, RunResources } from '../../engine/registry';
import { finalSynthesisDocumentSchema } from '../document';
import type { EvaluationInput } from '../inputs';
import { reopen } from '../reopen';
import { evaluationSimulator } from '../simulator';
import { createEvaluation, type EvaluationAsk, type EvaluationSetup, type EvaluationState } from '../state';
import { evaluationProtocol } from './protocol';
import { evaluationEpisode } from '../../memory/evaluation-episode';
import type { EvaluationPrompts } from './requests';

/** What an evaluation's log header holds as its setup: enough to rebuild its first state and run it. */
export interface EvaluationRunSetup {
  slug: string;
  setup: EvaluationSetup & { startedAt: string };
  provider: string;
  seed: number;
  budgetUsd: number;
  /** Model calls made at once (default 6). */
  concurrency?: number;
  /**
   * A dispute: the state is `reopen(record of from, trigger)` with the setup's id and start time,
   * rather than `createEvaluation(setup)`.
   */
  reopen?: { from: string; criterion: string; reason: string };
  /** Earlier runs' episodes every request carries (core/memory), fixed when the run starts. */
  memory?: string[];
}

// The inner setup is the evaluation's own (checked where it is made); the header's frame is checked here.
const runSetupSchema = z.object({
  slug: z.string().min(1),
  setup: z.object({ evaluationId: z.string().min(1), startedAt: z.string() }).passthrough(),
  provider: z.string(),
  seed: z.number().int(),
  budgetUsd: z.number().nonnegative(),
  concurrency: z.number().int().positive().optional(),
  reopen: z.object({ from: z.string(), criterion: z.string(), reason: z.string() }).optional(),
  memory: z.array(z.string()).optional(),
});

/** The state an evaluation's inputs fold over: a fresh evaluation, or the reopening of a locked one. */
export function evaluationInitial(
  run: EvaluationRunSetup,
  resources: Pick<RunResources, 'read' | 'taxonomy'>,
): EvaluationState {
  if (!run.reopen) return createEvaluation(run.setup, resources.taxonomy);
  const text = resources.read(`ideas/${run.slug}/evaluations/${run.reopen.from}.json`);
  if (text === null)
    throw new Error(`the disputed evaluation ${run.reopen.from} has no record in ideas/${run.slug}/evaluations/`);
  const locked = finalSynthesisDocumentSchema.parse(JSON.parse(text));
  return reopen(
    locked,
    { kind: 'dispute', criterion: run.reopen.criterion, reason: run.reopen.reason },
    resources.taxonomy,
    { evaluationId: run.setup.evaluationId, startedAt: run.setup.startedAt },
  );
}

/** What an evaluation's requests are built from: its roles' personas, the idea's inputs, the taxonomy. */
export function evaluationPrompts(
  slug: string,
  resources: RunResources,
  memory?: readonly string[],
): EvaluationPrompts {
  return {
    ideaText: resources.ideaText(slug),
    taxonomy: resources.taxonomy,
    ...(memory?.length ? { memory } : {}),
    persona: (id) => {
      const p = resources.persona(id);
      if (!p)
        throw new Error(
          `the evaluation needs the persona "${id}", which did not load (see resources/personas and your personas/ folder)`,
        );
      return { systemPrompt: p.systemPrompt, tier: p.tier };
    },
  };
}

/** Who said what in an evaluation, in order: each debated challenge, its defence and its ruling. */
function said(state: EvaluationState): { author: string; text: string }[] {
  return state.challenges.flatMap((c) => [
    { author: c.persona, text: `${c.id} on ${c.criterion} (${c.severity}): ${c.challenge}` },
    ...(c.defense === null ? [] : [{ author: `evaluator:${c.category}`, text: `${c.id}: ${c.defense}` }]),
    ...(c.ruling === null ? [] : [{ author: 'arbiter', text: `${c.id}: ${c.ruling.winner} — ${c.ruling.reasoning}` }]),
  ]);
}

/**
 * The evaluation protocol in the registry: its setup is what its log header holds, its logs are
 * `evaluations/<id>.run.jsonl` beside the idea. An evaluation is started by `evaluate`
 * (EvaluationService), which also writes its locked record and documents; the general run service
 * reads its logs like any other run's.
 */
export const evaluationEntry: ProtocolEntry<EvaluationRunSetup, EvaluationState, EvaluationInput, EvaluationAsk> = {
  name: 'evaluation',
  version: 1,
  setup: runSetupSchema as unknown as z.ZodType<EvaluationRunSetup>,
  folder: 'evaluations',
  logName: (id) => `${id}.run.jsonl`,
  startedBy: 'evaluate',
  init: evaluationInitial,
  protocol: (run, { now, resources }) =>
    evaluationProtocol({
      prompts: evaluationPrompts(run.slug, resources, run.memory),
      now: () => new Date(now()).toISOString(),
    }),
  summary: (state) => ({
    phase: state.phase,
    round: state.round,
    lockReason: state.lockReason,
    challenges: state.challenges.length,
    overallScore: state.document?.composites.overallScore ?? null,
  }),
  transcript: said,
  simulator: evaluationSimulator,
  episode: (run, state) => evaluationEpisode(run.slug, state),
};

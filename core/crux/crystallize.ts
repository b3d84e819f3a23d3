import type { AnalysisOutput } from './analysis';
import type { StepContext } from './context';
import { closeThread, emit } from './context';
import { computeDcg } from './dcg';
import { CruxInputError } from './errors';
import { debaters } from './honesty';
import { dominantHorizon } from './horizons';
import type { CruxRecord, CruxState, FinalPosition, ThreadState } from './state';
import { isAgent } from './state';
import { validateCrux } from './validation';
import type { Horizon } from './vocabulary';

// Crystallization is split in two so the state machine never calls out: the step that decides a
// thread is done emits an `analyse` effect, and the driver answers with a `crystallize_output`
// input (from a script line in replay, from the crystallizer agent in a live run).

export function requestCrystallization(
  ctx: StepContext,
  thread: ThreadState,
  reason: 'budget' | 'stability' | 'hardCap',
): void {
  if (thread.awaitingAnalysis) return;
  thread.awaitingAnalysis = true;
  emit(ctx, { type: 'crystallization_requested', thread: thread.id, reason });
  ctx.effects.push({ kind: 'analyse', thread: thread.id });
}

/** Builds the crux from the analysis plus what the thread itself recorded. */
export function buildCrux(state: CruxState, thread: ThreadState, output: AnalysisOutput): CruxRecord {
  const positions: Record<string, FinalPosition> = {};
  const counterfactual: CruxRecord['counterfactual'] = {};
  const horizonByAgent: Record<string, Horizon> = {};

  // The devil's advocate's part ends in discovery: it has no position for the crux to record.
  const agents = debaters(state.agents);
  for (const { id } of agents) {
    const given = output.positions[id];
    const commitment = thread.commitments[id];
    // The thread's falsifier fills a gap in the analysis, never overrides it.
    const falsifier = given?.falsifier ?? thread.falsifiers[id];
    if (given) {
      positions[id] = { side: given.side, statement: given.statement, confidence: given.confidence };
    } else if (commitment) {
      const stance = thread.stances[id];
      positions[id] = {
        side: stance?.side ?? commitment.side,
        statement: commitment.statement,
        confidence: stance?.confidence ?? commitment.confidence,
      };
    }
    const pos = positions[id];
    if (pos && falsifier) pos.falsifier = { ...falsifier };

    const cf = output.counterfactual[id];
    if (cf) counterfactual[id] = { wouldFlip: cf.wouldFlip, why: cf.why };
    if (commitment) horizonByAgent[id] = commitment.horizon;
  }

  const analysed = output.question?.trim() ?? '';
  const question = analysed !== '' ? analysed : (thread.binaryQuestion ?? '');
  const dcg = computeDcg(agents, positions, counterfactual);
  const validationFailures = validateCrux(agents, {
    question,
    positions,
    resolutionCriteria: output.resolutionCriteria,
    counterfactual,
  });

  return {
    question,
    positions,
    resolutionCriteria: [...output.resolutionCriteria],
    counterfactual,
    commonGround: (output.commonGround ?? []).map((c) => ({ statement: c.statement, type: c.type })),
    confidence: output.confidence,
    dcg,
    horizonByAgent,
    dominantHorizon: dominantHorizon(Object.values(horizonByAgent)),
    // The structure and the corrections only where given: a crux without them reads as it always did.
    steelmanPairs: thread.steelmans.map((s) => ({
      from: s.from,
      to: s.to,
      grade: s.grade,
      attempts: s.attempts,
      ...(s.steelman ? { steelman: s.steelman } : {}),
      ...(s.corrections ? { corrections: s.corrections } : {}),
    })),
    concessions: thread.concessions.map((c) => ({ ...c })),
    validated: validationFailures.length === 0,
    validationFailures,
  };
}

/** Applies the driver's answer to an `analyse` effect: the thread converges on its crux. */
export function applyAnalysis(ctx: StepContext, threadId: string, output: AnalysisOutput): void {
  const { state } = ctx;
  const thread = state.threads.find((t) => t.id === threadId);
  if (!thread) throw new CruxInputError(`unknown thread id "${threadId}"`);
  if (!thread.awaitingAnalysis) throw new CruxInputError(`thread "${threadId}" is not waiting for crystallization`);
  for (const id of [...Object.keys(output.positions), ...Object.keys(output.counterfactual)]) {
    if (!isAgent(state, id)) throw new CruxInputError(`unknown agent id "${id}" in the analysis of "${threadId}"`);
  }

  const crux = buildCrux(state, thread, output);
  thread.crux = crux;
  thread.awaitingAnalysis = false;
  state.crystallized.push(thread.id);
  emit(ctx, { type: 'crystallized', thread: thread.id, crux });
  closeThread(ctx, thread, 'CONVERGED', 'crystallized');
  updatePrimary(ctx);
}

/**
 * The primary dispute is the validated crux with the highest DCG; on a tie the one in place keeps
 * it, so a promotion needs a strictly better score. A primary crux that a review took out of the
 * validated ones (./crux-review.ts) gives way to the best one left, if any.
 */
export function updatePrimary(ctx: StepContext): void {
  const { state } = ctx;
  let best: { id: string; score: number } | null = null;
  for (const id of state.crystallized) {
    const crux = state.threads.find((t) => t.id === id)?.crux;
    if (!crux?.validated) continue;
    if (best === null || crux.dcg.score > best.score) best = { id, score: crux.dcg.score };
  }
  // A crux merged into another (./relations.ts) is no longer crystallized, so it cannot stay primary.
  const current = state.crystallized.includes(state.primaryCrux ?? '')
    ? state.threads.find((t) => t.id === state.primaryCrux)?.crux
    : undefined;
  if (current?.validated && best !== null && current.dcg.score >= best.score) return;
  if (best === null) {
    state.primaryCrux = null;
    return;
  }
  if (best.id === state.primaryCrux) return;
  const from = state.primaryCrux;
  state.primaryCrux = best.id;
  state.counters.dcgPromotions += 1;
  emit(ctx, { type: 'primary_crux_changed', from, to: best.id });
}

import type { CommonGroundItem } from './analysis';
import type { CrystallizedCrux } from './coalitions';
import { findCoalitions } from './coalitions';
import { conformityOf } from './conformity';
import { type LlmUsage, NO_LLM_USAGE } from './counters';
import type { CruxRecord } from './record-schemas';
import type { CruxResult, CruxSummary, ThreadResult } from './result-schema';
import type { CruxState, ThreadState } from './state';
import { isOpen } from './state';
import type { Regime } from './vocabulary';

// The debate's outcome in the shape the CLI prints and the checks compare (its schema is in
// ./result-schema.ts). It is derived from the state alone, so it can be computed at any time
// (mid-debate it simply says `partial`).

export type { LlmUsage, SystemMetrics } from './counters';
export type { CruxResult, CruxSummary, ThreadResult } from './result-schema';

/** Half-up rounding that is not fooled by binary fractions (1.005 → 1.01). */
export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round((value + Number.EPSILON * Math.max(1, Math.abs(value))) * factor) / factor;
}

/** Every non-UNCERTAIN position agrees, and there is at least one. */
export function isFullAgreement(crux: CruxRecord): boolean {
  const decided = Object.values(crux.positions)
    .map((p) => p.side)
    .filter((s) => s !== 'UNCERTAIN');
  return decided.length > 0 && decided.every((s) => s === decided[0]);
}

function crystallizedCruxes(state: CruxState): CrystallizedCrux[] {
  const out: CrystallizedCrux[] = [];
  for (const id of state.crystallized) {
    const crux = state.threads.find((t) => t.id === id)?.crux;
    if (crux) out.push({ thread: id, crux });
  }
  return out;
}

/** The debate's coalitions as they stand, before any label (what a labeller is asked to name). */
export function coalitionsOf(state: CruxState) {
  return findCoalitions(state.agents, crystallizedCruxes(state), state.config.coalitions, []);
}

function summarize(crux: CruxRecord): CruxSummary {
  return {
    question: crux.question,
    positions: crux.positions,
    resolutionCriteria: crux.resolutionCriteria,
    counterfactual: crux.counterfactual,
    dcg: {
      coverage: round(crux.dcg.coverage, 2),
      polarity: round(crux.dcg.polarity, 2),
      impact: round(crux.dcg.impact, 2),
      score: round(crux.dcg.score, 2),
    },
    horizonByAgent: crux.horizonByAgent,
    dominantHorizon: crux.dominantHorizon,
    steelmanPairs: crux.steelmanPairs,
    validated: crux.validated,
    validationFailures: crux.validationFailures,
    commonGround: crux.commonGround,
    concessions: crux.concessions,
    confidence: crux.confidence,
    // Only a challenged crux has one, so an unchallenged crux reads as it always did.
    ...(crux.history ? { history: crux.history } : {}),
  };
}

function threadResult(thread: ThreadState): ThreadResult {
  return {
    id: thread.id,
    topic: thread.topic,
    status: thread.status,
    binaryQuestion: thread.binaryQuestion,
    participants: thread.participants,
    stages: {
      discovery: { messages: thread.messages.DISCOVERY },
      cruxLock: { messages: thread.messages.CRUX_LOCK, lockAttempts: thread.lockAttempts },
      evidence: { messages: thread.messages.EVIDENCE },
    },
    lockFailures: thread.lastLockFailures,
    crux: thread.crux ? summarize(thread.crux) : null,
    ...(thread.mergedInto ? { mergedInto: thread.mergedInto } : {}),
  };
}

export function buildResult(state: CruxState, usage: LlmUsage = NO_LLM_USAGE): CruxResult {
  const cruxes = crystallizedCruxes(state);

  // Stable sort: equal DCG keeps crystallization order.
  const irreducible = cruxes
    .filter(({ crux }) => crux.validated)
    .sort((a, b) => b.crux.dcg.score - a.crux.dcg.score)
    .map(({ thread }) => thread);

  const agreed = cruxes.filter(({ crux }) => isFullAgreement(crux));
  const commonGround: CommonGroundItem[] = [
    ...cruxes.flatMap(({ crux }) => crux.commonGround),
    ...agreed.map(({ crux }) => ({ statement: crux.question, type: 'crux' })),
  ];

  let regime: Regime;
  if (state.threads.some(isOpen)) regime = 'partial';
  else if (irreducible.length > 0) regime = 'polarized';
  else if (agreed.length > 0) regime = 'consensus';
  else regime = 'inconclusive';

  const conformity = conformityOf(
    state,
    (t) => t.crux !== null && isFullAgreement(t.crux),
    (v) => round(v, 4),
  );
  const c = state.counters;
  const result = JSON.parse(
    JSON.stringify({
      topic: state.topic,
      regime,
      primaryCrux: irreducible[0] ?? null,
      irreducibleCruxes: irreducible,
      commonGround,
      coalitions: findCoalitions(state.agents, cruxes, state.config.coalitions, state.coalitionLabels),
      threads: state.threads.map(threadResult),
      systemMetrics: {
        messagesTotal: c.messagesTotal,
        messagesBlocked: c.messagesBlocked,
        reasonsBlocked: c.reasonsBlocked,
        moderatorInterventions: c.moderatorInterventions,
        cruxLockAttempts: c.cruxLockAttempts,
        cruxLockSuccesses: c.cruxLockSuccesses,
        cruxLockFailures: c.cruxLockFailures,
        steelmanAttempts: c.steelmanAttempts,
        steelmanRetries: c.steelmanRetries,
        steelmanAccuracyRate: c.steelmanGraded === 0 ? 0 : round(c.steelmanAccurate / c.steelmanGraded, 4),
        cheapConcessions: c.cheapConcessions,
        horizonMismatches: c.horizonMismatches,
        dcgPromotions: c.dcgPromotions,
        threadsSpawned: c.threadsSpawned,
        threadSpawnRejections: c.threadSpawnRejections,
        ...usage,
      },
      // Last, and only when a position changed: a result with none is byte for byte what it was.
      ...(conformity ? { conformity } : {}),
      // After it, and only once a pair of cruxes was looked at: a result without one is unchanged.
      ...(state.relations.length > 0
        ? { relations: state.relations.map((r) => ({ ...r, confidence: round(r.confidence, 4) })) }
        : {}),
      // A partial result says so in one word: "Confidence: LOW" (seed 000, partial results).
      ...(regime === 'partial' ? { confidence: 'LOW' as const } : {}),
    } satisfies CruxResult),
  ) as CruxResult;
  // A detached copy: callers may keep or change the result without reaching into the state.
  return result;
}

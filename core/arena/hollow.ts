import type { ArenaState } from './state';
import { currentProposal } from './state';

/** The four checks, in the order a report lists them. */
export const HOLLOW_REASONS = ['ADOPTION', 'UNADDRESSED_CRITICAL', 'THIN_EVIDENCE', 'TOO_FAST'] as const;
export type HollowReason = (typeof HOLLOW_REASONS)[number];

/** What the re-vote after the trickster's challenge did to the consensus. */
export type AfterChallenge = 'held' | 'moved' | 'broken';

/**
 * The hollow-consensus check, with the numbers behind each reason (taken once, before any challenge).
 * `detected` false with no shares means the check never ran: no vote reached consensus.
 */
export interface HollowReport {
  detected: boolean;
  reasons: HollowReason[];
  /** Adopted changes over all changes of every revision-shaped answer so far (0 with no change). */
  adoptionShare?: number;
  /** Agents that adopted at least once. */
  adopters?: number;
  /** CRITICAL critiques of the winning proposal that its author never listed in `addressed`. */
  unaddressedCritical?: string[];
  /** Claims of the winning proposal with at least one evidence item, over its claims. */
  evidenceShare?: number;
  /** Changes whose reason cites a critique. */
  critiqueChanges?: number;
  /** The revision round the arena converged in, if it converged early. */
  convergedIn?: number | null;
  /** Held: the re-vote reached consensus on the same proposal; moved: on another; broken: no consensus. */
  afterChallenge?: AfterChallenge;
}

/** The check of a consensus on `leader`'s proposal, in the state right after the vote that reached it. */
export function checkHollow(state: ArenaState, leader: string): HollowReport {
  const changes = state.revisions.flatMap((r) => r.changes.map((c) => ({ agent: r.agent, because: c.because })));
  const adopted = changes.filter((c) => 'adopted' in c.because);
  const adopters = new Set(adopted.map((c) => c.agent)).size;
  const adoptionShare = changes.length === 0 ? 0 : adopted.length / changes.length;

  const addressed = new Set(state.revisions.filter((r) => r.agent === leader).flatMap((r) => r.addressed));
  const unaddressedCritical = state.critiques
    .filter((c) => c.target === leader && c.severity === 'CRITICAL' && !addressed.has(c.id))
    .map((c) => c.id);

  const claims = currentProposal(state, leader)?.claims ?? [];
  const supported = claims.filter((c) => c.evidence.length > 0).length;
  const evidenceShare = claims.length === 0 ? 0 : supported / claims.length;

  const critiqueChanges = changes.filter((c) => 'critique' in c.because).length;
  const convergedIn = state.earlyConsensus ? (state.convergence[state.convergence.length - 1]?.round ?? null) : null;

  const holds: Record<HollowReason, boolean> = {
    ADOPTION: adoptionShare >= 0.5 && adopters >= 2,
    UNADDRESSED_CRITICAL: unaddressedCritical.length > 0,
    THIN_EVIDENCE: evidenceShare < 0.5,
    TOO_FAST: convergedIn === 3 && critiqueChanges === 0,
  };
  const reasons = HOLLOW_REASONS.filter((r) => holds[r]);
  return {
    detected: reasons.length > 0,
    reasons,
    adoptionShare,
    adopters,
    unaddressedCritical,
    evidenceShare,
    critiqueChanges,
    convergedIn,
  };
}

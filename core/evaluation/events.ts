import type { ConvergenceReport } from './convergence';
import type { ChallengeRecord, DroppedChallenge } from './state';
import type { LockReason, Mode, Phase, RedTeamPersona, Winner } from './vocabulary';

// Everything the evaluation decides, as plain data in the order it happened. An engine appends
// these to the evaluation's log and a UI streams them; each carries what a reader needs without
// looking the state up.

export type EvaluationEvent =
  | { type: 'phase_changed'; from: Phase; to: Phase; reason: string }
  | {
      type: 'evaluation_started';
      evaluationId: string;
      mode: Mode;
      scope: 'FULL' | 'TARGETED';
      supersedes: string | null;
    }
  | { type: 'scores_carried_over'; from: string; criteria: number }
  | {
      type: 'initial_scores';
      category: string;
      scores: { criterion: string; score: number; confidence: number }[];
    }
  | { type: 'round_started'; round: number; personas: RedTeamPersona[]; targets: string[]; focus: string | null }
  | { type: 'challenges_received'; round: number; persona: RedTeamPersona; count: number }
  | { type: 'challenge_accepted'; challenge: ChallengeRecord }
  | ({ type: 'challenge_dropped'; round: number } & DroppedChallenge)
  | { type: 'defense_recorded'; challengeId: string; criterion: string }
  | {
      type: 'ruling';
      challengeId: string;
      criterion: string;
      winner: Winner;
      scoreAdjustment: number;
      scoreBefore: number;
      scoreAfter: number;
      resolved: boolean;
      firstPrinciplesBonus: boolean;
      /** A passive arbiter: the score moves when the round is settled (`round_settled`), not now. */
      settlesAtRoundEnd?: boolean;
    }
  | {
      type: 'round_settled';
      round: number;
      /** Each criterion ruled on: where it stood, where it ends, and the adjustments' sum before the bound. */
      moves: { criterion: string; from: number; to: number; sum: number }[];
    }
  | {
      type: 'synthesis_applied';
      round: number;
      changes: { criterion: string; from: number; to: number; confidence: number }[];
      newInsights: string[];
    }
  | { type: 'round_completed'; round: number; status: 'complete' | 'partial' }
  | { type: 'round_abandoned'; round: number; reason: string }
  | { type: 'convergence_checked'; report: ConvergenceReport }
  | { type: 'limit_reached'; limit: 'BUDGET' | 'TIMEOUT'; phase: Phase }
  | { type: 'user_approved'; phase: Phase }
  | { type: 'round_added'; roundLimit: number; phase: Phase }
  | { type: 'narrative_recorded'; source: 'agent' | 'figures' }
  | { type: 'evaluation_locked'; reason: LockReason; overallScore: number; overallConfidence: number }
  | { type: 'evaluation_failed'; phase: Phase; reason: string }
  | { type: 'evaluation_reset'; retry: number };

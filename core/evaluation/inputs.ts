import type {
  ArbiterAnswer,
  DefenseAnswer,
  EvaluatorAnswer,
  Narrative,
  RedTeamAnswer,
  SynthesisAnswer,
} from './answers';
import type { RedTeamPersona } from './vocabulary';

// What a driver may feed the evaluation. Answers name the ask they answer (the category, persona
// and round, challenge id or round), so the machine can check that somebody asked for them. Every
// input may carry `at`, an ISO time: the latest one is the evaluation's clock (completedAt and the
// duration come from it; the machine itself never reads a clock).

interface Timed {
  /** When the input happened (ISO 8601); optional, and never earlier than the clock in effect. */
  at?: string;
}

export type EvaluationInput = Timed &
  (
    | { kind: 'start' }
    | { kind: 'evaluator'; category: string; answer: EvaluatorAnswer }
    | { kind: 'redteam'; persona: RedTeamPersona; round: number; answer: RedTeamAnswer }
    | { kind: 'defense'; challengeId: string; answer: DefenseAnswer }
    | { kind: 'arbiter'; challengeId: string; answer: ArbiterAnswer }
    | { kind: 'synthesis'; round: number; answer: SynthesisAnswer }
    | { kind: 'narrative'; answer: Narrative }
    /** No more model calls may be paid for. */
    | { kind: 'budget_exhausted' }
    /** The evaluation's time limit passed. */
    | { kind: 'timeout' }
    /** The researcher accepts the evaluation as it stands ("force convergence"). */
    | { kind: 'user_approved' }
    /** The researcher grants one more round than the limit ("Add Round", seed 12A.10). */
    | { kind: 'add_round' }
    | { kind: 'fail'; reason: string }
    | { kind: 'retry' }
  );

export type EvaluationInputKind = EvaluationInput['kind'];

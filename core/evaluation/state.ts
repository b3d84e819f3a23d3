import type { Taxonomy } from '../taxonomy/taxonomy';
import type { Narrative, RaisedChallenge } from './answers';
import type { EvaluationConfig, EvaluationConfigOverrides } from './config';
import { resolveConfig } from './config';
import type { ConvergenceReport } from './convergence';
import type { FinalSynthesisDocument } from './document';
import { EvaluationInputError } from './errors';
import type { DropReason, LockReason, Mode, Phase, RedTeamPersona, Severity, Winner } from './vocabulary';
import { MODE_SETTINGS, MODES } from './vocabulary';

// The whole evaluation as one plain JSON value: no classes, Maps or functions. It can be saved
// after any input (a checkpoint), compared with toEqual, and rebuilt by folding the input log over
// the state `createEvaluation` returned. Records keyed by criterion id hold data only; whenever
// order matters the code walks `criteria`, which keeps the taxonomy's order.

export interface CategoryInfo {
  id: string;
  name: string;
  weight: number;
  /** Criterion ids, in taxonomy order. */
  criteria: string[];
}

export interface CriterionInfo {
  id: string;
  name: string;
  category: string;
  critical: boolean;
}

/** Where a criterion stands now. */
export interface Standing {
  score: number;
  confidence: number;
  /** The evaluator's reasoning from nucleation (or the carried-over final reasoning). */
  reasoning: string;
  /** The synthesis agent's latest open questions on this criterion. */
  openQuestions: string[];
}

export interface Ruling {
  winner: Winner;
  /** As the arbiter gave it; the score actually moved by `scoreAfter − scoreBefore` (clamped). */
  scoreAdjustment: number;
  firstPrinciplesBonus: boolean;
  fallacies: string[];
  reasoning: string;
}

/** One debated challenge: the red team's point, the evaluator's answer, the ruling, the outcome. */
export interface ChallengeRecord {
  /** `r<round>c<n>`, n counting the round's accepted challenges from 1. */
  id: string;
  round: number;
  persona: RedTeamPersona;
  criterion: string;
  category: string;
  severity: Severity;
  challenge: string;
  defense: string | null;
  ruling: Ruling | null;
  scoreBefore: number | null;
  scoreAfter: number | null;
  /** The evaluator won, or the red team won and the score moved. */
  resolved: boolean;
  /** How the round's synthesis settled the criterion this challenge was about. */
  resolution: { prevailingPosition: string; resolutionReasoning: string; score: number } | null;
}

/** A raised challenge that was not debated, and why. */
export interface DroppedChallenge {
  persona: RedTeamPersona;
  criterion: string;
  severity: Severity;
  challenge: string;
  reason: DropReason;
  /** For a repeat: the id of the debated challenge it repeats, when it has one. */
  repeatOf: string | null;
}

export type RoundStatus = 'open' | 'complete' | 'partial';

export interface RoundRecord {
  round: number;
  /** `open` while running; `partial` when a limit or the researcher cut it short after a ruling. */
  status: RoundStatus;
  /** The one criterion of a disputed round, else null. */
  focus: string | null;
  /** The criteria proposed to the red team (highest scores, lowest confidences). */
  targets: string[];
  personas: RedTeamPersona[];
  /** Challenges returned per persona, kept until every persona of the round has answered. */
  pending: { persona: RedTeamPersona; challenges: RaisedChallenge[] }[];
  /** Every challenge the red team returned this round, dropped ones included. */
  raised: number;
  /** Ids of the debated challenges. */
  accepted: string[];
  dropped: DroppedChallenge[];
  synthesized: boolean;
  /** The synthesis' insights that no earlier insight already said. */
  newInsights: string[];
  /** Copied from the locked evaluation this one reopens. */
  inherited: boolean;
}

/** Work the machine waits for; the driver answers each ask with the matching input. */
export type EvaluationAsk =
  | { kind: 'ask'; role: 'evaluator'; category: string; criteria: string[] }
  | {
      kind: 'ask';
      role: 'redteam';
      persona: RedTeamPersona;
      round: number;
      /** Criteria worth attacking, best first; a prompt suggestion except in a disputed round. */
      targets: string[];
      /** Set in a disputed round: challenges on any other criterion are dropped. */
      focus: string | null;
      /** This persona's fair share of the round's challenges. */
      suggestedCount: number;
    }
  | { kind: 'ask'; role: 'defense'; challengeId: string; category: string; criterion: string }
  | { kind: 'ask'; role: 'arbiter'; challengeId: string; criterion: string }
  | { kind: 'ask'; role: 'synthesis'; round: number; touched: string[] }
  | { kind: 'ask'; role: 'narrative' };

export type EvaluationEffect = EvaluationAsk;

export interface EvaluationState {
  evaluationId: string;
  idea: { id: string; title: string };
  mode: Mode;
  config: EvaluationConfig;
  personas: RedTeamPersona[];
  /** The hash of the idea's inputs when the evaluation started (seed appendix H). */
  contentHash: string;
  /** Development questions asked and answered: information completeness. */
  information: { asked: number; answered: number };
  categories: CategoryInfo[];
  criteria: CriterionInfo[];
  /** FULL from nucleation; TARGETED for one disputed round on one criterion. */
  scope: 'FULL' | 'TARGETED';
  /** The locked evaluation this one replaces, if any. */
  supersedes: string | null;
  dispute: { criterion: string; reason: string } | null;
  startedAt: string;
  /** The latest `at` seen (or startedAt). */
  clock: string;
  phase: Phase;
  /** The current round, or the last one run; 0 before the first. */
  round: number;
  /** The last round this evaluation may run. */
  roundLimit: number;
  scores: Record<string, Standing>;
  /** Scores at the end of each round by criterion id; index 0 holds the initial scores. */
  snapshots: Record<string, number>[];
  rounds: RoundRecord[];
  challenges: ChallengeRecord[];
  /** Asks not answered yet, in the order they were made. */
  awaiting: EvaluationAsk[];
  /** One report per completed round (the document measures once more at the lock). */
  convergence: ConvergenceReport[];
  /** Chosen on entering REVIEWING. */
  lockReason: LockReason | null;
  narrative: Narrative | null;
  /** `agent` when the narrative agent wrote it; `figures` when no call was allowed any more. */
  narrativeSource: 'agent' | 'figures' | null;
  document: FinalSynthesisDocument | null;
  failure: string | null;
  failures: { phase: Phase; reason: string }[];
  retries: number;
  /** The state as created, for a retry; null inside the baseline itself. */
  baseline: EvaluationState | null;
}

export interface EvaluationSetup {
  evaluationId: string;
  idea: { id: string; title: string };
  mode: Mode;
  contentHash: string;
  information?: { asked: number; answered: number };
  config?: EvaluationConfigOverrides;
  /** ISO time; the Unix epoch when omitted, so replays stay deterministic. */
  startedAt?: string;
  supersedes?: string | null;
}

export const EPOCH = '1970-01-01T00:00:00.000Z';

export function isIsoTime(value: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value))
  );
}

/** The criteria and categories an evaluation needs, copied out of the taxonomy as plain data. */
export function criteriaOf(taxonomy: Taxonomy): { categories: CategoryInfo[]; criteria: CriterionInfo[] } {
  if (taxonomy.scale.min !== 1 || taxonomy.scale.max !== 10) {
    throw new EvaluationInputError(
      `the evaluation protocol scores from 1 to 10, but the taxonomy's scale is ${taxonomy.scale.min}–${taxonomy.scale.max}`,
    );
  }
  const criteria = taxonomy.criteria.map((c) => ({
    id: c.id,
    name: c.name,
    category: c.category,
    critical: c.critical,
  }));
  const categories = taxonomy.categories.map((c) => ({
    id: c.id,
    name: c.name,
    weight: c.weight,
    criteria: criteria.filter((k) => k.category === c.id).map((k) => k.id),
  }));
  return { categories, criteria };
}

function checkSetup(setup: EvaluationSetup): void {
  const problems: string[] = [];
  if (setup.evaluationId.trim() === '') problems.push('evaluationId must not be empty');
  if (setup.idea.id.trim() === '') problems.push('idea.id must not be empty');
  if (!(MODES as readonly string[]).includes(setup.mode)) problems.push(`unknown mode "${setup.mode}"`);
  const info = setup.information;
  if (info) {
    const whole = (n: number) => Number.isInteger(n) && n >= 0;
    if (!whole(info.asked) || !whole(info.answered)) problems.push('information counts must be whole numbers ≥ 0');
    else if (info.answered > info.asked) {
      problems.push(`information: ${info.answered} questions answered but only ${info.asked} asked`);
    }
  }
  if (setup.startedAt !== undefined && !isIsoTime(setup.startedAt)) {
    problems.push(`startedAt "${setup.startedAt}" is not an ISO time`);
  }
  if (problems.length > 0) throw new EvaluationInputError(problems.join('; '));
}

/** A fresh evaluation in PENDING; the `start` input begins nucleation. */
export function createEvaluation(setup: EvaluationSetup, taxonomy: Taxonomy): EvaluationState {
  checkSetup(setup);
  const { categories, criteria } = criteriaOf(taxonomy);
  const config = resolveConfig(setup.mode, setup.config);
  const startedAt = setup.startedAt ?? EPOCH;
  const state: EvaluationState = {
    evaluationId: setup.evaluationId,
    idea: { id: setup.idea.id, title: setup.idea.title },
    mode: setup.mode,
    config,
    personas: [...MODE_SETTINGS[setup.mode].personas],
    contentHash: setup.contentHash,
    information: { ...(setup.information ?? { asked: 0, answered: 0 }) },
    categories,
    criteria,
    scope: 'FULL',
    supersedes: setup.supersedes ?? null,
    dispute: null,
    startedAt,
    clock: startedAt,
    phase: 'PENDING',
    round: 0,
    roundLimit: config.maxRounds,
    scores: {},
    snapshots: [],
    rounds: [],
    challenges: [],
    awaiting: [],
    convergence: [],
    lockReason: null,
    narrative: null,
    narrativeSource: null,
    document: null,
    failure: null,
    failures: [],
    retries: 0,
    baseline: null,
  };
  return withBaseline(state);
}

/** Stores a copy of the state as the point a retry starts over from. */
export function withBaseline(state: EvaluationState): EvaluationState {
  state.baseline = JSON.parse(JSON.stringify({ ...state, baseline: null })) as EvaluationState;
  return state;
}

export function criterionInfo(state: EvaluationState, id: string): CriterionInfo | undefined {
  return state.criteria.find((c) => c.id === id);
}

export function currentRound(state: EvaluationState): RoundRecord | undefined {
  const last = state.rounds[state.rounds.length - 1];
  return last && last.status === 'open' ? last : undefined;
}

/** Current scores by criterion id. */
export function scoreMap(state: EvaluationState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of state.criteria) {
    const s = state.scores[c.id];
    if (s) out[c.id] = s.score;
  }
  return out;
}

/** Challenges that reached a ruling: the exchanges every figure counts. */
export function ruledChallenges(state: EvaluationState): ChallengeRecord[] {
  return state.challenges.filter((c) => c.ruling !== null);
}

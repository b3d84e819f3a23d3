import type { Taxonomy } from '../taxonomy/taxonomy';
import { completeConfig, type EvaluationConfigOverrides } from './config';
import type { FinalSynthesisDocument } from './document';
import { finalSynthesisDocumentSchema } from './document';
import { ReopenError } from './errors';
import type { ChallengeRecord, EvaluationState, RoundRecord } from './state';
import { createEvaluation, criteriaOf, isIsoTime, withBaseline } from './state';
import type { Mode } from './vocabulary';

// Reopening a locked evaluation (design page, seed 12A.9). The locked document is only read: a
// reopened evaluation is a new state, and its document names the old one in `supersedes`.

export const MIN_DISPUTE_REASON = 50;

export type ReopenTrigger =
  /** The researcher disputes one criterion: one targeted round on it, then lock again. */
  | { kind: 'dispute'; criterion: string; reason: string }
  /** The idea's inputs changed materially: a full evaluation from nucleation. */
  | {
      kind: 'new_information';
      /** The hash of the idea's inputs now; it must differ from the locked one. */
      contentHash: string;
      information?: { asked: number; answered: number };
      /** Another mode for the new run; the locked one's mode by default. */
      mode?: Mode;
    };

export interface ReopenOptions {
  /** The new evaluation's id; `<old id>-reopened` by default (a live app passes a fresh ULID). */
  evaluationId?: string;
  startedAt?: string;
}

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A new evaluation state (PENDING: send `start`) that reopens `locked` for `trigger`. */
export function reopen(
  locked: FinalSynthesisDocument,
  trigger: ReopenTrigger,
  taxonomy: Taxonomy,
  options: ReopenOptions = {},
): EvaluationState {
  const checked = finalSynthesisDocumentSchema.safeParse(locked);
  if (!checked.success) throw new ReopenError('only a locked final synthesis document can be reopened');
  const old = clone(locked);
  const evaluationId = options.evaluationId ?? `${old.evaluationId}-reopened`;
  if (evaluationId === old.evaluationId) throw new ReopenError('the reopened evaluation needs an id of its own');
  if (options.startedAt !== undefined && !isIsoTime(options.startedAt)) {
    throw new ReopenError(`startedAt "${options.startedAt}" is not an ISO time`);
  }
  const startedAt = options.startedAt === undefined ? {} : { startedAt: options.startedAt };

  if (trigger.kind === 'new_information') {
    if (trigger.contentHash === old.contentHashAtEvaluation) {
      throw new ReopenError(
        'new information must change the idea’s inputs (README.md, development.md, research notes), but the content hash is the same as at the locked evaluation',
      );
    }
    const mode = trigger.mode ?? old.mode;
    const { maxRounds, ...rest } = old.config;
    const config: EvaluationConfigOverrides = mode === old.mode ? { ...rest, maxRounds } : rest;
    return createEvaluation(
      {
        evaluationId,
        idea: { id: old.ideaId, title: old.ideaTitle },
        mode,
        contentHash: trigger.contentHash,
        information: trigger.information ?? old.information,
        config,
        supersedes: old.evaluationId,
        ...startedAt,
      },
      taxonomy,
    );
  }

  const reason = trigger.reason.trim();
  // Characters, not UTF-16 units: "é" or "—" counts once.
  const length = [...reason].length;
  if (length < MIN_DISPUTE_REASON) {
    throw new ReopenError(
      `a dispute needs a reason of at least ${MIN_DISPUTE_REASON} characters, and this one has ${length}: say what the evaluation got wrong about ${trigger.criterion} and why`,
    );
  }
  if (!old.scores.some((s) => s.criterion === trigger.criterion)) {
    throw new ReopenError(`"${trigger.criterion}" is not a criterion of evaluation ${old.evaluationId}`);
  }
  const { categories, criteria } = criteriaOf(taxonomy);
  const sameCriteria =
    criteria.length === old.scores.length &&
    criteria.every((c) => old.scores.some((s) => s.criterion === c.id && s.category === c.category));
  if (!sameCriteria) {
    throw new ReopenError(
      'the taxonomy’s criteria changed since this evaluation: a dispute cannot reopen it, run a full re-evaluation',
    );
  }

  const state = createEvaluation(
    {
      evaluationId,
      idea: { id: old.ideaId, title: old.ideaTitle },
      mode: old.mode,
      contentHash: old.contentHashAtEvaluation,
      information: old.information,
      supersedes: old.evaluationId,
      ...startedAt,
    },
    taxonomy,
  );
  state.config = completeConfig(old.config);
  state.categories = categories;
  state.criteria = criteria;
  state.scope = 'TARGETED';
  state.dispute = { criterion: trigger.criterion, reason };
  for (const s of old.scores) {
    state.scores[s.criterion] = {
      score: s.finalScore,
      confidence: s.confidence,
      reasoning: `carried over from ${old.evaluationId}`,
      openQuestions: [...s.openQuestions],
    };
  }
  state.snapshots = Array.from({ length: old.rounds + 1 }, (_, r) => {
    const snapshot: Record<string, number> = {};
    for (const t of old.auditTrail.scoreTrajectory) snapshot[t.criterion] = t.scores[r] ?? 0;
    return snapshot;
  });
  state.rounds = old.auditTrail.roundSummaries.map(
    (r): RoundRecord => ({
      round: r.round,
      status: r.status,
      focus: r.focus,
      targets: r.targets,
      personas: r.personas,
      pending: [],
      raised: r.raised,
      accepted: r.accepted,
      dropped: r.dropped,
      synthesized: r.status === 'complete',
      newInsights: r.newInsights,
      inherited: true,
    }),
  );
  state.challenges = old.auditTrail.conflicts as ChallengeRecord[];
  state.round = old.rounds;
  state.roundLimit = old.rounds + 1;
  return withBaseline(state);
}

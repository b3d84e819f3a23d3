import type { z } from 'zod';
import { issuePath } from '../text/zod-issues';
import type { SynthesisAnswer } from './answers';
import {
  arbiterAnswerSchema,
  defenseAnswerSchema,
  evaluatorAnswerSchema,
  narrativeSchema,
  redTeamAnswerSchema,
  synthesisAnswerSchema,
} from './answers';
import { normalizeText, proposeTargets, selectChallenges, similarity } from './challenges';
import { checkConvergence } from './convergence';
import { buildDocument, figuresNarrative } from './document';
import { EvaluationInputError } from './errors';
import type { EvaluationEvent } from './events';
import type { EvaluationInput } from './inputs';
import { transition } from './phases';
import type { ChallengeRecord, EvaluationAsk, EvaluationEffect, EvaluationState, RoundRecord } from './state';
import { criterionInfo, currentRound, isIsoTime, scoreMap } from './state';
import type { LockReason, Phase } from './vocabulary';
import { MAX_ROUNDS_EVER } from './vocabulary';

export interface StepResult {
  state: EvaluationState;
  events: EvaluationEvent[];
  /** The asks this input opened; `state.awaiting` holds every ask still unanswered. */
  effects: EvaluationEffect[];
}

type Ctx = StepResult;

/**
 * The whole protocol: one input in, the next state and what happened out. The caller's state is
 * never touched: the step works on its own deep copy, so every earlier state stays valid (for
 * checkpoints, undo, diffing). An input the machine cannot apply throws EvaluationInputError.
 */
export function step(state: EvaluationState, input: EvaluationInput): StepResult {
  return advance(copy(state), input);
}

/**
 * The same transition applied to `state` itself, for drivers that keep only the latest state.
 * After an EvaluationInputError the state may be partly changed: a driver that wants to re-ask an
 * agent uses `step`, or keeps a checkpoint.
 */
export function advance(state: EvaluationState, input: EvaluationInput): StepResult {
  const ctx: Ctx = { state, events: [], effects: [] };
  if (state.phase === 'LOCKED') {
    throw new EvaluationInputError(
      `the evaluation is locked (${state.lockReason}): it takes no more input; reopen it instead`,
    );
  }
  if (state.phase === 'FAILED' && input.kind !== 'retry') {
    throw new EvaluationInputError(`the evaluation failed (${state.failure}): only a retry is possible`);
  }
  tick(state, input.at);
  switch (input.kind) {
    case 'start':
      start(ctx);
      break;
    case 'evaluator':
      onEvaluator(ctx, input);
      break;
    case 'redteam':
      onRedTeam(ctx, input);
      break;
    case 'defense':
      onDefense(ctx, input);
      break;
    case 'arbiter':
      onArbiter(ctx, input);
      break;
    case 'synthesis':
      onSynthesis(ctx, input);
      break;
    case 'narrative': {
      expectPhase(state, input.kind, ['REVIEWING']);
      take(state, (a) => a.role === 'narrative', 'a narrative');
      state.narrative = parse(narrativeSchema, input.answer, 'narrative');
      state.narrativeSource = 'agent';
      emit(ctx, { type: 'narrative_recorded', source: 'agent' });
      lock(ctx);
      break;
    }
    case 'budget_exhausted':
    case 'timeout':
      onLimit(ctx, input.kind === 'budget_exhausted' ? 'BUDGET' : 'TIMEOUT');
      break;
    case 'user_approved':
      expectPhase(state, input.kind, ['DEBATING', 'SYNTHESIZING']);
      emit(ctx, { type: 'user_approved', phase: state.phase });
      cutRound(ctx, 'the researcher approved the evaluation as it stands');
      review(ctx, 'USER_APPROVED', 'approved by the researcher');
      break;
    case 'add_round': {
      const refusal = addRoundRefusal(state);
      if (refusal !== null) throw new EvaluationInputError(`add_round: ${refusal}`);
      state.roundLimit += 1;
      emit(ctx, { type: 'round_added', roundLimit: state.roundLimit, phase: state.phase });
      break;
    }
    case 'fail':
      if (input.reason.trim() === '') throw new EvaluationInputError('fail: the reason must not be empty');
      fail(ctx, input.reason);
      break;
    case 'retry':
      retry(ctx);
      break;
  }
  return ctx;
}

/**
 * Why another round cannot be granted now, or null when it can: only while the evaluation still
 * scores or debates (once it reviews, the lock is decided), never past five rounds, and never to a
 * dispute (one targeted round is what a dispute is). Hosts ask before feeding `add_round`.
 */
export function addRoundRefusal(state: EvaluationState): string | null {
  if (!['EVALUATING', 'DEBATING', 'SYNTHESIZING'].includes(state.phase))
    return `another round can be added only while the evaluation runs its rounds, and it is ${state.phase}`;
  if (state.scope === 'TARGETED') return 'a dispute runs one targeted round; start a full evaluation instead';
  if (state.roundLimit >= MAX_ROUNDS_EVER)
    return `it may already run ${state.roundLimit} rounds, the most any evaluation runs`;
  return null;
}

function copy(state: EvaluationState): EvaluationState {
  // The state is plain JSON by design, so a JSON round trip is a faithful deep copy.
  return JSON.parse(JSON.stringify(state)) as EvaluationState;
}

function emit(ctx: Ctx, event: EvaluationEvent): void {
  ctx.events.push(event);
}

function go(ctx: Ctx, to: Phase, reason: string): void {
  const from = ctx.state.phase;
  ctx.state.phase = transition(from, to);
  emit(ctx, { type: 'phase_changed', from, to, reason });
}

function ask(ctx: Ctx, a: EvaluationAsk): void {
  ctx.state.awaiting.push(a);
  ctx.effects.push(a);
}

function tick(state: EvaluationState, at: string | undefined): void {
  if (at === undefined) return;
  if (!isIsoTime(at)) throw new EvaluationInputError(`at: "${at}" is not an ISO time`);
  // Answers of parallel calls may be stamped slightly out of order: the clock only moves forward.
  if (Date.parse(at) > Date.parse(state.clock)) state.clock = at;
}

function expectPhase(state: EvaluationState, what: string, phases: readonly Phase[]): void {
  if (!phases.includes(state.phase)) {
    throw new EvaluationInputError(
      `${what} arrives only in ${phases.join(' or ')}, and the evaluation is ${state.phase}`,
    );
  }
}

/** Removes and returns the outstanding ask an answer is for; an answer nobody asked for is an error. */
function take(state: EvaluationState, match: (a: EvaluationAsk) => boolean, what: string): EvaluationAsk {
  const index = state.awaiting.findIndex(match);
  const found = state.awaiting[index];
  if (!found) throw new EvaluationInputError(`${what} was not asked for (phase ${state.phase}, round ${state.round})`);
  state.awaiting.splice(index, 1);
  return found;
}

function parse<T>(schema: z.ZodType<T>, value: unknown, role: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue ? issuePath(issue.path) : '';
  throw new EvaluationInputError(`${role}: ${where === '' ? '' : `${where}: `}${issue?.message ?? 'invalid answer'}`);
}

function requireCriterion(state: EvaluationState, id: string, where: string): void {
  if (!criterionInfo(state, id)) throw new EvaluationInputError(`${where}: unknown criterion "${id}"`);
}

// ── Nucleation ───────────────────────────────────────────────────────────────

function start(ctx: Ctx): void {
  const { state } = ctx;
  expectPhase(state, 'start', ['PENDING']);
  emit(ctx, {
    type: 'evaluation_started',
    evaluationId: state.evaluationId,
    mode: state.mode,
    scope: state.scope,
    supersedes: state.supersedes,
  });
  if (state.scope === 'TARGETED') {
    go(ctx, 'EVALUATING', `scores carried over from ${state.supersedes}`);
    emit(ctx, { type: 'scores_carried_over', from: state.supersedes ?? '', criteria: state.criteria.length });
    go(ctx, 'DEBATING', `one targeted round on ${state.dispute?.criterion}`);
    startRound(ctx);
    return;
  }
  go(ctx, 'EVALUATING', `nucleation: ${state.categories.length} evaluators score in parallel`);
  for (const category of state.categories) {
    ask(ctx, { kind: 'ask', role: 'evaluator', category: category.id, criteria: [...category.criteria] });
  }
}

function onEvaluator(ctx: Ctx, input: Extract<EvaluationInput, { kind: 'evaluator' }>): void {
  const { state } = ctx;
  expectPhase(state, `evaluator:${input.category}`, ['EVALUATING']);
  const asked = take(
    state,
    (a) => a.role === 'evaluator' && a.category === input.category,
    `evaluator:${input.category}`,
  );
  if (asked.role !== 'evaluator') return;
  const role = `evaluator:${input.category}`;
  const answer = parse(evaluatorAnswerSchema, input.answer, role);
  const seen = new Set<string>();
  for (const [i, s] of answer.scores.entries()) {
    if (!asked.criteria.includes(s.criterion)) {
      const known = criterionInfo(state, s.criterion);
      throw new EvaluationInputError(
        `${role}: scores[${i}].criterion: "${s.criterion}" ${known ? `belongs to ${known.category}` : 'is not a criterion'}; this evaluator scores ${asked.criteria.join(', ')}`,
      );
    }
    if (seen.has(s.criterion))
      throw new EvaluationInputError(`${role}: scores[${i}].criterion: "${s.criterion}" is scored twice`);
    seen.add(s.criterion);
  }
  const missing = asked.criteria.filter((id) => !seen.has(id));
  if (missing.length > 0) throw new EvaluationInputError(`${role}: scores: missing ${missing.join(', ')}`);

  const ordered = asked.criteria
    .map((id) => answer.scores.find((s) => s.criterion === id))
    .filter((s) => s !== undefined);
  for (const s of ordered) {
    state.scores[s.criterion] = { score: s.score, confidence: s.confidence, reasoning: s.reasoning, openQuestions: [] };
  }
  emit(ctx, {
    type: 'initial_scores',
    category: input.category,
    scores: ordered.map((s) => ({ criterion: s.criterion, score: s.score, confidence: s.confidence })),
  });
  if (!state.awaiting.some((a) => a.role === 'evaluator')) {
    state.snapshots = [scoreMap(state)];
    go(ctx, 'DEBATING', 'every criterion has its initial score');
    startRound(ctx);
  }
}

// ── Perturbation ─────────────────────────────────────────────────────────────

function startRound(ctx: Ctx): void {
  const { state } = ctx;
  state.round += 1;
  const focus = state.dispute?.criterion ?? null;
  const cap = state.config.challengesPerRound;
  const targets = focus === null ? proposeTargets(state, cap) : [focus];
  const record: RoundRecord = {
    round: state.round,
    status: 'open',
    focus,
    targets,
    personas: [...state.personas],
    pending: [],
    raised: 0,
    accepted: [],
    dropped: [],
    synthesized: false,
    newInsights: [],
    inherited: false,
  };
  state.rounds.push(record);
  emit(ctx, {
    type: 'round_started',
    round: record.round,
    personas: [...record.personas],
    targets: [...targets],
    focus,
  });
  const suggestedCount = Math.max(1, Math.ceil(cap / state.personas.length));
  for (const persona of state.personas) {
    ask(ctx, {
      kind: 'ask',
      role: 'redteam',
      persona,
      round: record.round,
      targets: [...targets],
      focus,
      suggestedCount,
    });
  }
}

function openRound(state: EvaluationState): RoundRecord {
  const record = currentRound(state);
  if (!record) throw new EvaluationInputError('no round is open');
  return record;
}

function onRedTeam(ctx: Ctx, input: Extract<EvaluationInput, { kind: 'redteam' }>): void {
  const { state } = ctx;
  const role = `redteam:${input.persona}`;
  expectPhase(state, role, ['DEBATING']);
  take(
    state,
    (a) => a.role === 'redteam' && a.persona === input.persona && a.round === input.round,
    `${role} for round ${input.round}`,
  );
  const answer = parse(redTeamAnswerSchema, input.answer, role);
  for (const [i, c] of answer.challenges.entries())
    requireCriterion(state, c.criterion, `${role}: challenges[${i}].criterion`);
  const record = openRound(state);
  record.pending.push({ persona: input.persona, challenges: answer.challenges });
  emit(ctx, {
    type: 'challenges_received',
    round: record.round,
    persona: input.persona,
    count: answer.challenges.length,
  });
  if (state.awaiting.some((a) => a.role === 'redteam')) return;

  // Every persona has answered: pick the round's challenges in persona order, whatever the order of arrival.
  const answers = state.personas.flatMap((p) => record.pending.filter((x) => x.persona === p));
  const selection = selectChallenges(state, record.round, answers, record.focus);
  record.pending = [];
  record.raised = selection.raised;
  record.dropped = selection.dropped;
  selection.accepted.forEach((c, i) => {
    const info = criterionInfo(state, c.criterion);
    const challenge: ChallengeRecord = {
      id: `r${record.round}c${i + 1}`,
      round: record.round,
      persona: c.persona,
      criterion: c.criterion,
      category: info?.category ?? '',
      severity: c.severity,
      challenge: c.challenge,
      defense: null,
      ruling: null,
      scoreBefore: null,
      scoreAfter: null,
      resolved: false,
      resolution: null,
    };
    state.challenges.push(challenge);
    record.accepted.push(challenge.id);
    emit(ctx, { type: 'challenge_accepted', challenge: { ...challenge } });
  });
  for (const d of selection.dropped) emit(ctx, { type: 'challenge_dropped', round: record.round, ...d });

  if (record.accepted.length === 0) {
    toSynthesis(ctx, record, 'no challenge to debate this round');
    return;
  }
  for (const id of record.accepted) {
    const c = state.challenges.find((x) => x.id === id);
    if (c) ask(ctx, { kind: 'ask', role: 'defense', challengeId: c.id, category: c.category, criterion: c.criterion });
  }
}

function challengeOf(state: EvaluationState, id: string, role: string): ChallengeRecord {
  const c = state.challenges.find((x) => x.id === id);
  if (!c) throw new EvaluationInputError(`${role}: unknown challenge "${id}"`);
  return c;
}

function onDefense(ctx: Ctx, input: Extract<EvaluationInput, { kind: 'defense' }>): void {
  const { state } = ctx;
  expectPhase(state, 'defense', ['DEBATING']);
  take(state, (a) => a.role === 'defense' && a.challengeId === input.challengeId, `a defense of ${input.challengeId}`);
  const answer = parse(defenseAnswerSchema, input.answer, 'defense');
  const c = challengeOf(state, input.challengeId, 'defense');
  c.defense = answer.response;
  emit(ctx, { type: 'defense_recorded', challengeId: c.id, criterion: c.criterion });
  ask(ctx, { kind: 'ask', role: 'arbiter', challengeId: c.id, criterion: c.criterion });
}

function clampScore(n: number): number {
  return Math.min(10, Math.max(1, n));
}

function onArbiter(ctx: Ctx, input: Extract<EvaluationInput, { kind: 'arbiter' }>): void {
  const { state } = ctx;
  expectPhase(state, 'arbiter', ['DEBATING']);
  take(state, (a) => a.role === 'arbiter' && a.challengeId === input.challengeId, `a ruling on ${input.challengeId}`);
  const answer = parse(arbiterAnswerSchema(state.config.scoreAdjustmentRange), input.answer, 'arbiter');
  const c = challengeOf(state, input.challengeId, 'arbiter');
  const standing = state.scores[c.criterion];
  if (!standing) throw new EvaluationInputError(`arbiter: ${c.criterion} has no score`);
  // A passive arbiter's rulings move nothing until the round's last one is in (settleRound).
  const passive = state.config.arbiter === 'passive';
  const before = standing.score;
  const after = passive ? before : clampScore(before + answer.scoreAdjustment);
  standing.score = after;
  // Strict first principles: an exchange in which a fallacy was named earns no first-principles bonus.
  const bonus =
    answer.firstPrinciplesBonus && !(state.config.firstPrinciples === 'strict' && answer.fallacies.length > 0);
  c.ruling = {
    winner: answer.winner,
    scoreAdjustment: answer.scoreAdjustment,
    firstPrinciplesBonus: bonus,
    fallacies: [...answer.fallacies],
    reasoning: answer.reasoning,
  };
  c.scoreBefore = before;
  c.scoreAfter = after;
  c.resolved = answer.winner === 'EVALUATOR' || (answer.winner === 'RED_TEAM' && after !== before);
  emit(ctx, {
    type: 'ruling',
    challengeId: c.id,
    criterion: c.criterion,
    winner: answer.winner,
    scoreAdjustment: answer.scoreAdjustment,
    scoreBefore: before,
    scoreAfter: after,
    resolved: c.resolved,
    firstPrinciplesBonus: bonus,
    ...(passive ? { settlesAtRoundEnd: true } : {}),
  });
  if (state.awaiting.some((a) => a.role === 'defense' || a.role === 'arbiter')) return;
  const record = openRound(state);
  if (passive) settleRound(ctx, record);
  toSynthesis(ctx, record, 'every challenge of the round is ruled');
}

/**
 * A passive arbiter's round, settled at its end: each criterion moves by the sum of the round's
 * adjustments on it, bounded by ±`scoreAdjustmentRange` for the round (the seed's "±2 per round"),
 * then by the scale. Every challenge on it takes that end score; a red-team win is resolved when the
 * criterion moved.
 */
function settleRound(ctx: Ctx, record: RoundRecord): void {
  const { state } = ctx;
  const range = state.config.scoreAdjustmentRange;
  const ruled = state.challenges.filter((c) => c.round === record.round && c.ruling !== null);
  const moves: { criterion: string; from: number; to: number; sum: number }[] = [];
  for (const criterion of state.criteria) {
    const on = ruled.filter((c) => c.criterion === criterion.id);
    const standing = state.scores[criterion.id];
    if (on.length === 0 || !standing) continue;
    const sum = on.reduce((n, c) => n + (c.ruling?.scoreAdjustment ?? 0), 0);
    const from = standing.score;
    const to = clampScore(from + Math.max(-range, Math.min(range, sum)));
    standing.score = to;
    for (const c of on) {
      c.scoreAfter = to;
      c.resolved = c.ruling?.winner === 'EVALUATOR' || (c.ruling?.winner === 'RED_TEAM' && to !== from);
    }
    moves.push({ criterion: criterion.id, from, to, sum });
  }
  emit(ctx, { type: 'round_settled', round: record.round, moves });
}

// ── Annealing and the convergence check ──────────────────────────────────────

function touchedCriteria(state: EvaluationState, round: number): string[] {
  const on = new Set(state.challenges.filter((c) => c.round === round && c.ruling !== null).map((c) => c.criterion));
  return state.criteria.filter((c) => on.has(c.id)).map((c) => c.id);
}

function toSynthesis(ctx: Ctx, record: RoundRecord, reason: string): void {
  go(ctx, 'SYNTHESIZING', reason);
  ask(ctx, { kind: 'ask', role: 'synthesis', round: record.round, touched: touchedCriteria(ctx.state, record.round) });
}

/** The scores a synthesis may pick for a criterion: where it stood at the round's start, and after each ruling. */
export function positionsInPlay(state: EvaluationState, round: number, criterion: string): number[] {
  const positions = [state.snapshots[round - 1]?.[criterion] ?? state.scores[criterion]?.score ?? 0];
  for (const c of state.challenges) {
    if (c.round === round && c.criterion === criterion && c.scoreAfter !== null) positions.push(c.scoreAfter);
  }
  return positions.filter((p, i) => positions.indexOf(p) === i);
}

function checkSynthesis(state: EvaluationState, round: number, answer: SynthesisAnswer): void {
  const touched = touchedCriteria(state, round);
  const seen = new Set<string>();
  answer.criteria.forEach((entry, i) => {
    const where = `synthesis: criteria[${i}]`;
    requireCriterion(state, entry.criterion, `${where}.criterion`);
    if (seen.has(entry.criterion))
      throw new EvaluationInputError(`${where}.criterion: "${entry.criterion}" appears twice`);
    seen.add(entry.criterion);
    const positions = touched.includes(entry.criterion)
      ? positionsInPlay(state, round, entry.criterion)
      : [state.scores[entry.criterion]?.score ?? 0];
    if (!positions.includes(entry.score)) {
      throw new EvaluationInputError(
        touched.includes(entry.criterion)
          ? `${where}.score: ${entry.score} for ${entry.criterion} is not one of the positions in play (${positions.join(', ')}): the synthesis picks a winner, it does not average`
          : `${where}.score: ${entry.criterion} was not debated this round, so its score stays ${positions[0]} (only its confidence may change)`,
      );
    }
  });
  const missing = touched.filter((id) => !seen.has(id));
  if (missing.length > 0) {
    throw new EvaluationInputError(`synthesis: criteria: missing ${missing.join(', ')}, debated this round`);
  }
}

/** The synthesis' insights that no earlier insight (or an earlier one in the same list) already says. */
function freshInsights(state: EvaluationState, insights: readonly string[]): string[] {
  const known = state.rounds.flatMap((r) => r.newInsights);
  const out: string[] = [];
  for (const insight of insights) {
    const same = (k: string) =>
      normalizeText(k) === normalizeText(insight) || similarity(k, insight) >= state.config.repeatSimilarity;
    if (known.some(same) || out.some(same)) continue;
    out.push(insight);
  }
  return out;
}

function onSynthesis(ctx: Ctx, input: Extract<EvaluationInput, { kind: 'synthesis' }>): void {
  const { state } = ctx;
  expectPhase(state, 'synthesis', ['SYNTHESIZING']);
  take(state, (a) => a.role === 'synthesis' && a.round === input.round, `a synthesis of round ${input.round}`);
  const answer = parse(synthesisAnswerSchema, input.answer, 'synthesis');
  const record = openRound(state);
  checkSynthesis(state, record.round, answer);

  const changes: { criterion: string; from: number; to: number; confidence: number }[] = [];
  for (const c of state.criteria) {
    const entry = answer.criteria.find((e) => e.criterion === c.id);
    const standing = state.scores[c.id];
    if (!entry || !standing) continue;
    changes.push({ criterion: c.id, from: standing.score, to: entry.score, confidence: entry.confidence });
    standing.score = entry.score;
    standing.confidence = entry.confidence;
    standing.openQuestions = [...entry.openQuestions];
    for (const ch of state.challenges) {
      if (ch.round === record.round && ch.criterion === c.id) {
        ch.resolution = {
          prevailingPosition: entry.prevailingPosition,
          resolutionReasoning: entry.resolutionReasoning,
          score: entry.score,
        };
      }
    }
  }
  record.newInsights = freshInsights(state, answer.newInsights);
  record.synthesized = true;
  record.status = 'complete';
  state.snapshots[record.round] = scoreMap(state);
  emit(ctx, { type: 'synthesis_applied', round: record.round, changes, newInsights: [...record.newInsights] });
  emit(ctx, { type: 'round_completed', round: record.round, status: 'complete' });

  const report = checkConvergence(state);
  state.convergence.push(report);
  emit(ctx, { type: 'convergence_checked', report });
  if (report.lockReason !== null) {
    review(
      ctx,
      report.lockReason,
      report.lockReason === 'CONVERGENCE'
        ? `converged after round ${report.round}`
        : `round limit ${state.roundLimit} reached`,
    );
  } else {
    go(
      ctx,
      'DEBATING',
      `not converged after round ${report.round}: ${report.blockers.length} blocker${report.blockers.length === 1 ? '' : 's'}`,
    );
    startRound(ctx);
  }
}

// ── Crystallization, lockdown, limits and failure ────────────────────────────

function review(ctx: Ctx, reason: LockReason, why: string, figures: 'BUDGET' | 'TIMEOUT' | null = null): void {
  const { state } = ctx;
  state.lockReason = reason;
  go(ctx, 'REVIEWING', why);
  if (figures === null) {
    ask(ctx, { kind: 'ask', role: 'narrative' });
    return;
  }
  writeFiguresNarrative(ctx, figures);
}

function writeFiguresNarrative(ctx: Ctx, limit: 'BUDGET' | 'TIMEOUT'): void {
  ctx.state.narrative = figuresNarrative(ctx.state, limit);
  ctx.state.narrativeSource = 'figures';
  emit(ctx, { type: 'narrative_recorded', source: 'figures' });
  lock(ctx);
}

function lock(ctx: Ctx): void {
  const { state } = ctx;
  go(ctx, 'LOCKED', `crystallized: ${state.lockReason}`);
  state.awaiting = [];
  const document = buildDocument(state);
  state.document = document;
  emit(ctx, {
    type: 'evaluation_locked',
    reason: document.lockReason,
    overallScore: document.composites.overallScore,
    overallConfidence: document.composites.overallConfidence,
  });
}

/**
 * Ends the open round early. Its unanswered asks are dropped. Rulings already made stand: the round
 * is closed as `partial` with the scores as they are. A round cut before its first ruling changed
 * nothing and leaves no trace but an event. While debating, the phase passes through SYNTHESIZING.
 */
function cutRound(ctx: Ctx, why: string): void {
  const { state } = ctx;
  state.awaiting = [];
  const record = currentRound(state);
  if (record) {
    const ruled = state.challenges.some((c) => c.round === record.round && c.ruling !== null);
    if (ruled) {
      // Cut while debating, a passive arbiter's rulings so far still move the scores; once
      // synthesizing, the round was settled already.
      if (state.config.arbiter === 'passive' && state.phase === 'DEBATING') settleRound(ctx, record);
      record.status = 'partial';
      record.pending = [];
      state.snapshots[record.round] = scoreMap(state);
      emit(ctx, { type: 'round_completed', round: record.round, status: 'partial' });
    } else {
      state.rounds.pop();
      state.challenges = state.challenges.filter((c) => c.round !== record.round);
      state.round -= 1;
      emit(ctx, { type: 'round_abandoned', round: record.round, reason: why });
    }
  }
  if (state.phase === 'DEBATING') go(ctx, 'SYNTHESIZING', `round cut short: ${why}`);
}

function onLimit(ctx: Ctx, limit: 'BUDGET' | 'TIMEOUT'): void {
  const { state } = ctx;
  const why = limit === 'BUDGET' ? 'the budget is exhausted' : 'the time limit passed';
  emit(ctx, { type: 'limit_reached', limit, phase: state.phase });
  switch (state.phase) {
    case 'PENDING':
    case 'EVALUATING':
      fail(ctx, `${why} before every criterion had its initial score`);
      return;
    case 'DEBATING':
    case 'SYNTHESIZING':
      cutRound(ctx, why);
      review(ctx, limit, why, limit);
      return;
    case 'REVIEWING':
      // The lock reason is already decided; only the narrative call is no longer allowed.
      state.awaiting = [];
      writeFiguresNarrative(ctx, limit);
      return;
    default:
      return;
  }
}

function fail(ctx: Ctx, reason: string): void {
  const { state } = ctx;
  const phase = state.phase;
  state.awaiting = [];
  state.failure = reason;
  state.failures.push({ phase, reason });
  go(ctx, 'FAILED', reason);
  emit(ctx, { type: 'evaluation_failed', phase, reason });
}

function retry(ctx: Ctx): void {
  const { state } = ctx;
  expectPhase(state, 'retry', ['FAILED']);
  if (state.retries >= state.config.maxRetries) {
    throw new EvaluationInputError(`retry: no retries left (${state.retries} of ${state.config.maxRetries} used)`);
  }
  const baseline = state.baseline;
  if (!baseline) throw new EvaluationInputError('retry: this state has no baseline to start over from');
  const fresh = copy(baseline);
  const keep = { retries: state.retries + 1, failures: state.failures, clock: state.clock, baseline };
  Object.assign(state, fresh, keep, { phase: 'FAILED' satisfies Phase });
  emit(ctx, { type: 'evaluation_reset', retry: state.retries });
  go(ctx, 'PENDING', `retry ${state.retries} of ${state.config.maxRetries}: starting over`);
}

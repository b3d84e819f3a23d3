import type { StepContext } from './context';
import { emit } from './context';
import { isValidFalsifier } from './falsifier';
import { intervene } from './moderator';
import type { ParsedMove } from './moves';
import type { ThreadState } from './state';
import type { Side } from './vocabulary';

// What an accepted move changes in its thread. Stage transitions are not decided here: they run
// afterwards, once the move's own effects are in place.

export interface AcceptedMessage {
  id: string;
  agent: string;
  content: string;
}

/** Applies the move and reports whether the author's side changed (evidence stability). */
export function applyMove(ctx: StepContext, thread: ThreadState, msg: AcceptedMessage, parsed: ParsedMove): boolean {
  const { state } = ctx;
  const at = { thread: thread.id, messageId: msg.id };

  switch (parsed.move) {
    case 'CLAIM':
    case 'CHALLENGE':
    case 'CLARIFY':
    case 'REFRAME':
    case 'CHALLENGE_EVIDENCE':
    case 'PROVIDE_EVIDENCE':
    // A challenge of a crystallized crux never reaches here: step.ts hands it to crux-review.ts.
    case 'CHALLENGE_CRUX':
      return false;

    case 'PROPOSE_CRUX':
      if (thread.status === 'DISCOVERY') {
        // The latest proposal wins: discovery is about sharpening the question.
        thread.binaryQuestion = parsed.question;
        emit(ctx, { type: 'binary_question_set', ...at, question: parsed.question, by: msg.agent });
      } else {
        thread.candidateCruxes.push({ by: msg.agent, question: parsed.question, messageId: msg.id });
        emit(ctx, { type: 'candidate_crux', ...at, question: parsed.question, by: msg.agent });
      }
      return false;

    case 'STEELMAN': {
      const existing = thread.steelmans.find((s) => s.from === msg.agent && s.to === parsed.target);
      state.counters.steelmanAttempts += 1;
      let attempt = 1;
      if (existing) {
        // A new attempt replaces the old one, whatever its grade was.
        state.counters.steelmanRetries += 1;
        existing.attempts += 1;
        existing.grade = 'PENDING';
        existing.messageId = msg.id;
        existing.openedAt = state.messageSeq;
        // The new attempt's structure and grade replace the old one's.
        delete existing.steelman;
        delete existing.corrections;
        if (parsed.statement) existing.steelman = parsed.statement;
        attempt = existing.attempts;
      } else {
        thread.steelmans.push({
          from: msg.agent,
          to: parsed.target,
          grade: 'PENDING',
          attempts: 1,
          messageId: msg.id,
          openedAt: state.messageSeq,
          ...(parsed.statement ? { steelman: parsed.statement } : {}),
        });
      }
      emit(ctx, { type: 'steelman_opened', ...at, from: msg.agent, to: parsed.target, attempt });
      return false;
    }

    case 'GRADE_STEELMAN': {
      const attempt = thread.steelmans.find((s) => s.from === parsed.from && s.to === msg.agent);
      if (attempt) {
        attempt.grade = parsed.grade;
        if (parsed.corrections) attempt.corrections = parsed.corrections;
      }
      state.counters.steelmanGraded += 1;
      if (parsed.grade === 'ACCURATE') state.counters.steelmanAccurate += 1;
      emit(ctx, { type: 'steelman_graded', ...at, from: parsed.from, to: msg.agent, grade: parsed.grade });
      return false;
    }

    case 'COMMIT_POSITION': {
      const before = thread.stances[msg.agent]?.side;
      thread.commitments[msg.agent] = {
        side: parsed.side,
        confidence: parsed.confidence,
        horizon: parsed.horizon,
        statement: msg.content,
        messageId: msg.id,
      };
      thread.stances[msg.agent] = { side: parsed.side, confidence: parsed.confidence };
      emit(ctx, { type: 'position_committed', ...at, agent: msg.agent, side: parsed.side });
      // Only a valid falsifier is kept; a commit without one leaves the earlier one in place.
      if (parsed.falsifier && isValidFalsifier(parsed.falsifier)) recordFalsifier(ctx, thread, msg, parsed.falsifier);
      checkHorizons(ctx, thread);
      return before !== undefined && before !== parsed.side;
    }

    case 'DECLARE_FALSIFIER':
      recordFalsifier(ctx, thread, msg, parsed.falsifier);
      return false;

    case 'UPDATE_POSITION': {
      const stance = thread.stances[msg.agent];
      const confidence = parsed.confidence ?? stance?.confidence;
      return moveSide(ctx, thread, msg, parsed.next, confidence);
    }

    case 'CONCEDE': {
      thread.concessions.push({
        agent: msg.agent,
        proposition: parsed.proposition,
        topClaimChanged: parsed.topClaimChanged,
        messageId: msg.id,
      });
      if (!parsed.topClaimChanged) state.counters.cheapConcessions += 1;
      emit(ctx, {
        type: 'concession',
        ...at,
        agent: msg.agent,
        proposition: parsed.proposition,
        cheap: !parsed.topClaimChanged,
      });
      if (!parsed.topClaimChanged || parsed.next === undefined) return false;
      return moveSide(ctx, thread, msg, parsed.next, thread.stances[msg.agent]?.confidence);
    }
  }
}

function recordFalsifier(
  ctx: StepContext,
  thread: ThreadState,
  msg: AcceptedMessage,
  falsifier: NonNullable<ThreadState['falsifiers'][string]>,
): void {
  thread.falsifiers[msg.agent] = falsifier;
  emit(ctx, { type: 'falsifier_recorded', thread: thread.id, agent: msg.agent, falsifier, messageId: msg.id });
}

function moveSide(
  ctx: StepContext,
  thread: ThreadState,
  msg: AcceptedMessage,
  next: Side,
  confidence: number | undefined,
): boolean {
  const before = thread.stances[msg.agent]?.side;
  thread.stances[msg.agent] = confidence === undefined ? { side: next } : { side: next, confidence };
  if (before === next) return false;
  emit(ctx, {
    type: 'position_changed',
    thread: thread.id,
    agent: msg.agent,
    from: before ?? null,
    to: next,
    messageId: msg.id,
  });
  return true;
}

/** One HORIZON_ALIGNMENT per thread, the first time committed horizons disagree. */
function checkHorizons(ctx: StepContext, thread: ThreadState): void {
  if (thread.horizonAlignmentIssued) return;
  const horizons = new Set(Object.values(thread.commitments).map((c) => c.horizon));
  if (horizons.size > 1) {
    thread.horizonAlignmentIssued = true;
    intervene(ctx, thread, 'HORIZON_ALIGNMENT');
  }
}

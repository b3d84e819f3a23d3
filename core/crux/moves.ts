import type { Falsifier } from './falsifier';
import { parseFalsifier } from './falsifier';
import type { CruxState, ThreadState } from './state';
import { isAgent } from './state';
import type { CruxChallenge, GivenGrade, Horizon, Move, Side } from './vocabulary';
import { CRUX_CHALLENGES, GIVEN_GRADES, HORIZONS, SIDES, isOneOf } from './vocabulary';

// Each move's own requirements on its `meta`. Meta arrives untyped (from a script or an LLM), so
// it is read field by field here and turned into a typed move; a failure becomes `invalidMove`
// with a reason the agent can act on when it is re-asked.

export type ParsedMove =
  | { move: 'CLAIM' | 'CHALLENGE' | 'CLARIFY' | 'REFRAME' }
  | { move: 'PROPOSE_CRUX'; question: string }
  | { move: 'STEELMAN'; target: string; statement?: SteelmanStatement }
  | { move: 'GRADE_STEELMAN'; grade: GivenGrade; from: string; corrections?: string }
  | { move: 'COMMIT_POSITION'; side: Side; confidence: number; horizon: Horizon; falsifier?: Falsifier }
  | { move: 'DECLARE_FALSIFIER'; falsifier: Falsifier }
  | { move: 'CHALLENGE_EVIDENCE'; replyTo: string; author: string }
  | { move: 'UPDATE_POSITION'; prior: Side; next: Side; topClaimChanged: boolean; confidence?: number }
  | { move: 'CONCEDE'; proposition: string; topClaimChanged: boolean; prior?: Side; next?: Side }
  | { move: 'PROVIDE_EVIDENCE'; targetFalsifierOf?: string; evidenceLink?: string }
  | { move: 'CHALLENGE_CRUX'; challenge: CruxChallenge };

/**
 * A structured steelman (seed 000): the target's claim, its strongest reason and what would change
 * the target's mind, restated. Optional, so scripts written before it replay as they did; a live
 * debate asks for all three (core/crux/live/answer-checks.ts).
 */
export interface SteelmanStatement {
  claim: string;
  strongestReason: string;
  falsifier: { metric: string; threshold: string; deadline: string };
}

const STATEMENT_FIELDS = ['claimRepresented', 'strongestReason', 'falsifierRepresented'] as const;

/** The steelman's structure from meta: absent, read, or what is wrong with it (a string). */
function readStatement(meta: Record<string, unknown>): SteelmanStatement | null | string {
  if (STATEMENT_FIELDS.every((f) => !present(meta[f]))) return null;
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  const claim = text(meta.claimRepresented);
  const reason = text(meta.strongestReason);
  const f = meta.falsifierRepresented as Record<string, unknown> | null;
  const falsifier =
    f && typeof f === 'object' && text(f.metric) && text(f.threshold) && text(f.deadline)
      ? { metric: text(f.metric) as string, threshold: text(f.threshold) as string, deadline: text(f.deadline) as string }
      : null;
  if (!claim || !reason || !falsifier)
    return 'a structured STEELMAN needs all three: meta.claimRepresented, meta.strongestReason and meta.falsifierRepresented {metric, threshold, deadline}';
  return { claim, strongestReason: reason, falsifier };
}

export type MoveCheck = { ok: true; parsed: ParsedMove } | { ok: false; reason: string };

export interface MoveRequest {
  agent: string;
  move: Move;
  replyTo?: string;
  meta: Record<string, unknown>;
}

const fail = (reason: string): MoveCheck => ({ ok: false, reason });
const pass = (parsed: ParsedMove): MoveCheck => ({ ok: true, parsed });

function isConfidence(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1;
}

function present(value: unknown): boolean {
  return value !== undefined && value !== null;
}

export function checkMoveRequirements(state: CruxState, thread: ThreadState, req: MoveRequest): MoveCheck {
  const { meta, agent } = req;
  switch (req.move) {
    case 'CLAIM':
    case 'CHALLENGE':
    case 'CLARIFY':
    case 'REFRAME':
      return pass({ move: req.move });

    case 'PROPOSE_CRUX': {
      const q = meta.question;
      if (typeof q !== 'string' || q.trim() === '') return fail('PROPOSE_CRUX needs meta.question');
      if (!q.trim().endsWith('?')) return fail('PROPOSE_CRUX question must end with "?"');
      return pass({ move: 'PROPOSE_CRUX', question: q.trim() });
    }

    case 'STEELMAN': {
      const target = meta.steelmanTarget;
      if (!isAgent(state, target)) return fail('STEELMAN needs meta.steelmanTarget, an agent of the debate');
      if (target === agent) return fail('STEELMAN target must be another agent');
      const statement = readStatement(meta);
      if (typeof statement === 'string') return fail(statement);
      return pass({ move: 'STEELMAN', target, ...(statement ? { statement } : {}) });
    }

    case 'GRADE_STEELMAN': {
      const grade = meta.steelmanGrade;
      if (!isOneOf(GIVEN_GRADES, grade)) {
        return fail('GRADE_STEELMAN needs meta.steelmanGrade: ACCURATE, INCOMPLETE or WRONG');
      }
      const pending = latestPendingFor(thread, agent);
      if (!pending) return fail(`no PENDING steelman of ${agent} to grade`);
      const corrections = meta.corrections;
      if (present(corrections) && (typeof corrections !== 'string' || corrections.trim() === ''))
        return fail('GRADE_STEELMAN meta.corrections, when given, is what the steelman missed, in words');
      return pass({
        move: 'GRADE_STEELMAN',
        grade,
        from: pending.from,
        ...(typeof corrections === 'string' ? { corrections: corrections.trim() } : {}),
      });
    }

    case 'COMMIT_POSITION': {
      if (!isOneOf(SIDES, meta.side)) return fail('COMMIT_POSITION needs meta.side: YES, NO or UNCERTAIN');
      if (!isConfidence(meta.confidence)) return fail('COMMIT_POSITION needs meta.confidence in [0,1]');
      if (!isOneOf(HORIZONS, meta.horizon)) return fail(`COMMIT_POSITION needs meta.horizon: ${HORIZONS.join(', ')}`);
      const base = { move: 'COMMIT_POSITION' as const, side: meta.side, confidence: meta.confidence, horizon: meta.horizon };
      if (!present(meta.falsifier)) return pass(base);
      const f = parseFalsifier(meta.falsifier);
      if (!f.ok) return fail(f.reason);
      return pass({ ...base, falsifier: f.falsifier });
    }

    case 'DECLARE_FALSIFIER': {
      if (!present(meta.falsifier)) return fail('DECLARE_FALSIFIER needs meta.falsifier');
      const f = parseFalsifier(meta.falsifier);
      if (!f.ok) return fail(f.reason);
      if (!thread.commitments[agent]) return fail('DECLARE_FALSIFIER needs a COMMIT_POSITION in this thread first');
      return pass({ move: 'DECLARE_FALSIFIER', falsifier: f.falsifier });
    }

    case 'CHALLENGE_EVIDENCE': {
      const target = req.replyTo;
      if (target === undefined) return fail('CHALLENGE_EVIDENCE needs replyTo');
      const entry = state.transcript.find((m) => m.id === target);
      if (!entry || !entry.accepted || entry.author === null || entry.thread !== thread.id) {
        return fail(`replyTo ${target} is not an accepted agent message of this thread`);
      }
      if (entry.author === agent) return fail('CHALLENGE_EVIDENCE must answer another agent');
      return pass({ move: 'CHALLENGE_EVIDENCE', replyTo: target, author: entry.author });
    }

    case 'UPDATE_POSITION': {
      const current = thread.stances[agent]?.side;
      if (!isOneOf(SIDES, meta.priorPosition)) return fail('UPDATE_POSITION needs meta.priorPosition');
      if (current === undefined) return fail('UPDATE_POSITION needs a position in this thread first');
      if (meta.priorPosition !== current) {
        return fail(`priorPosition ${meta.priorPosition} is not the current side ${current}`);
      }
      if (!isOneOf(SIDES, meta.newPosition)) return fail('UPDATE_POSITION needs meta.newPosition');
      if (typeof meta.topClaimChanged !== 'boolean') return fail('UPDATE_POSITION needs meta.topClaimChanged (boolean)');
      if (present(meta.confidence) && !isConfidence(meta.confidence)) {
        return fail('UPDATE_POSITION confidence must be in [0,1]');
      }
      return pass({
        move: 'UPDATE_POSITION',
        prior: meta.priorPosition,
        next: meta.newPosition,
        topClaimChanged: meta.topClaimChanged,
        ...(isConfidence(meta.confidence) ? { confidence: meta.confidence } : {}),
      });
    }

    case 'CONCEDE': {
      const prop = meta.concededProposition;
      if (typeof prop !== 'string' || prop.trim() === '') return fail('CONCEDE needs meta.concededProposition');
      if (typeof meta.topClaimChanged !== 'boolean') return fail('CONCEDE needs meta.topClaimChanged (boolean)');
      if (!meta.topClaimChanged) return pass({ move: 'CONCEDE', proposition: prop, topClaimChanged: false });
      if (!isOneOf(SIDES, meta.priorPosition) || !isOneOf(SIDES, meta.newPosition)) {
        return fail('a CONCEDE that changes the top claim needs meta.priorPosition and meta.newPosition');
      }
      return pass({
        move: 'CONCEDE',
        proposition: prop,
        topClaimChanged: true,
        prior: meta.priorPosition,
        next: meta.newPosition,
      });
    }

    case 'PROVIDE_EVIDENCE': {
      const of = meta.targetFalsifierOf;
      const link = meta.evidenceLink;
      if (present(of) && !isAgent(state, of)) return fail('targetFalsifierOf must be an agent of the debate');
      if (present(link) && typeof link !== 'string') return fail('evidenceLink must be a string');
      return pass({
        move: 'PROVIDE_EVIDENCE',
        ...(isAgent(state, of) ? { targetFalsifierOf: of } : {}),
        ...(typeof link === 'string' ? { evidenceLink: link } : {}),
      });
    }

    case 'CHALLENGE_CRUX': {
      const challenge = meta.cruxChallenge;
      if (!isOneOf(CRUX_CHALLENGES, challenge)) {
        return fail(`CHALLENGE_CRUX needs meta.cruxChallenge: ${CRUX_CHALLENGES.join(', ')}`);
      }
      return pass({ move: 'CHALLENGE_CRUX', challenge });
    }
  }
}

/** The most recently opened PENDING attempt aimed at `target`, the only one `target` may grade. */
export function latestPendingFor(thread: ThreadState, target: string) {
  let best: ThreadState['steelmans'][number] | undefined;
  for (const s of thread.steelmans) {
    if (s.to === target && s.grade === 'PENDING' && (!best || s.openedAt > best.openedAt)) best = s;
  }
  return best;
}

import { challengeClosed } from './crux-review';
import { isValidFalsifier } from './falsifier';
import { isDevilsAdvocate } from './honesty';
import type { MoveRequest, ParsedMove } from './moves';
import { checkMoveRequirements } from './moves';
import type { CruxState, ThreadState } from './state';
import type { BlockReason } from './vocabulary';
import { MOVES_BY_STAGE, isDecided, isStage } from './vocabulary';

// The six checks on one agent message, in the order the protocol fixes: the first failure blocks
// the message and names the reason.

export type MessageCheck =
  | { ok: true; parsed: ParsedMove }
  | { ok: false; reason: BlockReason; detail: string };

const block = (reason: BlockReason, detail: string): MessageCheck => ({ ok: false, reason, detail });

export function checkMessage(state: CruxState, thread: ThreadState, req: MoveRequest): MessageCheck {
  // A challenge of a crystallized crux runs the same checks, read for a thread that has converged.
  if (req.move === 'CHALLENGE_CRUX') return checkChallenge(state, thread, req);

  // 1. A closed thread takes nothing; a thread waiting for its analysis is closed to talk too,
  //    since its crux is already being written from the messages it has.
  if (!isStage(thread.status)) return block('threadClosed', `thread ${thread.id} is ${thread.status}`);
  if (thread.awaitingAnalysis) return block('threadClosed', `thread ${thread.id} is being crystallized`);

  // 2. The stage's move table.
  const stage = thread.status;
  if (!MOVES_BY_STAGE[stage].includes(req.move)) {
    return block('stageRestriction', `${req.move} is not allowed in ${stage}`);
  }
  // The devil's advocate frames and argues; it holds no position, so the lock and the evidence are not its.
  if (stage !== 'DISCOVERY' && isDevilsAdvocate(state, req.agent)) {
    return block('stageRestriction', `the devil's advocate takes part only in DISCOVERY, and ${thread.id} is in ${stage}`);
  }

  // 3. Reply fan-out: only accepted replies count.
  if (req.replyTo !== undefined) {
    const replies = state.replyCounts[req.replyTo] ?? 0;
    if (replies >= state.config.maxReplies) {
      return block('replyLimit', `${req.replyTo} already has ${replies} direct replies`);
    }
  }

  // 4. The move's own requirements.
  const move = checkMoveRequirements(state, thread, req);
  if (!move.ok) return block('invalidMove', move.reason);
  const parsed = move.parsed;

  // 5. Attacking evidence from the other side needs an ACCURATE steelman of its author, in this
  //    thread, by the challenger. Uncommitted and UNCERTAIN challengers are never held to it.
  if (parsed.move === 'CHALLENGE_EVIDENCE') {
    const mine = thread.stances[req.agent]?.side;
    const theirs = thread.stances[parsed.author]?.side;
    if (isDecided(mine) && isDecided(theirs) && mine !== theirs) {
      const understood = thread.steelmans.some(
        (s) => s.from === req.agent && s.to === parsed.author && s.grade === 'ACCURATE',
      );
      if (!understood) {
        return block('steelmanRequired', `${req.agent} needs an ACCURATE steelman of ${parsed.author} first`);
      }
    }
  }

  // 6. A falsifier, once offered, has to be concrete.
  if (
    (parsed.move === 'DECLARE_FALSIFIER' || parsed.move === 'COMMIT_POSITION') &&
    parsed.falsifier !== undefined &&
    !isValidFalsifier(parsed.falsifier)
  ) {
    return block('vagueFalsifier', 'falsifier needs a metric, a concrete threshold and a deadline, without vague words');
  }

  return { ok: true, parsed };
}

/**
 * CHALLENGE_CRUX: allowed in no stage, so an open thread refuses it as `stageRestriction`; on a
 * closed thread it needs a crystallized crux that is not already being reviewed, nor reviewed as
 * often as a crux may be (`threadClosed` otherwise). Then replies and the move's own requirements.
 */
function checkChallenge(state: CruxState, thread: ThreadState, req: MoveRequest): MessageCheck {
  if (isStage(thread.status)) {
    return block('stageRestriction', `CHALLENGE_CRUX is not allowed in ${thread.status}: only a crystallized crux can be challenged`);
  }
  const closed = challengeClosed(thread);
  if (closed) return block('threadClosed', closed);
  if (req.replyTo !== undefined && (state.replyCounts[req.replyTo] ?? 0) >= state.config.maxReplies) {
    return block('replyLimit', `${req.replyTo} already has ${state.replyCounts[req.replyTo]} direct replies`);
  }
  const move = checkMoveRequirements(state, thread, req);
  return move.ok ? { ok: true, parsed: move.parsed } : block('invalidMove', move.reason);
}

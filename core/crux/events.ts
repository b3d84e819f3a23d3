import type { Falsifier } from './falsifier';
import type { CoalitionLabel, CruxRecord, LockedCrux } from './state';
import type {
  BlockReason,
  GivenGrade,
  InterventionKind,
  Move,
  Side,
  SpawnRejection,
  Stage,
  ThreadStatus,
} from './vocabulary';

// Everything the state machine decides, as plain data. An engine appends these to a log and a UI
// streams them; each carries what a reader needs without looking the state up.

export type CruxEvent =
  | { type: 'thread_opened'; thread: string; topic: string; binaryQuestion: string | null }
  | {
      type: 'thread_spawned';
      thread: string;
      topic: string;
      binaryQuestion: string;
      by: string;
      supporters: string[];
    }
  | { type: 'thread_spawn_rejected'; thread: string; by: string; reason: SpawnRejection; detail: string }
  | {
      type: 'message_posted';
      id: string;
      thread: string;
      agent: string;
      move: Move;
      stage: Stage;
      content: string;
      replyTo?: string;
      meta: Record<string, unknown>;
    }
  | {
      type: 'message_blocked';
      id: string;
      thread: string;
      agent: string;
      move: Move;
      reason: BlockReason;
      detail: string;
    }
  | {
      type: 'moderator_intervention';
      id: string;
      kind: InterventionKind;
      thread: string;
      target?: string;
      content: string;
    }
  | { type: 'moderator_message'; id: string; thread: string; content: string }
  | { type: 'binary_question_set'; thread: string; question: string; by: string; messageId: string }
  | { type: 'candidate_crux'; thread: string; question: string; by: string; messageId: string }
  | { type: 'steelman_opened'; thread: string; from: string; to: string; attempt: number; messageId: string }
  | { type: 'steelman_graded'; thread: string; from: string; to: string; grade: GivenGrade; messageId: string }
  | { type: 'position_committed'; thread: string; agent: string; side: Side; messageId: string }
  | { type: 'falsifier_recorded'; thread: string; agent: string; falsifier: Falsifier; messageId: string }
  | { type: 'position_changed'; thread: string; agent: string; from: Side | null; to: Side; messageId: string }
  | {
      type: 'concession';
      thread: string;
      agent: string;
      proposition: string;
      cheap: boolean;
      messageId: string;
    }
  | { type: 'discovery_extended'; thread: string; budget: number }
  | { type: 'stage_transition'; thread: string; from: Stage; to: Stage; reason: string }
  | { type: 'lock_attempt'; thread: string; attempt: number; ok: boolean; failures: string[] }
  | { type: 'lock_failed'; thread: string; attempt: number; failures: string[] }
  | { type: 'crux_locked'; thread: string; crux: LockedCrux }
  | { type: 'crystallization_requested'; thread: string; reason: 'budget' | 'stability' | 'hardCap' }
  | { type: 'crystallized'; thread: string; crux: CruxRecord }
  | { type: 'primary_crux_changed'; from: string | null; to: string }
  | { type: 'thread_closed'; thread: string; status: ThreadStatus; reason: string }
  | { type: 'coalition_labels_set'; labels: CoalitionLabel[] }
  | { type: 'debate_stopped'; reason: string };

/** Work the state machine needs from outside, answered by the driver with another input. */
export type CruxEffect = { kind: 'analyse'; thread: string };

import type { AnalysisOutput } from './analysis';
import type { CoalitionLabel } from './state';
import type { CruxRelationKind, Move } from './vocabulary';

/** The crystallizer's answer to a challenged crux. */
export type CruxReviewAnswer = { output: AnalysisOutput } | { needsClarification: string };

// What a driver may feed the state machine. The replay driver builds these from script lines;
// a live driver will build them from agent turns and LLM answers.

export type CruxInput =
  /** A thread declared outright: no spawn gate applies. */
  | { kind: 'thread'; id: string; topic: string; binaryQuestion?: string }
  /** A proposal that must pass the spawn gates. */
  | {
      kind: 'propose_thread';
      id: string;
      by: string;
      topic: string;
      binaryQuestion?: string | null;
      supporters: string[];
    }
  | {
      kind: 'message';
      thread: string;
      agent: string;
      move: Move;
      content: string;
      replyTo?: string;
      meta?: Record<string, unknown>;
    }
  /** Free moderator text: always allowed, never budgeted. */
  | { kind: 'moderator_message'; thread: string; content: string }
  /** The answer to an `analyse` effect. */
  | { kind: 'crystallize_output'; thread: string; output: AnalysisOutput }
  /** The answer to a `review` effect: the crux re-extracted, or what needs clarifying first. */
  | { kind: 'crux_review'; thread: string; answer: CruxReviewAnswer }
  | { kind: 'coalition_labels'; labels: CoalitionLabel[] }
  /**
   * The answer to a `relate` effect: what crux `a` (crystallized first) is to crux `b`. `from` names
   * the deeper one for ENTAILS and SUPPORTS (default `a`). `note` says why a call gave nothing.
   */
  | {
      kind: 'crux_relation';
      a: string;
      b: string;
      relation: CruxRelationKind;
      from?: string;
      confidence: number;
      sketch: string;
      note?: string;
    }
  /**
   * A live debate asked `agent` whether the crux of `thread` stands as stated, and it did not
   * challenge it: ACCEPTED, or GAVE_UP when no usable answer came (a challenge is a CHALLENGE_CRUX message).
   */
  | { kind: 'crux_check'; thread: string; agent: string; outcome: 'ACCEPTED' | 'GAVE_UP' }
  /** The answer to a `check_relation` effect: the second call agrees with the proposed relation or not. */
  | { kind: 'relation_check'; a: string; b: string; agrees: boolean; note: string }
  /** For an engine that retires threads itself (merging duplicates, dropping idle ones). */
  | { kind: 'close_thread'; thread: string; status: 'STALE' | 'MERGED' }
  /** A debate-level limit (time, messages, money) stopped the debate. */
  | { kind: 'stop'; reason: string };

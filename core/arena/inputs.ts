import type {
  CritiqueAnswer,
  JudgeAnswer,
  ProposalAnswer,
  RevisionAnswer,
  SimilarityAnswer,
  TricksterAnswer,
  VoteAnswer,
} from './answers';
import type { ArenaPass, ArenaRound } from './state';

/** What the arena is fed: one answer at a time (in the order it asks), or a stop. */
export type ArenaInput =
  | { kind: 'proposal'; agent: string; output: ProposalAnswer }
  | { kind: 'critique'; agent: string; output: CritiqueAnswer }
  | { kind: 'revision'; agent: string; round: ArenaRound; output: RevisionAnswer }
  | { kind: 'refinement'; agent: string; output: RevisionAnswer }
  | { kind: 'similarity'; round: number; output: SimilarityAnswer }
  | { kind: 'vote'; agent: string; output: VoteAnswer }
  | { kind: 'trickster'; output: TricksterAnswer }
  | { kind: 'judge'; output: JudgeAnswer }
  /** An agent whose due answer could not be had leaves the arena; the others go on. */
  | { kind: 'withdraw'; agent: string; reason: string }
  | { kind: 'stop'; status: 'partial' | 'failed'; reason: string };

/** One answer the arena is waiting for. */
export type ArenaAsk =
  | { kind: 'proposal'; agent: string }
  | { kind: 'critique'; agent: string }
  | { kind: 'revision'; agent: string; round: ArenaRound }
  | { kind: 'refinement'; agent: string }
  | { kind: 'similarity'; round: number }
  | { kind: 'vote'; agent: string; pass: ArenaPass }
  | { kind: 'trickster' }
  | { kind: 'judge'; pass: ArenaPass };

/** An ask in words, for errors and transcripts: "ben's revision (round 3)". */
export function describeAsk(ask: ArenaAsk): string {
  switch (ask.kind) {
    case 'proposal':
    case 'critique':
    case 'refinement':
      return `${ask.agent}'s ${ask.kind}`;
    case 'revision':
      return `${ask.agent}'s revision (round ${ask.round})`;
    case 'vote':
      return `${ask.agent}'s ${ask.pass === 'T' ? 're-vote' : 'vote'}`;
    case 'similarity':
      return `the judged similarity of round ${ask.round}`;
    case 'trickster':
      return "the trickster's challenge";
    case 'judge':
      return "the judge's scores";
  }
}

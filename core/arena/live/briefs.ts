import type { LlmBrief } from '../../ports/llm';
import type { TricksterAnswer } from '../answers';
import type { HollowReport } from '../hollow';
import type { ArenaAsk } from '../inputs';
import {
  type ArenaPass,
  type ArenaRound,
  type ArenaState,
  activeIds,
  type Critique,
  currentProposal,
  lastVote,
  type ProposalVersion,
} from '../state';

/**
 * The brief of each arena request (see `LlmBrief`): what was asked, with the state it was asked in
 * as plain data, never sent to a model. The simulator (`core/arena/simulator.ts`) answers from it.
 */
interface Base {
  protocol: 'arena';
  topic: string;
  agents: string[];
}

export type ArenaBrief =
  | (Base & { kind: 'proposal'; agent: string })
  | (Base & { kind: 'critique'; agent: string; proposals: Record<string, ProposalVersion> })
  | (Base & {
      kind: 'revision' | 'refinement';
      agent: string;
      round: ArenaRound;
      proposals: Record<string, ProposalVersion>;
      critiques: Critique[];
      /** The critiques this agent has already listed as addressed. */
      addressed: string[];
      challenge: TricksterAnswer | null;
    })
  | (Base & { kind: 'similarity'; round: number; proposals: Record<string, ProposalVersion> })
  | (Base & {
      kind: 'vote';
      agent: string;
      pass: ArenaPass;
      selfVote: boolean;
      proposals: Record<string, ProposalVersion>;
    })
  | (Base & { kind: 'trickster'; leader: string; hollow: HollowReport; proposals: Record<string, ProposalVersion> })
  | (Base & {
      kind: 'judge';
      pass: ArenaPass;
      proposals: Record<string, ProposalVersion>;
      tally: Record<string, number>;
    });

// Keeps the union in step with the port's base.
const briefIsLlmBrief = (b: ArenaBrief): LlmBrief => b;
void briefIsLlmBrief;

function proposalsOf(state: ArenaState): Record<string, ProposalVersion> {
  return Object.fromEntries(
    activeIds(state).flatMap((a) => {
      const p = currentProposal(state, a);
      return p ? [[a, p]] : [];
    }),
  );
}

export function arenaBrief(state: ArenaState, ask: ArenaAsk): ArenaBrief {
  // The agents still in the arena: an agent that left is critiqued, voted for and scored no more.
  const base: Base = { protocol: 'arena', topic: state.topic, agents: activeIds(state) };
  const proposals = proposalsOf(state);
  switch (ask.kind) {
    case 'proposal':
      return { ...base, kind: 'proposal', agent: ask.agent };
    case 'critique':
      return { ...base, kind: 'critique', agent: ask.agent, proposals };
    case 'revision':
    case 'refinement':
      return {
        ...base,
        kind: ask.kind,
        agent: ask.agent,
        round: ask.kind === 'revision' ? ask.round : 6,
        proposals,
        critiques: state.critiques,
        addressed: state.revisions.filter((r) => r.agent === ask.agent).flatMap((r) => r.addressed),
        challenge: ask.kind === 'revision' && ask.round === 'T' ? state.challenge : null,
      };
    case 'similarity':
      return { ...base, kind: 'similarity', round: ask.round, proposals };
    case 'vote':
      return { ...base, kind: 'vote', agent: ask.agent, pass: ask.pass, selfVote: state.config.selfVote, proposals };
    case 'trickster':
      return {
        ...base,
        kind: 'trickster',
        leader: lastVote(state)?.outcome.leader ?? '',
        hollow: state.hollow ?? { detected: false, reasons: [] },
        proposals,
      };
    case 'judge':
      return { ...base, kind: 'judge', pass: ask.pass, proposals, tally: lastVote(state)?.outcome.tally ?? {} };
  }
}

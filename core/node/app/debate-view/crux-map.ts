import type { CruxMap, CruxNode, TranscriptMessage, TranscriptRef } from '../../../contract';
import type { ThreadState } from '../../../crux/state';
import type { Side } from '../../../crux/vocabulary';
import type { DebateStatus } from '../../../engine/debate-record';
import type { DebateDigest } from './debate-digests';
import { falsifierView } from './progress';

/** Moves that carry a position or its grounds: what "supporting messages" of a crux lists. */
const SUPPORTING_MOVES = new Set([
  'PROPOSE_CRUX',
  'COMMIT_POSITION',
  'DECLARE_FALSIFIER',
  'UPDATE_POSITION',
  'CONCEDE',
  'PROVIDE_EVIDENCE',
  'CHALLENGE_EVIDENCE',
]);

export function excerpt(text: string, width = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function ref(message: TranscriptMessage): TranscriptRef {
  return {
    index: message.index,
    messageId: message.id,
    agent: message.agent,
    move: message.move,
    excerpt: excerpt(message.content),
  };
}

function positionsOf(thread: ThreadState, agentOrder: readonly string[]): CruxNode['positions'] {
  const crux = thread.crux;
  if (crux) {
    return agentOrder
      .filter((a) => crux.positions[a])
      .map((agent) => {
        const p = crux.positions[agent] as NonNullable<(typeof crux.positions)[string]>;
        return {
          agent,
          side: p.side,
          confidence: p.confidence,
          statement: p.statement,
          falsifier: falsifierView(p.falsifier),
          wouldFlip: crux.counterfactual[agent]?.wouldFlip ?? null,
        };
      });
  }
  return agentOrder
    .filter((a) => thread.stances[a] || thread.commitments[a])
    .map((agent) => {
      const stance = thread.stances[agent];
      const commit = thread.commitments[agent];
      return {
        agent,
        side: stance?.side ?? commit?.side ?? 'UNCERTAIN',
        confidence: stance?.confidence ?? commit?.confidence ?? null,
        statement: commit?.statement ?? null,
        falsifier: falsifierView(thread.falsifiers[agent]),
        wouldFlip: null,
      };
    });
}

/**
 * Two crystallized cruxes contradict each other when at least two agents took a YES/NO side on
 * both and every one of them answered the two oppositely: in the agents' own reading, a YES to
 * one is a NO to the other.
 */
function mirrored(a: CruxNode, b: CruxNode): string[] | null {
  const sideB = new Map(b.positions.map((p) => [p.agent, p.side] as [string, Side]));
  const both = a.positions.filter((p) => p.side !== 'UNCERTAIN' && (sideB.get(p.agent) ?? 'UNCERTAIN') !== 'UNCERTAIN');
  if (both.length < 2) return null;
  return both.every((p) => sideB.get(p.agent) !== p.side) ? both.map((p) => p.agent) : null;
}

/**
 * A debate's crux map: one node per thread that has a binary question (its crux once it
 * crystallizes) and one per deeper crux proposed in EVIDENCE; agents with their coalitions; edges
 * for dependencies (a deeper crux proposed in a thread, a thread spawned from a reframe in another)
 * and contradictions (see `mirrored`). docs/ui-debates.md explains the choices.
 */
export function buildCruxMap(
  digest: DebateDigest,
  messages: readonly TranscriptMessage[],
  status: DebateStatus,
  layout: CruxMap['layout'],
): CruxMap {
  const { header, state, outcome } = digest;
  const agentOrder = header.agents.map((a) => a.id);
  const byThread = new Map<string, TranscriptMessage[]>();
  const byId = new Map<string, TranscriptMessage>();
  for (const m of messages) {
    byId.set(m.id, m);
    if (m.kind !== 'message') continue;
    const list = byThread.get(m.thread) ?? [];
    list.push(m);
    byThread.set(m.thread, list);
  }

  const cruxes: CruxNode[] = [];
  const edges: CruxMap['edges'] = [];
  for (const thread of state.threads) {
    const question = thread.crux?.question ?? thread.binaryQuestion;
    const id = `crux:${thread.id}`;
    if (question) {
      cruxes.push({
        id,
        thread: thread.id,
        kind: 'crux',
        question,
        threadStatus: thread.status,
        crystallized: thread.crux !== null,
        validated: thread.crux?.validated ?? false,
        primary: state.primaryCrux === thread.id,
        dcg: thread.crux ? thread.crux.dcg.score : null,
        validationFailures: [...(thread.crux?.validationFailures ?? [])],
        dominantHorizon: thread.crux?.dominantHorizon ?? null,
        positions: positionsOf(thread as ThreadState, agentOrder),
        resolutionCriteria: [...(thread.crux?.resolutionCriteria ?? [])],
        supporting: (byThread.get(thread.id) ?? []).filter((m) => m.move && SUPPORTING_MOVES.has(m.move)).map(ref),
        history: structuredClone(thread.crux?.history ?? []),
      });
    }
    for (const candidate of thread.candidateCruxes) {
      const candidateId = `candidate:${candidate.messageId}`;
      const proposal = byId.get(candidate.messageId);
      cruxes.push({
        id: candidateId,
        thread: thread.id,
        kind: 'candidate',
        question: candidate.question,
        threadStatus: thread.status,
        crystallized: false,
        validated: false,
        primary: false,
        dcg: null,
        validationFailures: [],
        dominantHorizon: null,
        positions: [],
        resolutionCriteria: [],
        supporting: proposal ? [ref(proposal)] : [],
        history: [],
      });
      if (question) {
        edges.push({
          kind: 'dependency',
          from: candidateId,
          to: id,
          reason: `${candidate.by} proposed it as a deeper crux while ${thread.id} weighed evidence (${candidate.messageId})`,
        });
      }
    }
  }

  // A spawned thread grew out of a REFRAME in another thread: the parent's crux rests on it.
  const nodeIds = new Set(cruxes.map((c) => c.id));
  for (const thread of state.threads) {
    if (thread.origin !== 'spawn') continue;
    const source = digest.reframes.find(
      (r) => r.author === thread.proposedBy && r.question === thread.topic && r.thread !== thread.id,
    );
    if (!source) continue;
    const from = `crux:${thread.id}`;
    const to = `crux:${source.thread}`;
    if (nodeIds.has(from) && nodeIds.has(to)) {
      edges.push({
        kind: 'dependency',
        from,
        to,
        reason: `spawned from ${source.author}'s reframe in ${source.thread} (${source.id})`,
      });
    }
  }

  const crystallized = cruxes.filter((c) => c.crystallized);
  for (let i = 0; i < crystallized.length; i++) {
    for (let j = i + 1; j < crystallized.length; j++) {
      const a = crystallized[i] as CruxNode;
      const b = crystallized[j] as CruxNode;
      const agents = mirrored(a, b);
      if (agents) {
        edges.push({
          kind: 'contradiction',
          from: a.id,
          to: b.id,
          reason: `${agents.join(', ')} answer the two oppositely`,
        });
      }
    }
  }

  const coalitions = outcome.result.coalitions.map((c) => ({
    label: c.label,
    members: [...c.members],
    positions: { ...c.positions },
  }));
  return {
    debateId: header.id,
    topic: header.topic,
    ideaSlug: header.ideaSlug,
    status,
    agents: header.agents.map((a) => {
      const index = coalitions.findIndex((c) => c.members.includes(a.id));
      return { id: a.id, name: a.name, persona: a.persona, coalition: index >= 0 ? index : null };
    }),
    coalitions,
    cruxes,
    edges,
    layout,
  };
}

import { memoryBlock } from '../../memory/relevance';
import type { CruxState, ThreadState } from '../state';

/**
 * What a debate is about, as the agents read it: an idea (its title, its one-line summary and its
 * README body) or a topic the researcher wrote. Every agent gets the same words, so the block is
 * shared by all of them and sits ahead of any persona.
 */
export type DebateSubject = (
  | { kind: 'idea'; slug: string; title: string; summary: string; body: string }
  | { kind: 'topic'; text: string }
) & { memory?: string[] };

/** What every request of a debate carries beside its transcript. */
export interface DebateContext {
  subject: DebateSubject;
  /** Today, as YYYY-MM-DD: falsifiers need dated deadlines, and a model does not know the date. */
  today: string;
}

/** A debate started before subjects were recorded debates its topic line. */
export function subjectOrTopic(subject: DebateSubject | undefined, topic: string): DebateSubject {
  return subject ?? { kind: 'topic', text: topic };
}

export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** The subject as the block every agent reads first. */
export function subjectBlock(subject: DebateSubject): string {
  // Earlier runs' episodes (core/memory) follow the subject; a debate with none reads as before.
  const memory = subject.memory?.length ? `\n\n${memoryBlock(subject.memory)}` : '';
  if (subject.kind === 'topic') return `# What this debate is about\n\n${subject.text.trim()}${memory}`;
  return `${[
    `# The idea under debate: ${subject.title}`,
    `Summary: ${subject.summary.trim() || '(no summary given)'}`,
    "The researcher's README follows, verbatim. It is the only source you have: quote it when you rely on it.",
    '<idea-readme>',
    subject.body.trim(),
    '</idea-readme>',
  ].join('\n\n')}${memory}`;
}

/** One agent, as others are told of it: display name first, id in brackets. */
export function nameOf(state: Pick<CruxState, 'agents'>, id: string): string {
  const agent = state.agents.find((a) => a.id === id);
  return agent ? `${agent.name} [${agent.id}]` : id;
}

/**
 * Who is in the debate and where each stands in this thread: name, id, side, confidence, whether a
 * falsifier is on record, and the top claim they started from (so the first request already names the
 * opponents and what they hold).
 */
export function rosterLines(state: CruxState, thread: ThreadState, me?: string): string {
  const lines = state.agents.map((a) => {
    const stance = thread.stances[a.id];
    const commitment = thread.commitments[a.id];
    const side = stance?.side ?? null;
    const confidence = stance?.confidence ?? commitment?.confidence;
    const position = side
      ? `side ${side}${confidence === undefined ? '' : `, confidence ${confidence}`}`
      : 'not committed in this thread';
    const falsifier = thread.falsifiers[a.id] ? 'falsifier on record' : 'no falsifier';
    const claim = a.topClaim ? `; top claim (${a.topClaim.side}): "${a.topClaim.statement}"` : '';
    return `- ${a.name} [${a.id}]${a.id === me ? ' (you)' : ''}: ${position}, ${falsifier}${claim}`;
  });
  return `Agents (name [id]):\n${lines.join('\n')}`;
}

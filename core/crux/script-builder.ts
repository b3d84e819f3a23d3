import type { Move } from './vocabulary';

// Small builders for replay scripts, so fixtures and tests can state a debate in a few lines and
// still produce exactly the JSONL text the replay driver reads. Nothing here knows the rules:
// a builder never decides whether a message will be accepted.

export type ScriptObject = Record<string, unknown>;

export function debate(agents: readonly string[], config: ScriptObject = {}, topic = 'Test topic'): ScriptObject {
  return {
    type: 'debate',
    topic,
    agents: agents.map((id) => ({
      id,
      name: id.toUpperCase(),
      topClaim: { statement: `${id} top claim`, side: 'YES', confidence: 0.5 },
      defaultHorizon: '5y',
    })),
    config,
  };
}

export function thread(id: string, topic = `Topic ${id}`): ScriptObject {
  return { type: 'thread', id, topic };
}

export interface MessageOptions {
  content?: string;
  replyTo?: string;
}

export function message(
  threadId: string,
  agent: string,
  move: Move,
  meta: ScriptObject = {},
  options: MessageOptions = {},
): ScriptObject {
  return {
    type: 'message',
    thread: threadId,
    agent,
    move,
    // Empty by default so that filler messages never look like orbiting.
    content: options.content ?? '',
    ...(options.replyTo === undefined ? {} : { replyTo: options.replyTo }),
    meta,
  };
}

export function propose(
  id: string,
  by: string,
  supporters: readonly string[],
  binaryQuestion: string | null,
  topic = `Topic ${id}`,
): ScriptObject {
  return { type: 'propose_thread', id, by, topic, binaryQuestion, supporters };
}

/** A falsifier that passes every check. */
export function falsifier(metric = 'Quarterly output per employee', threshold = 'rises by 10%'): ScriptObject {
  return { metric, threshold, deadline: '2027-12-31' };
}

export interface PositionSpec {
  side: 'YES' | 'NO' | 'UNCERTAIN';
  confidence?: number;
  wouldFlip?: boolean;
  falsifier?: ScriptObject;
}

/** An analysis output: positions and counterfactuals from a compact per-agent spec. */
export function analysis(specs: Record<string, PositionSpec>, extra: ScriptObject = {}): ScriptObject {
  const positions: ScriptObject = {};
  const counterfactual: ScriptObject = {};
  for (const [agent, spec] of Object.entries(specs)) {
    positions[agent] = {
      side: spec.side,
      statement: `${agent} holds ${spec.side}`,
      confidence: spec.confidence ?? 0.8,
      ...(spec.falsifier ? { falsifier: spec.falsifier } : {}),
    };
    counterfactual[agent] = { wouldFlip: spec.wouldFlip ?? true, why: `${agent} would reconsider` };
  }
  return {
    question: 'Does the policy raise output within 18 months?',
    positions,
    resolutionCriteria: ['Output per employee at 18 months', 'Share of firms keeping the policy in 2028'],
    counterfactual,
    confidence: 0.8,
    ...extra,
  };
}

export function crystallize(threadId: string, output: ScriptObject): ScriptObject {
  return { type: 'crystallize', thread: threadId, output };
}

export function coalitionLabels(labels: { members: string[]; label: string }[]): ScriptObject {
  return { type: 'coalition_labels', labels };
}

/** A crux_relation line: the cross-thread analysis' answers for the cruxes a and b (`check` when it is asked). */
export function relation(
  a: string,
  b: string,
  kind: string,
  confidence: number,
  extra: { from?: string; sketch?: string; check?: { agrees: boolean; note: string } } = {},
): ScriptObject {
  return {
    type: 'crux_relation',
    a,
    b,
    relation: kind,
    confidence,
    sketch: extra.sketch ?? `Answering ${a} settles what ${b} asks, by the same measure.`,
    ...(extra.from ? { from: extra.from } : {}),
    ...(extra.check ? { check: extra.check } : {}),
  };
}

/** Six DISCOVERY messages ending in a PROPOSE_CRUX: the earliest exit the defaults allow. */
export function quickDiscovery(
  threadId: string,
  a: string,
  b: string,
  question = 'Does the policy raise output within 18 months?',
): ScriptObject[] {
  return [
    message(threadId, a, 'CLAIM'),
    message(threadId, b, 'CHALLENGE'),
    message(threadId, a, 'CLARIFY'),
    message(threadId, b, 'REFRAME'),
    message(threadId, a, 'CLAIM'),
    message(threadId, b, 'PROPOSE_CRUX', { question }),
  ];
}

export function commit(
  threadId: string,
  agent: string,
  side: 'YES' | 'NO' | 'UNCERTAIN',
  extra: ScriptObject = {},
): ScriptObject {
  return message(threadId, agent, 'COMMIT_POSITION', {
    side,
    confidence: 0.7,
    horizon: '5y',
    falsifier: falsifier(),
    ...extra,
  });
}

/** Six CRUX_LOCK messages that satisfy every lock criterion for a YES agent and a NO agent. */
export function quickLock(threadId: string, yes: string, no: string): ScriptObject[] {
  return [
    commit(threadId, yes, 'YES'),
    commit(threadId, no, 'NO'),
    message(threadId, yes, 'STEELMAN', { steelmanTarget: no }),
    message(threadId, no, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
    message(threadId, no, 'STEELMAN', { steelmanTarget: yes }),
    message(threadId, yes, 'GRADE_STEELMAN', { steelmanGrade: 'ACCURATE' }),
  ];
}

/** `count` PROVIDE_EVIDENCE messages, alternating between the two agents. */
export function evidence(threadId: string, a: string, b: string, count: number): ScriptObject[] {
  return Array.from({ length: count }, (_, i) => message(threadId, i % 2 === 0 ? a : b, 'PROVIDE_EVIDENCE'));
}

/** Config under which `quickCrux` threads crystallize after 9 messages. */
export const FAST_CONFIG: ScriptObject = { earlyExitMinMessages: 2, budgets: { EVIDENCE: 1 } };

/**
 * A whole thread that crystallizes fast under FAST_CONFIG: 2 DISCOVERY messages, the 6 of
 * `quickLock` and 1 EVIDENCE message, followed by its crystallize line.
 */
export function quickCrux(threadId: string, yes: string, no: string, output: ScriptObject): ScriptObject[] {
  return [
    thread(threadId, `Topic ${threadId}`),
    message(threadId, yes, 'CLAIM'),
    message(threadId, no, 'PROPOSE_CRUX', { question: `Is ${threadId} the question?` }),
    ...quickLock(threadId, yes, no),
    message(threadId, yes, 'PROVIDE_EVIDENCE'),
    crystallize(threadId, output),
  ];
}

export function script(...lines: (ScriptObject | ScriptObject[])[]): string {
  return lines
    .flat()
    .map((l) => JSON.stringify(l))
    .join('\n');
}

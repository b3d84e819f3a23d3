import type { CourseThread, DebateCourse } from '../../../contract';
import { buildCrux } from '../../../crux/crystallize';
import type { CruxInput } from '../../../crux/inputs';
import type { CruxState, ThreadState } from '../../../crux/state';
import { advance } from '../../../crux/step';
import { initialState } from '../../../crux/live/entry';
import type { DebateRecord } from '../../../engine/debate-record';
import { TRANSCRIPT_EVENTS } from './transcripts';

/** The log events that are a message of the transcript (as Transcripts numbers them). */
const MESSAGE_EVENTS: ReadonlySet<string> = new Set(TRANSCRIPT_EVENTS);

export type Course = Omit<DebateCourse, 'status' | 'ideaSlug'>;
type Points = { dcg: CourseThread['dcgPoints']; positions: Map<string, CourseThread['positions'][number]['points']> };

/**
 * How a debate went, message by message: the log's inputs folded through the protocol one at a time
 * (as a resume does), and after each message the thread it was in is looked at: each agent's side
 * and confidence, and the DCG the thread would have now. Only changes are kept, so a long debate
 * gives a short series. The x of every point is a transcript index (the log's message events
 * counted in order, as the transcript numbers them), so a point links to its message.
 *
 * Before crystallization the DCG is the protocol's own formula (buildCrux → computeDcg over the
 * positions as they stand) with every agent counted as one who would change its mind: the
 * counterfactual is what the analysis adds at crystallization, and assuming it lets the curve show
 * how the split and the falsifiers build up. The crux's DCG replaces it when the thread crystallizes.
 */
export function courseOf(records: readonly DebateRecord[]): Course {
  const first = records[0];
  if (first?.type !== 'debate_created') throw new Error('a debate log starts with its header');
  const { header } = first;
  const state: CruxState = initialState(header);
  const everyoneWouldFlip = Object.fromEntries(header.agents.map((a) => [a.id, { wouldFlip: true, why: '' }]));
  const points = new Map<string, Points>();
  const crystallizedAt = new Map<string, number>();
  let messages = 0;
  /** The id of each message counted, in order (a chart's point is named by its message's id). */
  const messageIds: string[] = [];
  /** The thread the last input was in, looked at once its events (and so its messages) are counted. */
  let pending: string | null = null;
  /** Messages counted before the last input's events: its own message, if it made one, is the next. */
  let before = 0;

  const look = (threadId: string) => {
    const thread = state.threads.find((t) => t.id === threadId);
    if (!thread) return;
    // The input's own message (an agent's move comes before any moderator note it triggers), or the
    // last message so far for an input that made none (a crystallization).
    const index = messages > before ? before : Math.max(0, messages - 1);
    let p = points.get(threadId);
    if (!p) {
      p = { dcg: [], positions: new Map() };
      points.set(threadId, p);
    }
    if (thread.crux) {
      if (!crystallizedAt.has(threadId)) {
        crystallizedAt.set(threadId, index);
        p.dcg.push({ index, score: thread.crux.dcg.score, final: true });
        for (const [agent, pos] of Object.entries(thread.crux.positions)) {
          note(p, agent, { index, side: pos.side, confidence: clamp(pos.confidence) });
        }
      }
      return;
    }
    for (const [agent, stance] of Object.entries(thread.stances)) {
      const confidence = stance.confidence ?? thread.commitments[agent]?.confidence ?? null;
      note(p, agent, { index, side: stance.side, confidence: confidence === null ? null : clamp(confidence) });
    }
    const score = provisionalDcg(state, thread, everyoneWouldFlip);
    const last = p.dcg.at(-1);
    if (last?.score !== score && !(last === undefined && score === 0)) p.dcg.push({ index, score, final: false });
  };

  for (const record of records) {
    if (record.type === 'input') {
      if (pending !== null) look(pending);
      const input = record.input as unknown as CruxInput;
      advance(state, input);
      before = messages;
      pending =
        input.kind === 'thread' || input.kind === 'propose_thread' ? input.id : 'thread' in input ? input.thread : null;
    } else if (record.type === 'event' && MESSAGE_EVENTS.has(String(record.event.type))) {
      messages++;
      messageIds.push(String((record.event as { id?: unknown }).id ?? `#${messages - 1}`));
    }
  }
  if (pending !== null) look(pending);

  return {
    debateId: header.id,
    topic: header.topic,
    messages,
    messageIds,
    agents: header.agents.map((a) => ({ id: a.id, name: a.name, persona: a.persona ?? null })),
    threads: state.threads.map((t) => {
      const p = points.get(t.id);
      return {
        id: t.id,
        topic: t.topic,
        question: t.crux?.question ?? t.binaryQuestion,
        status: t.status,
        crystallizedAt: crystallizedAt.get(t.id) ?? null,
        dcg: t.crux ? t.crux.dcg.score : null,
        validated: t.crux?.validated ?? false,
        primary: state.primaryCrux === t.id,
        dcgPoints: p?.dcg ?? [],
        positions: [...(p?.positions ?? new Map())].map(([agent, list]) => ({ agent, points: list })),
      };
    }),
  };
}

const clamp = (n: number) => Math.min(1, Math.max(0, n));

function note(p: Points, agent: string, point: CourseThread['positions'][number]['points'][number]): void {
  let list = p.positions.get(agent);
  if (!list) {
    list = [];
    p.positions.set(agent, list);
  }
  const last = list.at(-1);
  if (last && last.side === point.side && last.confidence === point.confidence) return;
  list.push(point);
}

/** The DCG the thread would have if it crystallized now on its positions, every agent counted as willing to flip. */
function provisionalDcg(
  state: CruxState,
  thread: ThreadState,
  counterfactual: Record<string, { wouldFlip: boolean; why: string }>,
): number {
  const crux = buildCrux(state, thread, {
    positions: {},
    resolutionCriteria: [],
    counterfactual,
    confidence: 0,
  });
  return crux.dcg.score;
}

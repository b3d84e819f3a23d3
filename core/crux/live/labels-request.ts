import type { LlmBrief, LlmRequest } from '../../ports/llm';
import { coalitionsOf } from '../result';
import type { CruxState } from '../state';
import { coalitionLabelsAnswerSchema } from './answer';
import type { DebateContext } from './subject';
import { crystallizerSystem } from './system-prompt';

/**
 * The coalitions' names (seed 000: "a 2–3 word label for this camp"), asked of the crystallizer once a
 * live debate has ended with coalitions: one call for all of them, answered with a `coalition_labels`
 * input. Labels are matched to coalitions by their member sets, as a script's are.
 */

export interface LabelsBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'labels';
  topic: string;
  coalitions: { members: string[]; positions: { question: string; side: 'YES' | 'NO' }[] }[];
}

export type LabelsAnswer = { labels: { members: string[]; label: string }[] };

/** Whether a label call is due: the coalitions exist and have not been labelled yet. */
export function labelsDue(state: CruxState): boolean {
  return !state.coalitionsLabelled && coalitionsOf(state).length > 0;
}

export function labelsRequest(
  state: CruxState,
  persona: { systemPrompt: string; tier: 'fast' | 'standard' | 'deep' },
  context: DebateContext,
): LlmRequest<LabelsAnswer> {
  const question = (thread: string) => state.threads.find((t) => t.id === thread)?.crux?.question ?? thread;
  const brief: LabelsBrief = {
    protocol: 'crux',
    kind: 'labels',
    topic: state.topic,
    coalitions: coalitionsOf(state).map((c) => ({
      members: [...c.members],
      positions: Object.entries(c.positions).map(([thread, side]) => ({ question: question(thread), side })),
    })),
  };
  const name = (id: string) => state.agents.find((a) => a.id === id)?.name ?? id;
  const lines = brief.coalitions.map(
    (c, i) =>
      `Coalition ${i + 1}: ${c.members.map((m) => `${name(m)} [${m}]`).join(', ')}\n` +
      c.positions.map((p) => `  ${p.side} on: ${p.question}`).join('\n'),
  );
  const words =
    `Today is ${context.today}. The debate ended with these groups of agents who answer its cruxes alike.\n\n${lines.join('\n\n')}\n\n` +
    'Name each group in two or three words that say what its members hold (e.g. "Cost skeptics"), never by who they are. ' +
    'Give each label with the members exactly as listed (their ids).';
  return {
    system: crystallizerSystem(context.subject, persona.systemPrompt),
    messages: [{ role: 'user', content: words }],
    stablePrefix: 0,
    // Asked once, after the threads are done: no later call shares its prefix.
    cache: false,
    brief,
    schema: coalitionLabelsAnswerSchema,
    schemaName: 'crux_coalition_labels',
    schemaDescription: 'A short label for each coalition of the debate.',
    tier: persona.tier,
    maxTokens: 400,
  };
}

/** The answer as an input the machine takes: only labels whose members are a coalition's, in full. */
export function labelsInput(state: CruxState, answer: LabelsAnswer): { members: string[]; label: string }[] {
  const sets = coalitionsOf(state).map((c) => [...c.members].sort().join(','));
  return answer.labels
    .filter((l) => sets.includes([...l.members].sort().join(',')) && l.label.trim() !== '')
    .map((l) => ({ members: [...l.members], label: l.label.trim() }));
}

import { z } from 'zod';
import type { AnswerCheck, Llm, LlmBrief, LlmCallRecord, LlmRequest, ModelTier } from '../../ports/llm';
import { LlmError } from '../../ports/llm';
import type { CruxResult } from '../result-schema';
import { count } from '../schema-parts';
import { SIDES, type Side } from '../vocabulary';
import { type DebateSubject, subjectBlock } from './subject';

/**
 * Was the debate worth it? The single pass it is measured against: each agent asked once, alone,
 * where it stands on the subject, how sure it is and which yes/no question it would name as the
 * crux. Set beside the debate's result, with what each cost, it shows what the debate added.
 */

export interface BaselineBrief extends LlmBrief {
  protocol: 'crux';
  kind: 'baseline';
  topic: string;
  agent: { id: string; name: string };
  topClaim: { statement: string; side: Side; confidence: number } | null;
}

export const baselineAnswerSchema = z.object({
  side: z.enum(SIDES).describe('YES if the idea or claim holds up, NO if it does not, UNCERTAIN if you cannot say'),
  confidence: z.number().min(0).max(1).describe('how sure you are, 0 to 1'),
  crux: z
    .string()
    .min(1)
    .describe('the one yes/no question, ending in "?", whose answer would most change your mind, under 30 words'),
  reason: z.string().min(1).describe('why you stand there, one or two sentences'),
});
export type BaselineAnswer = z.infer<typeof baselineAnswerSchema>;

const usd = z.number().nonnegative();

/** A baseline as stored beside the debate's log (`<id>.baseline.json`). */
export const baselineSchema = z.object({
  version: z.literal(1),
  createdAt: z.string(),
  answers: z.array(
    z.object({
      agent: z.string(),
      /** null when the agent's call failed (`error` says why). */
      answer: baselineAnswerSchema.nullable(),
      error: z.string().nullable(),
    }),
  ),
  usage: z.object({ llmCalls: count, inputTokens: count, outputTokens: count, cacheReadTokens: count, costUsd: usd }),
});
export type Baseline = z.infer<typeof baselineSchema>;

const side = z.enum(SIDES);
const cost = z.object({ llmCalls: count, costUsd: usd });

/** The single pass beside the debate, agent by agent, and what each cost. */
export const baselineComparisonSchema = z.object({
  createdAt: z.string(),
  /** The crux the debate's outcome leads with (its primary one, or the best crystallized), or null. */
  debateCrux: z.string().nullable(),
  agents: z.array(
    z.object({
      agent: z.string(),
      single: baselineAnswerSchema.nullable(),
      error: z.string().nullable(),
      /** The agent's position on `debateCrux`, or null when it has none. */
      debate: z.object({ side, confidence: z.number() }).nullable(),
    }),
  ),
  cost: z.object({ single: cost, debate: cost }),
});
export type BaselineComparison = z.infer<typeof baselineComparisonSchema>;

export interface BaselineAgent {
  id: string;
  name: string;
  systemPrompt: string;
  tier: ModelTier;
  topClaim?: { statement: string; side: Side; confidence: number } | undefined;
}

const checkCrux = (value: BaselineAnswer): AnswerCheck<BaselineAnswer> =>
  value.crux.trim().endsWith('?')
    ? { ok: true, value: { ...value, crux: value.crux.trim() } }
    : { ok: false, problems: ['crux: one yes/no question ending in "?"'] };

/** The single pass's kind of call: its answer's name, what the meter and the cost preview count it by. */
export const BASELINE_KIND = 'crux_baseline';

export function baselineRequest(
  subject: DebateSubject,
  topic: string,
  agent: BaselineAgent,
  today: string,
): LlmRequest<BaselineAnswer> {
  const brief: BaselineBrief = {
    protocol: 'crux',
    kind: 'baseline',
    topic,
    agent: { id: agent.id, name: agent.name },
    topClaim: agent.topClaim ?? null,
  };
  return {
    system: [subjectBlock(subject), `# Who you are\n\n${agent.systemPrompt.trim()}`].join('\n\n'),
    messages: [
      {
        role: 'user',
        content:
          `Today is ${today}. You are ${agent.name} [${agent.id}], answering alone, once, without a debate. ` +
          'Where do you stand on the subject above: YES (it holds up), NO or UNCERTAIN, and how sure are you (0 to 1)? ' +
          'Name the crux: the one yes/no question whose answer would most change your mind. Say why in a sentence or two.',
      },
    ],
    brief,
    schema: baselineAnswerSchema,
    schemaName: BASELINE_KIND,
    schemaDescription: 'Your position, your confidence and the crux you would name, in one pass.',
    tier: agent.tier,
    maxTokens: 400,
    check: checkCrux,
  };
}

function addCalls(usage: Baseline['usage'], calls: readonly LlmCallRecord[]): void {
  for (const c of calls) {
    usage.llmCalls += 1;
    usage.inputTokens += c.usage.inputTokens;
    usage.outputTokens += c.usage.outputTokens;
    usage.cacheReadTokens += c.usage.cacheReadTokens;
    usage.costUsd += c.costUsd;
  }
}

/**
 * One call per agent, all at once. A failed call is kept as that agent's error (its calls still
 * count toward the cost); a failure that is not the model's is a bug and propagates.
 */
export async function runBaseline(
  llm: Llm,
  setup: { subject: DebateSubject; topic: string; agents: readonly BaselineAgent[]; now: () => number },
): Promise<Baseline> {
  const today = new Date(setup.now()).toISOString().slice(0, 10);
  const usage: Baseline['usage'] = { llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, costUsd: 0 };
  const answers = await Promise.all(
    setup.agents.map(async (agent) => {
      try {
        const { value, calls } = await llm.call(baselineRequest(setup.subject, setup.topic, agent, today));
        addCalls(usage, calls);
        return { agent: agent.id, answer: value, error: null };
      } catch (error) {
        if (!(error instanceof LlmError)) throw error;
        addCalls(usage, error.calls);
        return { agent: agent.id, answer: null, error: error.message.split('\n')[0] ?? error.message };
      }
    }),
  );
  return { version: 1, createdAt: new Date(setup.now()).toISOString(), answers, usage };
}

/** The thread the outcome leads with: the primary crux, or else the best crystallized one. */
function leadingCrux(result: CruxResult): NonNullable<CruxResult['threads'][number]['crux']> | null {
  const primary = result.threads.find((t) => t.id === result.primaryCrux)?.crux;
  if (primary) return primary;
  const crystallized = result.threads.flatMap((t) => (t.crux ? [t.crux] : []));
  return crystallized.sort((a, b) => b.dcg.score - a.dcg.score)[0] ?? null;
}

export function compareBaseline(baseline: Baseline, result: CruxResult): BaselineComparison {
  const crux = leadingCrux(result);
  return {
    createdAt: baseline.createdAt,
    debateCrux: crux?.question ?? null,
    agents: baseline.answers.map((a) => {
      const position = crux?.positions[a.agent];
      return {
        agent: a.agent,
        single: a.answer,
        error: a.error,
        debate: position ? { side: position.side, confidence: position.confidence } : null,
      };
    }),
    cost: {
      single: { llmCalls: baseline.usage.llmCalls, costUsd: baseline.usage.costUsd },
      debate: { llmCalls: result.systemMetrics.llmCalls, costUsd: result.systemMetrics.costUsd },
    },
  };
}

import { z } from 'zod';
import type { LlmBrief, LlmRequest } from '../ports/llm';
import type { Stakes } from './actions';
import {
  episodeOutputSchema,
  outcomeOutputSchema,
  type ProposalOutput,
  proposalOutputSchema,
  type ReviewOutput,
  reviewOutputSchema,
} from './answers';
import type { Flag } from './flags';
import type { CouncilAsk } from './inputs';
import { COUNCIL_PERSONAS, COUNCIL_RULES } from './personas';
import {
  type ActionResult,
  type CouncilState,
  currentProposal,
  lastVersion,
  type Postcondition,
  type VersionKind,
} from './state';
import type { CouncilAgent, Weights } from './values';

/** The executor's answer when asked for a proposal: one, or that the task needs nothing more. */
export const nextProposalSchema = z.strictObject({
  done: z.boolean().describe('true when the task needs no further action'),
  summary: z.string().describe('one sentence: what the proposal does, or why nothing more is needed'),
  proposal: proposalOutputSchema.nullable().describe('the proposal (null when done)'),
});
export type NextProposal = z.infer<typeof nextProposalSchema>;

/** What a council call is about, as data (the simulator answers from it; a model reads the prose). */
export interface CouncilBrief extends LlmBrief {
  protocol: 'council';
  kind: CouncilAsk['role'];
  agent: CouncilAgent;
  task: string;
  idea: string | null;
  /** How many proposals the task has had before this one. */
  proposals: number;
  /** The version under discussion, if any, with its number, stakes and flags. */
  version: { n: number; kind: VersionKind; output: ProposalOutput; stakes: Stakes; flags: Flag[] } | null;
  /** The reviews this agent may see (the verifier never sees the integrator's vote of the same round). */
  reviews: Partial<Record<CouncilAgent, ReviewOutput>>;
  results: ActionResult[];
  postconditions: Postcondition[];
  weights: Weights;
  memory: string[];
}

function briefOf(state: CouncilState, ask: CouncilAsk): CouncilBrief {
  const p = currentProposal(state);
  const v = p && p.versions.length > 0 ? lastVersion(p) : null;
  const reviews: Partial<Record<CouncilAgent, ReviewOutput>> = {};
  if (v)
    for (const [agent, review] of Object.entries(v.reviews) as [CouncilAgent, ReviewOutput][]) {
      // Sequential isolation: the verifier decides without the integrator's opinion.
      if (ask.agent === 'verifier' && agent === 'integrator') continue;
      reviews[agent] = review;
    }
  return {
    protocol: 'council',
    kind: ask.role,
    agent: ask.agent,
    task: state.header.task,
    idea: state.header.idea,
    proposals: state.proposals.length - (p ? 1 : 0),
    version: v ? { n: v.n, kind: v.kind, output: v.output, stakes: v.stakes, flags: v.flags } : null,
    reviews,
    results: p?.results ?? [],
    postconditions: p?.postconditions ?? [],
    weights: state.weights,
    memory: state.header.memory,
  };
}

const ASKED: Record<CouncilAsk['role'], string> = {
  proposal: 'Propose the next step of the task as one proposal, or say the task needs nothing more.',
  review:
    'Review this version: approve, approve_with_concerns or reject, with your rationale, your concerns and the values your position invokes (with strengths 0–1).',
  revision: 'Revise your proposal to meet the concerns raised, as a new version.',
  compromise: 'The executor and the verifier cannot agree. Propose a middle way as a new version of your own.',
  outcome: 'The proposal was executed and its postconditions checked. Say whether its expected outcomes are met.',
  episode:
    'The task is over. Record its key learnings, the values it served, and any small weight adjustments (each at most 0.05).',
};

const SCHEMAS = {
  proposal: { schema: nextProposalSchema, name: 'council_next_proposal' },
  review: { schema: reviewOutputSchema, name: 'council_review' },
  revision: { schema: proposalOutputSchema, name: 'council_proposal' },
  compromise: { schema: proposalOutputSchema, name: 'council_proposal' },
  outcome: { schema: outcomeOutputSchema, name: 'council_outcome' },
  episode: { schema: episodeOutputSchema, name: 'council_episode' },
} as const;

/** The request a council call sends: the role's persona and the rules, then what this call is about. */
export function councilRequest(state: CouncilState, ask: CouncilAsk): LlmRequest<unknown> {
  const brief = briefOf(state, ask);
  const parts: string[] = [`Task: ${brief.task}`, brief.idea ? `Idea: ideas/${brief.idea}` : 'No single idea.'];
  if (brief.memory.length > 0)
    parts.push(
      `From the council's memory and the researcher's precedents:\n${brief.memory.map((m) => `- ${m}`).join('\n')}`,
    );
  for (const p of state.proposals) {
    if (p === currentProposal(state)) continue;
    parts.push(`Earlier proposal ${p.id}: ${lastVersion(p).output.goal} — ${p.status.toLowerCase()}`);
  }
  if (brief.version) {
    parts.push(
      `Version ${brief.version.n} (stakes ${brief.version.stakes}):\n${JSON.stringify(brief.version.output, null, 2)}`,
    );
    if (brief.version.flags.length > 0)
      parts.push(`Flags raised by the app before review: ${brief.version.flags.join(', ')}`);
  }
  for (const [agent, review] of Object.entries(brief.reviews))
    parts.push(`The ${agent}'s review: ${JSON.stringify(review)}`);
  if (ask.role === 'outcome')
    parts.push(`Execution: ${JSON.stringify(brief.results)}\nPostconditions: ${JSON.stringify(brief.postconditions)}`);
  if (ask.role === 'episode') parts.push(`Weights now: ${JSON.stringify(brief.weights)}`);
  parts.push(ASKED[ask.role]);
  const { schema, name } = SCHEMAS[ask.role];
  return {
    system: `${COUNCIL_RULES}\n\n${COUNCIL_PERSONAS[ask.agent]}`,
    systemParts: [COUNCIL_RULES, COUNCIL_PERSONAS[ask.agent]],
    messages: [{ role: 'user', content: parts.join('\n\n') }],
    schema,
    schemaName: name,
    tier: ask.agent === 'verifier' ? 'fast' : 'standard',
    maxTokens: 2000,
    brief,
    ...(ask.role === 'proposal'
      ? {
          check: (value: unknown) => {
            const v = value as NextProposal;
            return v.done || v.proposal
              ? { ok: true as const, value }
              : { ok: false as const, problems: ['a proposal is needed unless done is true'] };
          },
        }
      : {}),
  };
}

import { z } from 'zod';

/**
 * Every answer shape of the arena (ARENA-PROTOCOL.md, "Rounds"), as the model is asked for it and as
 * a replay script supplies it. The shapes are strict: a misspelt field (`adressed`) is a slip to be
 * told about, not a field to drop silently. What the shapes cannot say (ids that must exist, every
 * other proposal critiqued) is checked against the state in `checks.ts`.
 */

const text = (what: string) => z.string().trim().min(1).describe(what);

export const SEVERITIES = ['CRITICAL', 'MAJOR', 'MINOR'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const claimIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/, 'a claim id is a short word of letters, digits, _ . or -');

export const evidenceSchema = z.strictObject({
  source: text('where it comes from: a document, a dataset, a named study (never an invented one)'),
  quote: text('the words or figure relied on, quoted'),
});

export const claimSchema = z.strictObject({
  id: claimIdSchema.describe('your own id for the claim, unique in your proposal (a1, a2 …); keep it across revisions'),
  text: text('the claim in one sentence'),
  evidence: z.array(evidenceSchema).describe('what supports it; an empty list when nothing does yet'),
});

export type Claim = z.output<typeof claimSchema>;

const proposalShape = {
  title: text('the proposal in a few words'),
  summary: text('the proposal in one or two sentences'),
  body: text('the proposal in full: what to do, how, and how it could fail'),
  claims: z.array(claimSchema).min(1).describe('the claims the proposal rests on'),
  confidence: z.number().min(0).max(1).describe('how sure you are that this is the best answer, 0 to 1'),
};

export const proposalAnswerSchema = z.strictObject(proposalShape);
export type ProposalAnswer = z.output<typeof proposalAnswerSchema>;

export const critiqueItemSchema = z.strictObject({
  target: text('the id of the agent whose proposal this critique is about (never your own)'),
  claim: claimIdSchema.optional().describe("the id of the target's claim it is about, when it is about one"),
  severity: z
    .enum(SEVERITIES)
    .describe('CRITICAL: the proposal fails if it stands; MAJOR: it must change; MINOR: a detail'),
  text: text('the critique, specific enough to act on'),
  fix: text('what would answer it').optional(),
});
export type CritiqueItem = z.output<typeof critiqueItemSchema>;

export const critiqueAnswerSchema = z.strictObject({
  critiques: z.array(critiqueItemSchema).min(1).describe("one or more critiques of every other agent's proposal"),
});
export type CritiqueAnswer = z.output<typeof critiqueAnswerSchema>;

export const becauseSchema = z.union([
  z.strictObject({ critique: text('the id of the critique that led to the change (c2-ben-1)') }),
  z.strictObject({ adopted: text('the id of the agent whose idea you took up') }),
  z.strictObject({ own: text('your own reason, in a sentence') }),
]);
export type Because = z.output<typeof becauseSchema>;

export const changeSchema = z.strictObject({
  what: text('what changed, in a sentence'),
  because: becauseSchema.describe('why: a critique, an idea adopted from another agent, or a reason of your own'),
});
export type Change = z.output<typeof changeSchema>;

export const revisionAnswerSchema = z.strictObject({
  ...proposalShape,
  changes: z.array(changeSchema).describe('every change from your previous version, each with its reason'),
  addressed: z
    .array(text('a critique id'))
    .describe('the ids of the critiques of your proposal that this version answers'),
});
export type RevisionAnswer = z.output<typeof revisionAnswerSchema>;

export const similarityAnswerSchema = z.strictObject({
  pairs: z
    .array(
      z.strictObject({
        a: text('one agent id'),
        b: text('another agent id'),
        agreement: z.number().min(0).max(1).describe('how far the two proposals say the same thing, 0 to 1'),
      }),
    )
    .min(1)
    .describe('every pair of proposals exactly once'),
});
export type SimilarityAnswer = z.output<typeof similarityAnswerSchema>;

export const voteAnswerSchema = z.strictObject({
  vote: text('the id of the agent whose proposal you vote for'),
  confidence: z
    .number()
    .min(0)
    .max(1)
    .describe('how likely you think it is that this proposal is ranked first, 0 to 1'),
  reason: text('why, in a sentence or two'),
});
export type VoteAnswer = z.output<typeof voteAnswerSchema>;

export const tricksterAnswerSchema = z.strictObject({
  challenge: text('the strongest case that the agreement is hollow, aimed at the winning proposal'),
  target: text('the id of the agent whose proposal won the vote'),
});
export type TricksterAnswer = z.output<typeof tricksterAnswerSchema>;

export const judgeAnswerSchema = z.strictObject({
  scores: z
    .record(
      z.string(),
      z.strictObject({
        overall: z.number().min(0).max(10).describe('0 to 10'),
        reasons: text('why this score'),
      }),
    )
    .describe('one score per agent, keyed by agent id'),
  summary: text('the judgment in two or three sentences'),
});
export type JudgeAnswer = z.output<typeof judgeAnswerSchema>;

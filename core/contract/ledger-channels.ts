import { z } from 'zod';
import { SIDES, THREAD_STATUSES } from '../crux/vocabulary';
import { isCalendarDay, OUTCOMES } from '../ledger/ledger-md';
import { debateIdSchema } from './ids';

/**
 * `ledger:*`: every crux and falsifier of every debate with its deadline, what the researcher
 * recorded of how each resolved (ledger.md), and how well each persona's confidence was calibrated.
 * Spread into `channels` of core/contract.ts.
 */

const count = z.number().int().nonnegative();
const debateId = debateIdSchema;
const side = z.enum(SIDES);
/** A calendar day, `YYYY-MM-DD`. */
export const calendarDaySchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine((text) => isCalendarDay(text), 'is not a day of the calendar');
const day = calendarDaySchema;

/** How a falsifier turned out: its threshold was crossed (the position was wrong), it held to the deadline, … */
export const FALSIFIER_OUTCOMES = OUTCOMES;
export type FalsifierOutcome = (typeof FALSIFIER_OUTCOMES)[number];
/** The rule on outcomes ahead of a deadline, shared by the handler, the CLI and the ledger view's form. */
export { earlyOutcome, earlyOutcomeRefusal } from '../ledger/early-outcome';

/** `open`: deadline ahead; `overdue`: deadline passed, nothing recorded; `undated`: no readable deadline. */
export const LEDGER_STATUSES = ['open', 'overdue', 'undated', 'resolved'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

export const falsifierResolutionSchema = z.strictObject({
  outcome: z.enum(FALSIFIER_OUTCOMES),
  /** When it resolved (YYYY-MM-DD). */
  resolvedOn: z.string(),
  note: z.string(),
  /** When it was recorded. */
  recordedAt: z.string().nullable(),
});

export const ledgerFalsifierSchema = z.strictObject({
  /** `<debateId>/<thread>/<agent>`: the heading of its entry in the ledger file. */
  key: z.string(),
  debateId: z.string(),
  debateTopic: z.string(),
  ideaSlug: z.string().nullable(),
  debateCreatedAt: z.string(),
  thread: z.string(),
  question: z.string().nullable(),
  agent: z.string(),
  agentName: z.string(),
  side: side.nullable(),
  /** The agent's confidence in its side (its final position's, else its latest stance's or commitment's). */
  confidence: z.number().min(0).max(1).nullable(),
  metric: z.string(),
  threshold: z.string(),
  deadline: z.string(),
  /** The deadline read as a day (YYYY-MM-DD, the last day of a month, quarter or year), or null. */
  deadlineDate: z.string().nullable(),
  status: z.enum(LEDGER_STATUSES),
  resolution: falsifierResolutionSchema.nullable(),
  /** The message that declared it, and its place in the transcript. */
  messageId: z.string().nullable(),
  index: count.nullable(),
});
export type LedgerFalsifier = z.infer<typeof ledgerFalsifierSchema>;

export const calibrationSchema = z.strictObject({
  agent: z.string(),
  agentName: z.string(),
  scored: count,
  survived: count,
  falsified: count,
  unscored: count,
  heldRate: z.number().min(0).max(1).nullable(),
  meanConfidence: z.number().min(0).max(1).nullable(),
  brier: z.number().min(0).max(1).nullable(),
});
export type CalibrationView = z.infer<typeof calibrationSchema>;

export const ledgerCruxSchema = z.strictObject({
  key: z.string(),
  debateId: z.string(),
  debateTopic: z.string(),
  ideaSlug: z.string().nullable(),
  debateCreatedAt: z.string(),
  thread: z.string(),
  question: z.string(),
  threadStatus: z.enum(THREAD_STATUSES),
  crystallized: z.boolean(),
  validated: z.boolean(),
  primary: z.boolean(),
  dcg: z.number().nullable(),
  falsifiers: count,
  resolved: count,
  /** The earliest deadline among its unresolved falsifiers. */
  nextDeadline: z.string().nullable(),
  status: z.enum(LEDGER_STATUSES),
});
export type LedgerCrux = z.infer<typeof ledgerCruxSchema>;

export const ledgerChannels = {
  /** Every crux and falsifier of every debate, with deadlines and what the researcher recorded (ledger.md). */
  'ledger:list': {
    input: z.strictObject({}),
    output: z.strictObject({
      falsifiers: z.array(ledgerFalsifierSchema),
      cruxes: z.array(ledgerCruxSchema),
      /** The researcher's ledger file (workspace-relative) and what in it could not be read. */
      file: z.string(),
      problems: z.array(z.strictObject({ line: z.number().int().positive(), reason: z.string() })),
      /** Today, as the statuses were computed. */
      today: z.string(),
    }),
  },
  /**
   * How well each debating persona's confidence matched the falsifiers the researcher resolved
   * (core/ledger/calibration.ts): best calibrated (lowest Brier score) first.
   */
  'ledger:calibration': {
    input: z.strictObject({}),
    output: z.strictObject({ agents: z.array(calibrationSchema) }),
  },
  /**
   * Records how a falsifier resolved, as an entry of ledger.md (a second record for it replaces the
   * first). Ahead of the falsifier's deadline "survived" is refused (it says the deadline passed),
   * and "ambiguous" or "void" need `early: true` (core/ledger/early-outcome.ts); a day after today is
   * refused.
   */
  'ledger:resolveFalsifier': {
    input: z.strictObject({
      debateId,
      thread: z.string().trim().min(1, 'needs the thread').max(100),
      agent: z.string().trim().min(1, 'needs the agent').max(100),
      outcome: z.enum(FALSIFIER_OUTCOMES, { error: `must be one of ${FALSIFIER_OUTCOMES.join(', ')}` }),
      resolvedOn: day,
      note: z.string().max(20_000, 'the note is longer than 20,000 characters').default(''),
      /** Yes, "ambiguous" or "void" ahead of the deadline: the question fell away before it came. */
      early: z.boolean().default(false),
    }),
    output: z.strictObject({
      falsifier: ledgerFalsifierSchema,
      /** Where it was written; with `conflict`, the ledger changed meanwhile and this is a copy beside it. */
      path: z.string(),
      conflict: z.boolean(),
    }),
  },
} as const;

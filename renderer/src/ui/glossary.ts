// The words of the crux and evaluation protocols, each in plain words and one sentence. The (?)
// beside a term and the glossary view read this one table, so a code means the same everywhere.
import { ARENA_GLOSSARY } from './glossary-arena';

import { COUNCIL_GLOSSARY } from './council-glossary';

export interface GlossaryEntry {
  /** What the page shows first. */
  plain: string;
  /** The protocol's own code or term, when it has one (shown in the tooltip and the glossary). */
  code?: string;
  /** One sentence: what it is, and for a number what range it takes. */
  sentence: string;
}

export const GLOSSARY = {
  crux: {
    plain: 'crux',
    sentence:
      'A yes/no question about the future that the debaters disagree on and that would change their minds once answered.',
  },
  'primary-crux': {
    plain: 'primary crux',
    sentence: 'The validated crux with the highest DCG: the single question the whole disagreement comes down to most.',
  },
  dcg: {
    plain: 'DCG',
    code: 'Disagreement Compression Gain',
    sentence:
      'How much of the disagreement one crux captures, from 0 to 1: coverage × polarity × impact (the share of debaters it decides, how evenly it splits them, how firmly they hold it).',
  },
  falsifier: {
    plain: 'falsifier',
    sentence: 'What a debater says would prove them wrong: a measurable threshold and the date by which it is checked.',
  },
  steelman: {
    plain: 'steelman',
    sentence:
      'Restating the other side’s case in its strongest form; the other side grades it (accurate, incomplete, wrong) before one may argue on.',
  },
  commitment: {
    plain: 'commitment',
    sentence: 'A debater’s answer to the crux (yes, no or unsure), how sure it is (0–100%) and over what horizon.',
  },
  horizon: {
    plain: 'horizon',
    sentence: 'The time span a debater’s answer is about: 1–3 months, 12–18 months, 5 years or 10 years and more.',
  },
  'lock-attempts': {
    plain: 'lock attempts',
    sentence:
      'How many times the thread has tried to fix its crux question (every debater commits and names a falsifier), out of the most it may try.',
  },
  confidence: {
    plain: 'confidence',
    sentence: 'How sure the speaker says it is, from 0 (a guess) to 1 (certain), shown as 0–100%.',
  },
  DISCOVERY: {
    plain: 'finding the disagreement',
    code: 'DISCOVERY',
    sentence: 'The first stage: debaters make claims and challenge each other until someone proposes a crux question.',
  },
  CRUX_LOCK: {
    plain: 'fixing the crux',
    code: 'CRUX_LOCK',
    sentence:
      'The second stage: debaters steelman each other, commit to yes or no on the crux question and name their falsifiers.',
  },
  EVIDENCE: {
    plain: 'weighing evidence',
    code: 'EVIDENCE',
    sentence: 'The third stage: debaters bring and challenge evidence on the fixed crux and may update or concede.',
  },
  CONVERGED: {
    plain: 'done',
    code: 'CONVERGED',
    sentence: 'The thread ended with a crux crystallized: its question, the positions and their falsifiers are kept.',
  },
  FAILED_DISCOVERY: {
    plain: 'no crux found',
    code: 'FAILED_DISCOVERY',
    sentence: 'The thread spent its discovery budget without anyone proposing a crux question the others accepted.',
  },
  FAILED_LOCK: {
    plain: 'crux would not fix',
    code: 'FAILED_LOCK',
    sentence: 'Every lock attempt failed: some debater never committed or never named a falsifier.',
  },
  FAILED_CAP: {
    plain: 'out of messages',
    code: 'FAILED_CAP',
    sentence: 'The thread reached its message cap before a crux crystallized.',
  },
  STALE: {
    plain: 'went quiet',
    code: 'STALE',
    sentence: 'Nothing new was said for too many turns, so the thread was closed.',
  },
  MERGED: {
    plain: 'merged',
    code: 'MERGED',
    sentence: 'The thread asked the same question as another and was folded into it.',
  },
  BINARY_FRAMING: {
    plain: 'asks for a yes/no question',
    code: 'BINARY_FRAMING',
    sentence: 'The moderator asks the debaters to turn their disagreement into a question with a yes or no answer.',
  },
  HORIZON_ALIGNMENT: {
    plain: 'aligns time spans',
    code: 'HORIZON_ALIGNMENT',
    sentence:
      'The moderator points out that debaters answer over different horizons and asks them to agree on one before they argue on.',
  },
  COMMIT_REQUEST: {
    plain: 'asks for a commitment',
    code: 'COMMIT_REQUEST',
    sentence: 'The moderator asks a debater who has not yet answered the crux to commit to yes, no or unsure.',
  },
  STEELMAN_REQUEST: {
    plain: 'asks for a steelman',
    code: 'STEELMAN_REQUEST',
    sentence: 'The moderator asks a debater to restate the other side’s case before arguing against it.',
  },
  threadClosed: {
    plain: 'refused: the thread is closed',
    code: 'threadClosed',
    sentence:
      'A message to a thread that is closed (its crux fixed, merged, stale or failed) or being turned into a crux is refused and not counted.',
  },
  stageRestriction: {
    plain: 'refused: not allowed at this stage',
    code: 'stageRestriction',
    sentence:
      'Each stage of a thread allows its own moves only (claims and proposed cruxes while discovering; steelmans, commitments and falsifiers while fixing the crux; evidence and challenges to it after); another move, or a challenge to a crux that has not crystallized, is refused.',
  },
  replyLimit: {
    plain: 'refused: too many replies to one message',
    code: 'replyLimit',
    sentence:
      'A message takes a few direct replies at most, so one point cannot swallow the thread; one more is refused.',
  },
  invalidMove: {
    plain: 'refused: not a well-formed move',
    code: 'invalidMove',
    sentence:
      'The answer did not have the shape its move needs (a missing side, question or falsifier field) and was refused.',
  },
  steelmanRequired: {
    plain: 'refused: steelman the other side first',
    code: 'steelmanRequired',
    sentence:
      'Before challenging the evidence of a debater committed to the other side, a debater committed to one side must have stated that opponent’s view in a form graded accurate (a steelman); the challenge is refused until then.',
  },
  vagueFalsifier: {
    plain: 'refused: the falsifier is vague',
    code: 'vagueFalsifier',
    sentence:
      'A falsifier needs a metric, a concrete threshold and a deadline, without words such as "significant"; a vague one is refused.',
  },
  FALSIFIER_REQUEST: {
    plain: 'asks for a falsifier',
    code: 'FALSIFIER_REQUEST',
    sentence: 'The moderator asks a debater to say what measurable result, by when, would prove them wrong.',
  },
  nucleation: {
    plain: 'first scores',
    code: 'nucleation',
    sentence:
      'The start of an evaluation: six evaluators score every criterion at once before the red team challenges them.',
  },
  'red-team': {
    plain: 'red team',
    sentence:
      'Personas that challenge the evaluators’ scores; a challenge is debated and the score defended or changed.',
  },
  weight: {
    plain: 'weight',
    sentence: 'The share a category has in the overall score (×0.2 is a fifth); the weights add up to 1.',
  },
  CONVERGENCE: {
    plain: 'scores settled',
    code: 'CONVERGENCE',
    sentence: 'The evaluation locked because the scores stopped moving and the confidence passed its threshold.',
  },
  MAX_ROUNDS: {
    plain: 'round limit reached',
    code: 'MAX_ROUNDS',
    sentence:
      'The evaluation locked because it ran out of rounds, not because its scores settled: read it as provisional.',
  },
  BUDGET: {
    plain: 'budget spent',
    code: 'BUDGET',
    sentence: 'The run stopped because it used the money it was allowed; what it found so far is kept.',
  },
  TIMEOUT: {
    plain: 'time limit reached',
    code: 'TIMEOUT',
    sentence: 'The run stopped because it used the time it was allowed; what it found so far is kept.',
  },
  USER_APPROVED: {
    plain: 'locked by you',
    code: 'USER_APPROVED',
    sentence: 'The researcher locked the evaluation by hand (Lock now), whatever the convergence checks said.',
  },
  REFINE: {
    plain: 'refine',
    code: 'REFINE',
    sentence: 'The evaluation’s advice: the idea is promising but needs work on its weakest criteria before going on.',
  },
  PURSUE: {
    plain: 'pursue',
    code: 'PURSUE',
    sentence:
      'The evaluation’s advice: the idea is strong enough to put time into now (the simulator gives it from an overall score of 7 out of 10; a model’s synthesis chooses for itself).',
  },
  PAUSE: {
    plain: 'pause',
    code: 'PAUSE',
    sentence:
      'The evaluation’s advice: set the idea aside for now and come back when something changes (the simulator gives it for an overall score of about 4 to 5.5 out of 10; a model’s synthesis chooses for itself).',
  },
  ABANDON: {
    plain: 'abandon',
    code: 'ABANDON',
    sentence:
      'The evaluation’s advice: the idea is not worth more work as it stands (the simulator gives it below an overall score of 4 out of 10; a model’s synthesis chooses for itself).',
  },
  'overall-score': {
    plain: 'overall score',
    sentence:
      'An evaluation’s verdict as one number from 0 to 10: each category’s score (the mean of its criteria, 1–10) times its weight, added up.',
  },
  'evaluation-confidence': {
    plain: 'evaluation confidence',
    sentence:
      'How far to trust an evaluation’s scores, from 0 to 1: four parts of the share of challenges defended, first-principles reasoning, how little the scores moved and how complete the idea’s notes are. Below its threshold (0.7 unless set) the scores do not count as settled.',
  },
  'red-team-survival': {
    plain: 'red-team survival',
    sentence:
      'The share of the red team’s debated challenges the evaluators won, from 0 to 100%; none when nothing was challenged.',
  },
  PENDING: {
    plain: 'about to start',
    code: 'PENDING',
    sentence: 'The evaluation is created and waits for its first step.',
  },
  EVALUATING: {
    plain: 'first scoring',
    code: 'EVALUATING',
    sentence:
      'The phase of nucleation: six evaluators, one per category, give every criterion its first score (1–10) and a confidence (0–1).',
  },
  DEBATING: {
    plain: 'red team debating',
    code: 'DEBATING',
    sentence:
      'The red team challenges scores; each challenged evaluator defends and the arbiter rules, which may move the score.',
  },
  SYNTHESIZING: {
    plain: 'summing up the round',
    code: 'SYNTHESIZING',
    sentence:
      'The round’s rulings are gathered into new scores and insights, then the convergence checks decide: lock or another round.',
  },
  REVIEWING: {
    plain: 'writing the verdict',
    code: 'REVIEWING',
    sentence: 'The scores are settled; the narrative (summary, strengths, risks and the recommendation) is written.',
  },
  LOCKED: {
    plain: 'locked',
    code: 'LOCKED',
    sentence: 'The evaluation is finished and its record written; it is never edited, only superseded by a new one.',
  },
  'evaluation-failed': {
    plain: 'failed',
    code: 'FAILED',
    sentence: 'The evaluation stopped on an error; resuming starts it over (what it cost so far is kept in its log).',
  },
  'cache-reads': {
    plain: 'read from cache',
    sentence:
      'Input tokens the provider had seen before in this run and charged at a fraction of the price; 0 with the offline simulator.',
  },
  ...ARENA_GLOSSARY,
  ...COUNCIL_GLOSSARY,
} as const satisfies Record<string, GlossaryEntry>;

export type GlossaryTerm = keyof typeof GLOSSARY;

/** The entry for a code met in data (a stage, a lock reason …), or null when the glossary has none. */
export function glossaryEntry(code: string): GlossaryEntry | null {
  return (GLOSSARY as Record<string, GlossaryEntry>)[code] ?? null;
}

/** Plain words for a code met in data, the code itself when the glossary has none. */
export function plainWords(code: string): string {
  return glossaryEntry(code)?.plain ?? code;
}

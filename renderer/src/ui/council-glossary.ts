import type { GlossaryEntry } from './glossary';

// The council's words (docs/council-protocol.md), in the shape of the glossary's table and spread
// into it, so a (?) beside a council term and the glossary view say the same thing.

export const COUNCIL_GLOSSARY = {
  council: {
    plain: 'council',
    sentence:
      'Three agents — executor, verifier, integrator — that carry out a task on your ideas: nothing is written without their consensus, and what is risky waits for you.',
  },
  executor: {
    plain: 'executor',
    sentence:
      'The council agent that proposes what to do (a goal, the actions, why in value terms, the risks) and revises it.',
  },
  verifier: {
    plain: 'verifier',
    sentence:
      'The council agent that reviews each proposal first, without seeing the integrator’s vote, with a checklist against gamed justifications; it also checks the outcome after execution.',
  },
  integrator: {
    plain: 'integrator',
    sentence:
      'The council agent that reviews after the verifier (it sees both votes), proposes the compromise when they disagree, and records what the task taught.',
  },
  stakes: {
    plain: 'stakes',
    sentence:
      'How much a proposal could change: low (it only reads; 2 of 3 approvals), medium (it writes a note, a section, tags, a link, a stage or a new idea; all 3), high (archive, delete, merge, rename; all 3 and then you, always).',
  },
  ladder: {
    plain: 'conflict ladder',
    sentence:
      'How far the agents had to go to decide, 0 to 4: 0 agreed at once, 1 discussion (up to 3 revisions), 2 the integrator’s compromise, 3 the weight-based tiebreak, 4 you decided.',
  },
  tiebreak: {
    plain: 'tiebreak',
    sentence:
      'Each side’s alignment: the sum, over the values its agents invoke, of the strength claimed × that agent’s weight for the value; the higher side wins unless they are less than 0.1 apart (then you decide). For medium and high stakes it is only advice.',
  },
  'value-weights': {
    plain: 'value weights',
    sentence:
      'How much each agent cares about each of eight fixed values (truth, safety, transparency, cooperation, coherence, exploration, efficiency, autonomy), from 0.1 to 1.0; an episode may move one by at most 0.05.',
  },
  'diversity-floor': {
    plain: 'diversity floor',
    sentence:
      'A value’s spread across the three agents (their standard deviation) may not be pushed below 0.15 once it is at or above it: the agents must keep disagreeing about what matters.',
  },
  precedent: {
    plain: 'precedent',
    sentence:
      'Your decision (approve, reject or revert) with your note, shown to every later council as part of its memory.',
  },
  dissent: {
    plain: 'dissent',
    sentence:
      'A review that rejects, approves with concerns or lists a concern; the dissent rate is the share of proposals with any, from 0 to 1.',
  },
  postcondition: {
    plain: 'postcondition',
    sentence:
      'What must hold once an action ran (the note exists with exactly its text, the stage is ARCHIVE …), checked by the app after execution.',
  },
  GENERIC_JUSTIFICATION: {
    plain: 'vague justification',
    code: 'GENERIC_JUSTIFICATION',
    sentence:
      'A value is justified in fewer than 8 words (“this helps cooperation”): value-washing, flagged before any review.',
  },
  MISSING_RISK: {
    plain: 'no risk named',
    code: 'MISSING_RISK',
    sentence: 'A proposal that writes or moves something names no risk; flagged before any review.',
  },
  UNDECLARED_EFFECT: {
    plain: 'undeclared effect',
    code: 'UNDECLARED_EFFECT',
    sentence:
      'An action changes a file that no expected outcome names: the proposal does more than it says. A flagged medium or high proposal waits for you.',
  },
  REPEATS_FAILED: {
    plain: 'repeats a failure',
    code: 'REPEATS_FAILED',
    sentence: 'The same tool on the same target was rejected, failed or reverted in the last 5 tasks.',
  },
  PROPOSED: {
    plain: 'proposed',
    code: 'PROPOSED',
    sentence: 'A version of the proposal is in (its flags computed); a revision or a compromise is being written.',
  },
  VERIFYING: {
    plain: 'verifying',
    code: 'VERIFYING',
    sentence: 'The verifier (or, for a compromise, the executor and the verifier) is reviewing the version.',
  },
  INTEGRATING: {
    plain: 'integrating',
    code: 'INTEGRATING',
    sentence: 'The integrator is reviewing the version, having seen the verifier’s vote.',
  },
  AWAITING_RESEARCHER: {
    plain: 'waits for you',
    code: 'AWAITING_RESEARCHER',
    sentence: 'Nothing of the proposal runs until you approve or reject it in the approvals inbox.',
  },
  EXECUTING: {
    plain: 'executing',
    code: 'EXECUTING',
    sentence:
      'The approved actions run one at a time, through safe writes that never overwrite an edit made meanwhile.',
  },
  CHECKING: {
    plain: 'checking',
    code: 'CHECKING',
    sentence:
      'The app checks each action’s postconditions, then the verifier reviews the outcome against what was expected.',
  },
  RECORDED: {
    plain: 'done',
    code: 'RECORDED',
    sentence: 'Executed and checked; it stays revertable in one step.',
  },
  REJECTED: {
    plain: 'rejected',
    code: 'REJECTED',
    sentence: 'The agents, the tiebreak or you said no: nothing of it was written.',
  },
  FAILED: {
    plain: 'failed',
    code: 'FAILED',
    sentence: 'An action or a check did not hold after execution; what was written can be reverted.',
  },
  REVERTED: {
    plain: 'reverted',
    code: 'REVERTED',
    sentence: 'You undid it: every file it wrote, removed or moved is back as it was, byte for byte.',
  },
} as const satisfies Record<string, GlossaryEntry>;

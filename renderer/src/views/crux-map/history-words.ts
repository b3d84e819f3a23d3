import type { CruxNode } from '../../../../core/contract';
import { validationFailureWords } from '../debate/lock-words';

type Review = CruxNode['history'][number];

const REASONS: Record<Review['challenge']['reason'], string> = {
  MIS_STATED: 'mis-stated',
  NOT_BINARY: 'not a yes/no question',
  NOT_DECISION_RELEVANT: 'not decision-relevant',
};

/**
 * One review of a crux in the crux map's side panel, in words: who challenged it and why, what the
 * crystallizer answered, and the crux as it stood before (the history the transcript also keeps).
 */
export function reviewWords(
  review: Review,
  name: (agent: string) => string,
): { challenge: string; answer: string; before: string } {
  const { challenge, before } = review;
  return {
    challenge: `${name(challenge.agent)} challenged it as ${REASONS[challenge.reason]} (${challenge.messageId})`,
    answer:
      review.outcome === 'REEXTRACTED'
        ? 'the crystallizer re-extracted it from the thread'
        : `the crystallizer asked for clarification: ${review.note ?? 'no reason given'}`,
    before: `Before: “${before.question}” (${before.validated ? 'validated' : `not validated: ${validationFailureWords(before.validationFailures, name).join('; ') || 'no reason recorded'}`})`,
  };
}

import type { EvaluationAsk, EvaluationState } from './state';

/**
 * What an evaluation waits for, in the words a researcher reads: whose answer, about which
 * criterion, for which challenge. The bare ids ("defence r1c1") named none of that.
 */
export function askInWords(ask: EvaluationAsk, state: EvaluationState): string {
  const category = (id: string) => state.categories.find((c) => c.id === id)?.name ?? id;
  const criterion = (id: string) => state.criteria.find((c) => c.id === id)?.name ?? id;
  switch (ask.role) {
    case 'evaluator':
      return `the ${category(ask.category)} evaluator’s first scores`;
    case 'redteam':
      return `the ${ask.persona} red-teamer’s challenges in round ${ask.round}`;
    case 'defense': {
      const c = state.challenges.find((x) => x.id === ask.challengeId);
      const by = c ? ` against the ${c.persona} red-teamer’s ${challengeWords(ask.challengeId)}` : '';
      return `the ${category(ask.category)} evaluator’s defence of “${criterion(ask.criterion)}”${by}`;
    }
    case 'arbiter': {
      const c = state.challenges.find((x) => x.id === ask.challengeId);
      const whose = c ? `the ${c.persona} red-teamer’s ` : 'the ';
      return `the arbiter’s ruling on “${criterion(ask.criterion)}”: ${whose}${challengeWords(ask.challengeId)}`;
    }
    case 'synthesis':
      return `the summing-up of round ${ask.round}`;
    case 'narrative':
      return 'the written verdict';
  }
}

/** `r2c3` → "challenge 3 of round 2" (the id's own form when it is not one). */
export function challengeWords(id: string): string {
  const m = /^r(\d+)c(\d+)$/.exec(id);
  return m ? `challenge ${m[2]} of round ${m[1]}` : `challenge ${id}`;
}

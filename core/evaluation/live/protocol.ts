import type { AskInfo, Protocol } from '../../engine/protocol';
import { EvaluationInputError } from '../errors';
import type { EvaluationInput } from '../inputs';
import type { EvaluationAsk, EvaluationState } from '../state';
import { step } from '../step';
import { heldRequest } from './answer-rules';
import { type EvaluationPrompts, inputFor, requestFor } from './requests';

/**
 * How many times one ask is put to the model (each with its own re-asks) before it gives up: the
 * evaluation fails, except for a red-team persona, which is degraded instead (see `due`).
 */
const ASK_ATTEMPTS = 2;

/** A red-team persona's round, for one that is degraded: no challenges (the log says why). */
function silentRedTeam(ask: Extract<EvaluationAsk, { role: 'redteam' }>, at: string): EvaluationInput {
  return { kind: 'redteam', persona: ask.persona, round: ask.round, at, answer: { challenges: [] } };
}

/**
 * The evaluation protocol as a tenant of the one runner. Its asks are the state's `awaiting`; an
 * answer the machine refuses, or an ask that keeps failing, fails the evaluation visibly (FAILED,
 * with the reason; a retry can start it again); the budget and the time limit lock it.
 */
export function evaluationProtocol(deps: {
  prompts: EvaluationPrompts;
  /** ISO time for the inputs' `at`. */
  now: () => string;
}): Protocol<EvaluationState, EvaluationInput, EvaluationAsk> {
  const fail = (reason: string): EvaluationInput => ({ kind: 'fail', reason, at: deps.now() });
  return {
    name: 'evaluation',
    version: 1,
    // The first call writes the head every call shares (the tools, the idea, the rubric). Sent
    // together, the first batch would each write a copy; the others wait and read it instead.
    warmFirstCall: true,

    // Each input is applied to a copy: one the protocol refuses leaves the state as it was.
    step: (state, input) => step(state, input),
    isRefusal: (error) => error instanceof EvaluationInputError,
    // A red-team persona that kept failing is degraded: its rounds pass without challenges from it,
    // and the other personas, the defence and the arbiter carry the evaluation on.
    degradeAfter: ASK_ATTEMPTS,
    due(state, view) {
      if (state.phase === 'PENDING') return { kind: 'start', at: deps.now() };
      for (const ask of state.awaiting)
        if (ask.role === 'redteam' && view.degraded.has(describeAsk(ask).agent)) return silentRedTeam(ask, deps.now());
      return null;
    },
    done: (state) => state.phase === 'LOCKED' || state.phase === 'FAILED',
    finalStatus: (state) => (state.phase === 'FAILED' ? 'failed' : 'completed'),
    asks: (state) => ({ asks: [...state.awaiting], resumed: false }),
    describe: describeAsk,
    request: (state, ask) => heldRequest(requestFor(ask, state, deps.prompts), ask, state, deps.now),
    answer: (_state, ask, value) => inputFor(ask, value, deps.now()),

    failed(_state, ask, failure) {
      if (failure.refused) return [fail(`${ask.role} gave an answer the protocol refused: ${failure.message}`)];
      if (ask.role === 'redteam' && failure.fromModel && failure.attempts >= ASK_ATTEMPTS)
        return [silentRedTeam(ask, deps.now())];
      // A call that failed after its own re-asks is asked once more in the next round (its ask stays
      // outstanding); only an ask that fails again, or a programming error, fails the evaluation.
      if (!failure.fromModel || failure.attempts >= ASK_ATTEMPTS)
        return [fail(`${ask.role} failed: ${failure.message}`)];
      return [];
    },

    stop(state, cause) {
      if (cause.kind === 'budget') return { inputs: [{ kind: 'budget_exhausted', at: deps.now() }], after: 'continue' };
      if (cause.kind === 'time') return { inputs: [{ kind: 'timeout', at: deps.now() }], after: 'continue' };
      throw new Error(`the evaluation is ${state.phase} but asks for nothing`);
    },
  };
}

function describeAsk(ask: EvaluationAsk): AskInfo {
  const [agent, place] = ((): [string, string] => {
    switch (ask.role) {
      case 'evaluator':
        return [`evaluator:${ask.category}`, ask.category];
      case 'redteam':
        return [`redteam:${ask.persona}`, `round ${ask.round}`];
      case 'defense':
        return [`defense:${ask.category}`, ask.challengeId];
      case 'arbiter':
        return ['arbiter', ask.challengeId];
      case 'synthesis':
        return ['synthesis', `round ${ask.round}`];
      case 'narrative':
        return ['narrative', 'narrative'];
    }
  })();
  return {
    agent,
    meterAgent: agent,
    purpose: ask.role,
    failedAt: place,
    planned: { kind: ask.role, thread: place, agent },
    // Only a red-team persona can be left out; every other role's answer is needed to lock.
    degradable: ask.role === 'redteam',
  };
}

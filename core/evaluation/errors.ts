// Shared by every protocol's replay scripts, so a CLI catches one kind for all.
export { ScriptError } from '../text/script-lines';

/**
 * An input the evaluation cannot apply: an answer nobody asked for, a criterion that does not
 * exist, a synthesis that averages instead of picking a winner, anything after the lock. A live
 * driver treats it as a bad answer (re-ask the agent) or a bug; the replay driver reports it as a
 * ScriptError at the line that caused it. The state passed to `advance` may be partly changed.
 */
export class EvaluationInputError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'EvaluationInputError';
  }
}

/** A reopening that is not allowed (a short dispute reason, an unknown criterion, …). */
export class ReopenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ReopenError';
  }
}

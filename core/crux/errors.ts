/**
 * An input the state machine cannot apply at all (unknown thread or agent, an analysis nobody
 * asked for). This is a driver bug, not an agent mistake, so it is thrown rather than turned into
 * a blocked message; the replay driver re-raises it as a ScriptError with the line number.
 */
export class CruxInputError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'CruxInputError';
  }
}

// Shared by every protocol's replay scripts, so a CLI catches one kind for all.
export { ScriptError } from '../text/script-lines';

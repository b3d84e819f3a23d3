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

/** A replay script that cannot be run; `message` is always `line N: reason`. */
export class ScriptError extends Error {
  readonly line: number;
  readonly reason: string;

  constructor(line: number, reason: string) {
    super(`line ${line}: ${reason}`);
    this.name = 'ScriptError';
    this.line = line;
    this.reason = reason;
  }
}

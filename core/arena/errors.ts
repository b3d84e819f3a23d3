/**
 * An input the arena cannot take: an answer nobody asked for, or one whose ids do not exist (a
 * critique of an unknown claim, a vote for an unknown agent). The replay driver turns it into
 * `line N: reason`; the live protocol counts it as a refused answer and asks again.
 */
export class ArenaInputError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'ArenaInputError';
  }
}

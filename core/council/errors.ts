/** An input the council cannot take now (wrong kind, wrong agent, wrong proposal): a refusal, not a bug. */
export class CouncilInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CouncilInputError';
  }
}

/** What a run will cost, as the CLI says it before the run: the likely figure with the worst beside it. */
export function costLine(e: {
  usd: number;
  calls: number;
  worstUsd: number;
  worstCalls: number;
  basis: string;
  cannotRun: string | null;
}): string {
  const line = `Estimated cost: likely $${e.usd.toFixed(4)} (about ${e.calls} calls), at worst $${e.worstUsd.toFixed(4)} (up to ${e.worstCalls} calls): ${e.basis}`;
  return e.cannotRun ? `${line}\nThis provider cannot run yet: ${e.cannotRun}` : line;
}

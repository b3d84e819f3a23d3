import type { Outcome } from './ledger-md';

/**
 * How well each debating persona's confidence matched what happened, once the researcher recorded
 * how its falsifiers resolved (ledger.md). A falsifier names what would show the agent's side
 * wrong: `survived` means the side held, `falsified` that it did not. The agent's confidence in its
 * side is the forecast, so each resolved falsifier is one forecast scored by its Brier score,
 * (confidence − held)², where held is 1 or 0: 0 is a perfect forecast, 0.25 what always saying 50 %
 * earns, 1 a certain forecast that failed. `ambiguous` and `void` resolutions, an UNCERTAIN side or
 * a missing confidence cannot be scored and are counted apart.
 */

export interface ResolvedForecast {
  /** The persona (a debate's agent id). */
  agent: string;
  agentName: string;
  side: string | null;
  /** The agent's confidence in its side, 0–1. */
  confidence: number | null;
  outcome: Outcome;
}

export interface Calibration {
  agent: string;
  agentName: string;
  /** Falsifiers scored: resolved as survived or falsified, with a side and a confidence. */
  scored: number;
  survived: number;
  falsified: number;
  /** Resolved, but not scorable (ambiguous, void, UNCERTAIN side, no confidence). */
  unscored: number;
  /** Share of scored falsifiers whose side held; null when none was scored. */
  heldRate: number | null;
  /** Mean confidence over the scored ones. */
  meanConfidence: number | null;
  /** Mean Brier score over the scored ones (lower is better). */
  brier: number | null;
}

export function calibrationOf(forecasts: readonly ResolvedForecast[]): Calibration[] {
  const byAgent = new Map<string, Calibration & { sumConfidence: number; sumBrier: number }>();
  for (const f of forecasts) {
    let row = byAgent.get(f.agent);
    if (!row) {
      row = {
        agent: f.agent,
        agentName: f.agentName,
        scored: 0,
        survived: 0,
        falsified: 0,
        unscored: 0,
        heldRate: null,
        meanConfidence: null,
        brier: null,
        sumConfidence: 0,
        sumBrier: 0,
      };
      byAgent.set(f.agent, row);
    }
    const decided = f.outcome === 'survived' || f.outcome === 'falsified';
    const sided = f.side === 'YES' || f.side === 'NO';
    if (!decided || !sided || f.confidence === null) {
      row.unscored++;
      continue;
    }
    const held = f.outcome === 'survived' ? 1 : 0;
    row.scored++;
    if (held) row.survived++;
    else row.falsified++;
    row.sumConfidence += f.confidence;
    row.sumBrier += (f.confidence - held) ** 2;
  }
  const rows = [...byAgent.values()].map(({ sumConfidence, sumBrier, ...row }) =>
    row.scored === 0
      ? row
      : {
          ...row,
          heldRate: row.survived / row.scored,
          meanConfidence: sumConfidence / row.scored,
          brier: sumBrier / row.scored,
        },
  );
  // Best calibrated first; more evidence breaks ties; agents with nothing scored last, by name.
  return rows.sort(
    (a, b) =>
      (a.brier ?? Number.POSITIVE_INFINITY) - (b.brier ?? Number.POSITIVE_INFINITY) ||
      b.scored - a.scored ||
      a.agentName.localeCompare(b.agentName),
  );
}

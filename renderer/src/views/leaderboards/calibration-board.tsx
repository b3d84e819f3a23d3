import { useMemo, useState } from 'react';
import type { CalibrationView } from '../../../../core/contract';
import { href } from '../../router';
import { downloadText, toCsv } from '../../ui/csv';
import { pct } from '../evaluation/format';
import { SampleScore, SETTLED_FROM } from './sample-score';
import { type Sort, sortRows } from './sort';
import { type SortColumn, SortHeader } from './sort-header';

type Key = 'agentName' | 'brier' | 'scored' | 'heldRate' | 'meanConfidence' | 'unscored';

const COLUMNS: SortColumn<Key>[] = [
  { key: 'agentName', label: 'Agent', numeric: false },
  {
    key: 'brier',
    label: 'Brier score',
    numeric: true,
    title: 'mean of (confidence − held)² over the scored falsifiers: 0 is perfect, 0.25 is always saying 50 %',
  },
  { key: 'scored', label: 'Scored', numeric: true, title: 'falsifiers resolved as survived or falsified' },
  { key: 'heldRate', label: 'Held', numeric: true, title: 'share of scored falsifiers whose side held (survived)' },
  { key: 'meanConfidence', label: 'Confidence', numeric: true, title: 'mean confidence in its side' },
  { key: 'unscored', label: 'Not scored', numeric: true, title: 'ambiguous, void, an uncertain side or no confidence' },
];

/** The figures that rest on the scored sample: sorted by one, a board puts settled rows first. */
const FROM_SAMPLE: ReadonlySet<Key> = new Set(['brier', 'heldRate', 'meanConfidence']);

const fixed = (v: number | null) => (v === null ? '—' : v.toFixed(3));
const share = (v: number | null) => (v === null ? '—' : pct(v));

/**
 * Debating personas by calibration: how well their confidence matched the falsifiers the
 * researcher resolved in the ledger (lowest Brier score first, the provisional rows after the
 * settled ones). Each score shows the falsifiers it rests on and is greyed under five: one
 * falsifier is an anecdote, not a calibration.
 */
export function CalibrationBoard({ rows }: { rows: CalibrationView[] }) {
  const [sort, setSort] = useState<Sort<Key>>({ key: 'brier', dir: 'asc' });
  const shown = useMemo(() => {
    const sorted = sortRows(rows, sort, (r, k) => r[k]);
    if (!FROM_SAMPLE.has(sort.key)) return sorted;
    // A Brier score of 0.00 from one falsifier is luck, not the best calibration: the rows greyed
    // as provisional (fewer than SETTLED_FROM scored) follow the settled ones, each part in order.
    return [...sorted.filter((r) => r.scored >= SETTLED_FROM), ...sorted.filter((r) => r.scored < SETTLED_FROM)];
  }, [rows, sort]);
  const exportCsv = () =>
    downloadText(
      'leaderboard-calibration.csv',
      toCsv(
        ['agent', 'name', 'brier', 'scored', 'survived', 'falsified', 'held', 'confidence', 'not scored'],
        shown.map((r) => [
          r.agent,
          r.agentName,
          r.brier,
          r.scored,
          r.survived,
          r.falsified,
          r.heldRate,
          r.meanConfidence,
          r.unscored,
        ]),
      ),
    );
  return (
    <section className="stack" aria-label="Calibration">
      <div className="row">
        <h2>Calibration in crux debates</h2>
        <button type="button" onClick={exportCsv} disabled={shown.length === 0}>
          Export CSV
        </button>
      </div>
      {rows.length === 0 ? (
        <p className="muted">
          No falsifier has been resolved yet: record how one turned out in the <a href={href('ledger')}>crux ledger</a>{' '}
          and its agent is scored here.
        </p>
      ) : (
        <table className="data" aria-label="Calibration leaderboard" data-testid="leaderboard-calibration">
          <thead>
            <SortHeader columns={COLUMNS} sort={sort} onSort={setSort} />
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={r.agent}>
                <td title={r.agent}>{r.agentName}</td>
                <td className="num">
                  <SampleScore text={fixed(r.brier)} n={r.scored} unit="scored falsifiers" />
                </td>
                <td className="num">
                  {r.scored} <span className="muted small">({r.survived} held)</span>
                </td>
                <td className="num">{share(r.heldRate)}</td>
                <td className="num">{share(r.meanConfidence)}</td>
                <td className="num">{r.unscored}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

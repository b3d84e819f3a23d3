import { useMemo, useState } from 'react';
import type { PersonaRatingView } from '../../../../core/contract';
import { href } from '../../router';
import { downloadText, toCsv } from '../../ui/csv';
import { pct } from '../evaluation/format';
import { SampleScore } from './sample-score';
import { type Sort, sortRows } from './sort';
import { type SortColumn, SortHeader } from './sort-header';

type Key = 'id' | 'role' | 'exchanges' | 'wins' | 'draws' | 'losses' | 'winRate';

const COLUMNS: SortColumn<Key>[] = [
  { key: 'id', label: 'Agent', numeric: false },
  { key: 'role', label: 'Role', numeric: false },
  { key: 'winRate', label: 'Rating', numeric: true, title: '(wins + draws / 2) / exchanges, by the arbiter’s rulings' },
  { key: 'exchanges', label: 'Exchanges', numeric: true },
  { key: 'wins', label: 'Wins', numeric: true },
  { key: 'draws', label: 'Draws', numeric: true },
  { key: 'losses', label: 'Losses', numeric: true },
];

/**
 * Red-team personas and category evaluators ranked by what the arbiter ruled over each idea's
 * current evaluation: a red-teamer wins when its challenge wins, an evaluator when it defends. A
 * rating shows its exchanges and is greyed under five: "100%" from one exchange is luck.
 */
export function PersonasBoard({ rows }: { rows: PersonaRatingView[] }) {
  const [sort, setSort] = useState<Sort<Key>>({ key: 'winRate', dir: 'desc' });
  const [role, setRole] = useState<'' | PersonaRatingView['role']>('');
  const shown = useMemo(
    () =>
      sortRows(
        rows.filter((r) => role === '' || r.role === role),
        sort,
        (r, k) => r[k],
      ),
    [rows, role, sort],
  );
  const exportCsv = () =>
    downloadText(
      'leaderboard-personas.csv',
      toCsv(
        ['agent', 'role', 'rating', 'exchanges', 'wins', 'draws', 'losses'],
        shown.map((r) => [r.id, r.role, r.winRate, r.exchanges, r.wins, r.draws, r.losses]),
      ),
    );
  return (
    <div className="stack">
      <div className="row">
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as typeof role)}>
            <option value="">all</option>
            <option value="red-team">red team</option>
            <option value="evaluator">evaluators</option>
          </select>
        </label>
        <button type="button" onClick={exportCsv} disabled={shown.length === 0}>
          Export CSV
        </button>
        <span className="muted small">
          Elo from arenas is on the <a href={href('leaderboards', { tab: 'elo' })}>Persona Elo</a> tab.
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="muted">No rulings yet: evaluate an idea and its red team and evaluators get rated here.</p>
      ) : (
        <table className="data" aria-label="Personas leaderboard" data-testid="leaderboard-personas">
          <thead>
            <SortHeader columns={COLUMNS} sort={sort} onSort={setSort} />
          </thead>
          <tbody>
            {shown.map((r) => (
              <tr key={`${r.role}:${r.id}`}>
                <td>{r.id}</td>
                <td>{r.role === 'red-team' ? 'red team' : 'evaluator'}</td>
                <td className="num">
                  <SampleScore text={pct(r.winRate)} n={r.exchanges} unit="exchanges" />
                </td>
                <td className="num">{r.exchanges}</td>
                <td className="num">{r.wins}</td>
                <td className="num">{r.draws}</td>
                <td className="num">{r.losses}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

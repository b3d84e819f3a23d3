import { useMemo, useState } from 'react';
import type { ArenaPersonaRating, ArenaRatings } from '../../../../core/contract';
import { href } from '../../router';
import { downloadText, toCsv } from '../../ui/csv';
import { Help } from '../../ui/help';
import { when } from '../debate/format';
import { RatingHistoryChart } from './rating-history-chart';
import { SampleScore } from './sample-score';
import { type Sort, sortRows } from './sort';
import { type SortColumn, SortHeader } from './sort-header';

type Key = 'name' | 'elo' | 'arenas' | 'wins' | 'votes' | 'voteBrier';

const COLUMNS: SortColumn<Key>[] = [
  { key: 'name', label: 'Persona', numeric: false },
  {
    key: 'elo',
    label: 'Elo',
    numeric: true,
    title: 'Starts at 1500; moved by the judge’s ranking in each completed arena',
  },
  { key: 'arenas', label: 'Arenas', numeric: true, title: 'Completed arenas it took part in' },
  { key: 'wins', label: 'Ranked first', numeric: true },
  { key: 'votes', label: 'Votes', numeric: true, title: 'Votes scored against the judge’s winner' },
  { key: 'voteBrier', label: 'Vote Brier', numeric: true, title: '0 is best (a sure and right vote), 1 worst' },
];

/** Lines the chart starts with: more than this many cannot be told apart. */
const CHARTED = 6;

/** What the left-out arenas were, in words. */
export function leftOutWords(
  ratings: Pick<ArenaRatings, 'counted' | 'leftOut'>,
  counted = ratings.counted,
  kind = 'arena',
): string {
  const left = ratings.leftOut.map((l) => `${l.arenas} ${l.status}`);
  return `${counted} completed ${kind}${counted === 1 ? '' : 's'} counted${
    left.length > 0 ? `; left out, changing no rating: ${left.join(', ')}` : ''
  }.`;
}

/**
 * Personas by Elo from arenas, with how often each was ranked first and how well its votes foretold
 * the winner (vote Brier), and a chart of each one's rating after every arena. The table and the
 * chart are one fold over the completed arena logs.
 */
export function EloBoard({ ratings }: { ratings: ArenaRatings }) {
  const rows = ratings.personas;
  const [sort, setSort] = useState<Sort<Key>>({ key: 'elo', dir: 'desc' });
  const [charted, setCharted] = useState<string[] | null>(null);
  const [opened, setOpened] = useState<string | null>(null);
  const shown = useMemo(() => sortRows(rows, sort, (r, k) => r[k]), [rows, sort]);
  const lines = charted ?? rows.slice(0, CHARTED).map((r) => r.id);
  const toggle = (id: string) => setCharted(lines.includes(id) ? lines.filter((x) => x !== id) : [...lines, id]);
  const open = rows.find((r) => r.id === opened) ?? null;
  const exportCsv = () =>
    downloadText(
      'leaderboard-persona-elo.csv',
      toCsv(
        ['persona', 'elo', 'arenas', 'ranked_first', 'votes', 'vote_brier'],
        shown.map((r) => [r.id, r.elo, r.arenas, r.wins, r.votes, r.voteBrier]),
      ),
    );

  return (
    <div className="stack" data-testid="elo-board">
      <p className="muted small">
        Elo
        <Help term="elo" /> from arenas
        <Help term="arena" />: every persona starts at 1500; each completed arena moves it by where the judge ranked its
        proposal against each other agent’s. {leftOutWords(ratings)}
      </p>
      {rows.length === 0 ? (
        <p className="muted">
          No completed arena yet: start one from an idea’s page or from <a href={href('arena')}>Arenas</a>, and the
          personas in it get rated here.
        </p>
      ) : (
        <>
          <RatingHistoryChart
            label="Persona Elo after each arena"
            series={rows
              .filter((r) => lines.includes(r.id))
              .map((r) => ({ id: r.id, name: r.name, history: r.history }))}
          />
          <div className="row">
            <button type="button" onClick={exportCsv}>
              Export CSV
            </button>
            <span className="muted small">Tick a persona to draw its line; open one to see its arenas.</span>
          </div>
          <table className="data" aria-label="Persona Elo" data-testid="leaderboard-elo">
            <thead>
              <SortHeader columns={COLUMNS} sort={sort} onSort={setSort} />
            </thead>
            <tbody>
              {shown.map((r) => (
                <EloRow
                  key={r.id}
                  r={r}
                  charted={lines.includes(r.id)}
                  onChart={() => toggle(r.id)}
                  onOpen={() => setOpened(opened === r.id ? null : r.id)}
                  open={opened === r.id}
                />
              ))}
            </tbody>
          </table>
          <p className="muted small">
            Vote Brier
            <Help term="vote-brier" /> is greyed under five votes: a score from one or two votes is luck, not
            calibration.
          </p>
          {open && <PersonaArenas r={open} />}
        </>
      )}
    </div>
  );
}

function EloRow({
  r,
  charted,
  onChart,
  onOpen,
  open,
}: {
  r: ArenaPersonaRating;
  charted: boolean;
  onChart: () => void;
  onOpen: () => void;
  open: boolean;
}) {
  return (
    <tr data-testid="elo-row" data-persona={r.id}>
      <td>
        <label>
          <input type="checkbox" checked={charted} onChange={onChart} aria-label={`Draw ${r.name}’s line`} />
        </label>{' '}
        <button type="button" className="link" onClick={onOpen} aria-expanded={open}>
          {r.name}
        </button>
      </td>
      <td className="num">
        <strong>{r.elo.toFixed(1)}</strong>
      </td>
      <td className="num">{r.arenas}</td>
      <td className="num">{r.wins}</td>
      <td className="num">{r.votes}</td>
      <td className="num">
        {r.voteBrier === null ? '—' : <SampleScore text={r.voteBrier.toFixed(3)} n={r.votes} unit="votes" />}
      </td>
    </tr>
  );
}

/** One persona's arenas, in order, each with its rating before and after and where the judge ranked it. */
function PersonaArenas({ r }: { r: ArenaPersonaRating }) {
  return (
    <section className="card stack" aria-label={`${r.name}’s arenas`} data-testid="persona-arenas">
      <h3 style={{ margin: 0 }}>{r.name}’s arenas</h3>
      <table className="data small">
        <thead>
          <tr>
            <th>Finished</th>
            <th>Question</th>
            <th className="num">Ranked</th>
            <th className="num">Elo</th>
          </tr>
        </thead>
        <tbody>
          {r.history.map((p) => (
            <tr key={p.arenaId}>
              <td>
                <a href={href('arena', p.arenaId)}>{when(p.at)}</a>
              </td>
              <td>{p.topic}</td>
              <td className="num">
                {p.rank} of {p.of}
              </td>
              <td className="num">
                {p.before.toFixed(1)} → {p.after.toFixed(1)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

import {
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { RatingPoint } from '../../../../core/contract';
import { forTheme, personaColours } from '../../ui/persona-colour';
import { useThemeColours } from '../convergence/use-theme-colours';

const VARS = ['--fg-muted', '--border', '--fg'] as const;

/** One series of the chart: a persona's (or an idea's) rating after each completed arena it was in. */
export interface RatingSeries {
  id: string;
  name: string;
  history: RatingPoint[];
}

/**
 * Each series' rating over the completed arenas, in the order the ratings fold takes them (x: the
 * n-th arena; a persona that sat an arena out keeps its line through it). The 1500 every rating
 * starts from is drawn as a line.
 */
export function RatingHistoryChart({ series, label }: { series: RatingSeries[]; label: string }) {
  const colours = useThemeColours(VARS);
  // The lines drawn together get colours told apart (personaColours), the half for the theme shown
  // now: SVG attributes may not resolve `light-dark()`.
  const colourOf = personaColours(series.map((s) => s.id));
  const dark = document.documentElement.dataset.theme === 'dark';
  const arenas = new Map<string, { n: number; topic: string; at: string }>();
  for (const p of series
    .flatMap((s) => s.history)
    .sort((a, b) => a.at.localeCompare(b.at) || a.arenaId.localeCompare(b.arenaId))) {
    if (!arenas.has(p.arenaId)) arenas.set(p.arenaId, { n: arenas.size + 1, topic: p.topic, at: p.at });
  }
  const rows = [...arenas.entries()].map(([arenaId, a]) => {
    const row: Record<string, number | string> = { n: a.n, topic: a.topic };
    for (const s of series) {
      const point = s.history.find((p) => p.arenaId === arenaId);
      if (point) row[s.id] = point.after;
    }
    return row;
  });
  // The start: every series at the rating before its first arena.
  const start: Record<string, number | string> = { n: 0, topic: 'before the first arena' };
  for (const s of series) if (s.history[0]) start[s.id] = s.history[0].before;
  const data = [start, ...rows];
  const values = series.flatMap((s) => s.history.flatMap((p) => [p.before, p.after]));
  const low = Math.floor((Math.min(1500, ...values) - 10) / 10) * 10;
  const high = Math.ceil((Math.max(1500, ...values) + 10) / 10) * 10;
  return (
    <figure className="chart rating-chart" data-testid="rating-chart" data-lines={series.length} aria-label={label}>
      <ResponsiveContainer width="100%" height={280}>
        <LineChart data={data} margin={{ top: 10, right: 36, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={colours['--border']} strokeDasharray="3 3" />
          <XAxis
            dataKey="n"
            type="number"
            domain={[0, Math.max(1, rows.length)]}
            allowDecimals={false}
            stroke={colours['--fg-muted']}
          />
          <YAxis domain={[low, high]} stroke={colours['--fg-muted']} width={48} />
          <ReferenceLine y={1500} stroke={colours['--fg-muted']} strokeDasharray="6 4" />
          <Tooltip
            contentStyle={{ fontSize: 12 }}
            labelFormatter={(n, payload) =>
              Number(n) === 0
                ? 'before the first arena'
                : `after arena ${String(n)}: ${String((payload?.[0]?.payload as { topic?: string } | undefined)?.topic ?? '')}`
            }
            formatter={(v) => (typeof v === 'number' ? v.toFixed(1) : String(v))}
            itemSorter={(item) => -Number(item.value ?? 0)}
          />
          <Legend />
          {series.map((s) => (
            <Line
              key={s.id}
              dataKey={s.id}
              name={s.name}
              type="linear"
              stroke={forTheme(colourOf(s.id), dark)}
              strokeWidth={2}
              dot={{ r: 3 }}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="muted small">
        x: the completed arenas in the order they finished (0 is before the first); y: Elo. The dashed line is 1500,
        where every rating starts.
      </figcaption>
    </figure>
  );
}

import { CartesianGrid, Line, LineChart, ReferenceArea, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { EvaluationDetail } from '../../../../core/contract';
import { categoryVar, score } from '../evaluation/format';
import { useThemeColours } from './use-theme-colours';

const CATEGORY_VARS = [
  '--cat-1',
  '--cat-2',
  '--cat-3',
  '--cat-4',
  '--cat-5',
  '--cat-6',
  '--fg',
  '--fg-muted',
  '--border',
] as const;

export const roundLabel = (i: number) => (i === 0 ? 'start' : `R${i}`);

/**
 * The overall score by round as a dashed line, with the focused criterion or category drawn over
 * it (the thirty criteria each have their own small chart below, `CriterionMultiples`: thirty lines
 * sharing six colours could not be told apart). Scores move in whole steps, so the lines are steps:
 * a smooth curve would draw values no evaluator gave. The band is ±`band` around the focused line's
 * last value over the rounds the stability condition looks at: a line that stays inside it has
 * settled. Its label is in the caption under the chart, where the plot's edge cannot clip it.
 */
export function ScoreChart({
  d,
  focus,
  band,
  roundsNeeded,
}: {
  d: EvaluationDetail;
  /** A criterion id, a category id prefixed `cat:`, or null for the overall score. */
  focus: string | null;
  band: number;
  roundsNeeded: number;
}) {
  const colours = useThemeColours(CATEGORY_VARS);
  const catIndex = new Map(d.categories.map((c, i) => [c.id, i]));
  const colourOf = (category: string) =>
    colours[categoryVar(catIndex.get(category) ?? 0) as (typeof CATEGORY_VARS)[number]];
  const rounds = d.overallTrajectory.length;
  const data = Array.from({ length: rounds }, (_, i) => {
    const row: Record<string, number | string> = { round: roundLabel(i), overall: d.overallTrajectory[i] ?? 0 };
    for (const c of d.criteria) {
      const v = c.scores[i];
      if (v !== undefined) row[c.id] = v;
    }
    return row;
  });
  const focused = focus && !focus.startsWith('cat:') ? d.criteria.find((c) => c.id === focus) : null;
  const focusCategory = focus?.startsWith('cat:') ? focus.slice(4) : null;
  const bandOf = focused
    ? (focused.scores.at(-1) ?? null)
    : focusCategory
      ? null
      : (d.overallTrajectory.at(-1) ?? null);
  const from = Math.max(0, rounds - 1 - roundsNeeded);
  const shown = (c: { id: string; category: string }) => focused?.id === c.id || focusCategory === c.category;

  return (
    <div className="chart" data-testid="overall-chart">
      <ResponsiveContainer width="100%" height={280}>
        <LineChart data={data} margin={{ top: 10, right: 24, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={colours['--border']} strokeDasharray="3 3" />
          <XAxis dataKey="round" stroke={colours['--fg-muted']} />
          <YAxis domain={[1, 10]} ticks={[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]} stroke={colours['--fg-muted']} width={32} />
          <Tooltip
            contentStyle={{ fontSize: 12, maxHeight: 320, overflowY: 'auto' }}
            itemSorter={(item) => -Number(item.value ?? 0)}
            // The overall score with two decimals, as everywhere in the app; a criterion's is whole.
            formatter={(v, name) =>
              typeof v !== 'number' ? String(v) : name === 'overall' ? score(v) : String(Math.round(v * 100) / 100)
            }
          />
          {bandOf !== null && rounds > 1 && (
            <ReferenceArea
              x1={roundLabel(from)}
              x2={roundLabel(rounds - 1)}
              y1={Math.max(1, bandOf - band)}
              y2={Math.min(10, bandOf + band)}
              fill={colours['--fg-muted']}
              fillOpacity={0.15}
              ifOverflow="hidden"
            />
          )}
          {d.criteria.filter(shown).map((c) => (
            <Line
              key={c.id}
              dataKey={c.id}
              name={c.name}
              type="stepAfter"
              stroke={colourOf(c.category)}
              strokeOpacity={0.85}
              strokeWidth={focused?.id === c.id ? 3 : 1.4}
              dot={{ r: focused?.id === c.id ? 4 : 2 }}
              isAnimationActive={false}
            />
          ))}
          <Line
            dataKey="overall"
            name="overall"
            type="stepAfter"
            stroke={colours['--fg']}
            strokeDasharray="6 4"
            strokeWidth={focus === null ? 3 : 2}
            dot={{ r: 3 }}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
      {bandOf !== null && rounds > 1 && (
        <p className="muted small" data-testid="band-label">
          Shaded band: ±{band} around the last {focused ? `score of ${focused.name}` : 'overall score'} over the last{' '}
          {rounds - 1 - from === 1 ? 'round' : `${rounds - 1 - from} rounds`}; a line that stays inside it has settled.
        </p>
      )}
    </div>
  );
}

import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { EvaluationDetail } from '../../../../core/contract';
import { score } from '../evaluation/format';
import { roundLabel } from './score-chart';
import { useThemeColours } from './use-theme-colours';

/** Six colours for the criteria of one category (a category has five): told apart within its chart. */
const VARS = ['--cat-1', '--cat-2', '--cat-3', '--cat-4', '--cat-5', '--cat-6', '--fg-muted', '--border'] as const;
const colourVar = (i: number) => VARS[i % 6] as (typeof VARS)[number];

/**
 * Every criterion's score by round as small multiples, one chart per category with its criteria
 * named beside their colours. Thirty lines in one chart shared six category colours, so no line
 * could be traced to its criterion. Steps, not curves: scores move in whole points.
 */
export function CriterionMultiples({
  d,
  focus,
  onFocus,
}: {
  d: EvaluationDetail;
  focus: string | null;
  onFocus: (id: string | null) => void;
}) {
  const colours = useThemeColours(VARS);
  const rounds = d.overallTrajectory.length;
  return (
    <div className="multiples" data-testid="criterion-multiples">
      {d.categories.map((cat) => {
        const criteria = d.criteria.filter((c) => c.category === cat.id);
        const data = Array.from({ length: rounds }, (_, i) => {
          const row: Record<string, number | string> = { round: roundLabel(i) };
          for (const c of criteria) {
            const v = c.scores[i];
            if (v !== undefined) row[c.id] = v;
          }
          return row;
        });
        return (
          <figure key={cat.id} className="multiple" data-testid="category-chart" data-category={cat.id}>
            <figcaption>
              <strong>{cat.name}</strong> <span className="muted small">{score(cat.score)}</span>
            </figcaption>
            <ResponsiveContainer width="100%" height={140}>
              <LineChart data={data} margin={{ top: 6, right: 8, bottom: 0, left: 0 }}>
                <CartesianGrid stroke={colours['--border']} strokeDasharray="3 3" />
                <XAxis dataKey="round" stroke={colours['--fg-muted']} fontSize={11} />
                <YAxis domain={[1, 10]} ticks={[1, 4, 7, 10]} stroke={colours['--fg-muted']} width={24} fontSize={11} />
                <Tooltip contentStyle={{ fontSize: 12 }} itemSorter={(item) => -Number(item.value ?? 0)} />
                {criteria.map((c, i) => (
                  <Line
                    key={c.id}
                    dataKey={c.id}
                    name={c.name}
                    type="stepAfter"
                    stroke={colours[colourVar(i)]}
                    strokeOpacity={focus === null || focus === c.id ? 0.9 : 0.25}
                    strokeWidth={focus === c.id ? 3 : 1.6}
                    dot={{ r: 2 }}
                    isAnimationActive={false}
                  />
                ))}
              </LineChart>
            </ResponsiveContainer>
            <ul className="legend small">
              {criteria.map((c, i) => (
                <li key={c.id}>
                  <button
                    type="button"
                    className={`link legend-item${focus === c.id ? ' active' : ''}`}
                    aria-pressed={focus === c.id}
                    data-testid="criterion-name"
                    style={{ '--cat-color': `var(${colourVar(i)})` } as React.CSSProperties}
                    onClick={() => onFocus(focus === c.id ? null : c.id)}
                  >
                    <span className="swatch" aria-hidden="true" />
                    {c.name} {score(c.scores.at(-1) ?? null, 0)}
                  </button>
                </li>
              ))}
            </ul>
          </figure>
        );
      })}
    </div>
  );
}

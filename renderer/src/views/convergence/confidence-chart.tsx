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
import type { EvaluationDetail } from '../../../../core/contract';
import { roundLabel } from './score-chart';
import { useThemeColours } from './use-theme-colours';

const VARS = ['--accent', '--danger', '--warn', '--ok', '--fg-muted', '--border', '--cat-5'] as const;

/**
 * The evaluation's confidence by round (the protocol's formula), the lowest criterion confidence,
 * and the focused criterion's, against the thresholds the confidence condition asks for.
 */
export function ConfidenceChart({
  d,
  focus,
  minimum,
  criticalMinimum,
}: {
  d: EvaluationDetail;
  focus: string | null;
  minimum: number;
  criticalMinimum: number;
}) {
  const colours = useThemeColours(VARS);
  const focused = focus ? d.criteria.find((c) => c.id === focus) : null;
  const data = d.confidenceTrajectory.map((overall, i) => {
    const known = d.criteria.map((c) => c.confidences[i]).filter((x): x is number => x !== null && x !== undefined);
    return {
      round: roundLabel(i),
      overall,
      lowest: known.length ? Math.min(...known) : null,
      ...(focused ? { focused: focused.confidences[i] ?? null } : {}),
    };
  });
  return (
    <div className="chart" data-testid="confidence-chart">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ top: 10, right: 24, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={colours['--border']} strokeDasharray="3 3" />
          <XAxis dataKey="round" stroke={colours['--fg-muted']} />
          <YAxis domain={[0, 1]} stroke={colours['--fg-muted']} width={44} />
          <Tooltip contentStyle={{ fontSize: 12 }} />
          <Legend />
          <ReferenceLine
            y={minimum}
            stroke={colours['--warn']}
            strokeDasharray="4 4"
            label={{
              value: `minimum ${minimum}`,
              fill: colours['--warn'],
              fontSize: 11,
              position: 'insideBottomRight',
            }}
          />
          <ReferenceLine
            y={criticalMinimum}
            stroke={colours['--danger']}
            strokeDasharray="4 4"
            label={{
              value: `critical ${criticalMinimum}`,
              fill: colours['--danger'],
              fontSize: 11,
              position: 'insideTopRight',
            }}
          />
          <Line
            dataKey="overall"
            name="evaluation confidence"
            stroke={colours['--accent']}
            strokeWidth={2.5}
            connectNulls
            isAnimationActive={false}
          />
          <Line
            dataKey="lowest"
            name="lowest criterion"
            stroke={colours['--danger']}
            strokeWidth={1.5}
            connectNulls
            isAnimationActive={false}
          />
          {focused && (
            <Line
              dataKey="focused"
              name={focused.name}
              stroke={colours['--cat-5']}
              strokeWidth={2}
              connectNulls
              isAnimationActive={false}
            />
          )}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

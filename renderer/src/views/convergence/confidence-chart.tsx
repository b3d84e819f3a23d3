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
 * and the focused criterion's, against the thresholds the confidence condition asks for. The two
 * threshold labels sit at opposite ends of their lines: at 0.7 and 0.8 they are a few pixels
 * apart and, on the same side, read as "mincritical 0.8". A sentence under the chart says what
 * each figure is, since the lowest criterion often sits above the evaluation's own confidence.
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
              value: `min ${minimum}`,
              fill: colours['--warn'],
              fontSize: 11,
              position: 'insideBottomLeft',
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
      <p className="muted small confidence-meaning" data-testid="confidence-meaning">
        <strong>Evaluation confidence</strong> is the protocol’s formula over the whole evaluation: 0.4 × the share of
        challenges the evaluators defended, 0.2 × first-principles bonuses per exchange, 0.2 × (1 − volatility) and 0.2
        × the share of development questions answered. <strong>Lowest criterion</strong> is the least sure of the
        evaluators’ own confidences in a single criterion’s score. They measure different things, so the lowest
        criterion can sit above the evaluation’s confidence: every score held with conviction, while few challenges were
        defended or questions answered.
      </p>
    </div>
  );
}

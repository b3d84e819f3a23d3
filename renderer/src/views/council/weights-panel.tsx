import { type CSSProperties, useEffect, useId, useState } from 'react';
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
import type { COUNCIL_VALUE_NAMES, CouncilWeightsReport } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { cssVar } from '../../theme';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { type Agent, AGENTS, councilColour } from './words';

type Value = (typeof COUNCIL_VALUE_NAMES)[number];

/** Whether the dark theme is on, followed as it changes (SVG strokes need a resolved colour). */
const isDark = () => document.documentElement.dataset.theme === 'dark';

function useDark(): boolean {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(isDark()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

/** An agent's colour as the rest of the app draws its name, resolved for the theme. */
function agentStroke(agent: Agent, dark: boolean): string {
  const m = /light-dark\((hsl\([^)]*\)), (hsl\([^)]*\))\)/.exec(councilColour(agent));
  return (dark ? m?.[2] : m?.[1]) ?? cssVar('--accent');
}

const day = (at: string | null) => (at ? at.slice(0, 10) : 'start');

/**
 * The agents' value weights: for one value (chosen), each agent's weight over the tasks that moved
 * it, between the bounds; the eight values × three agents now with each value's spread against the
 * diversity floor; and every adjustment the integrator proposed, applied or refused, with why.
 */
export function WeightsPanel() {
  const ids = useId();
  const weights = useChannel('council:weights', {});
  // Weights move only when a task records its episode, which ends its run.
  usePush('run:status', (r) => {
    if (r.protocol === 'council') weights.reload();
  });
  const [value, setValue] = useState<Value>('truth');
  const dark = useDark();
  const w = weights.data;
  return (
    <section className="card council-weights" aria-labelledby={`${ids}-h`} data-testid="weights">
      <h2 id={`${ids}-h`}>
        The agents’ value weights <Help term="value-weights" />
      </h2>
      <ErrorNotice error={weights.error} />
      {w && (
        <>
          <div className="row">
            <label htmlFor={`${ids}-value`}>Value</label>
            <select id={`${ids}-value`} value={value} onChange={(e) => setValue(e.target.value as Value)}>
              {w.values.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
            <span className="muted small">
              each agent’s weight for {value}, from the starting weights through every task that moved one
            </span>
          </div>
          <WeightsChart w={w} value={value} dark={dark} />
          {w.series.length < 2 && (
            <p className="muted small">
              No task has moved a weight yet: at the end of a task the integrator may propose adjustments of at most{' '}
              {w.bounds.maxDelta} each.
            </p>
          )}
          <CurrentWeights w={w} onPick={setValue} picked={value} />
          <History w={w} />
        </>
      )}
    </section>
  );
}

function WeightsChart({ w, value, dark }: { w: CouncilWeightsReport; value: Value; dark: boolean }) {
  const data = w.series.map((point, i) => ({
    label: i === 0 ? 'start' : `task ${i} · ${day(point.at)}`,
    ...Object.fromEntries(AGENTS.map((a) => [a, point.weights[a][value]])),
  }));
  const muted = cssVar('--fg-muted');
  return (
    <div className="chart" data-testid="weights-chart">
      <ResponsiveContainer width="100%" height={240}>
        <LineChart data={data} margin={{ top: 12, right: 24, bottom: 4, left: 0 }}>
          <CartesianGrid stroke={cssVar('--border')} strokeDasharray="3 3" />
          <XAxis dataKey="label" stroke={muted} />
          <YAxis domain={[0, 1]} stroke={muted} width={44} />
          <Tooltip contentStyle={{ fontSize: 12, background: cssVar('--bg-raised'), color: cssVar('--fg') }} />
          <Legend />
          <ReferenceLine
            y={w.bounds.min}
            stroke={muted}
            strokeDasharray="4 4"
            label={{ value: `lowest ${w.bounds.min}`, fill: muted, fontSize: 11, position: 'insideBottomLeft' }}
          />
          {AGENTS.map((a) => (
            <Line
              key={a}
              dataKey={a}
              name={a}
              type="stepAfter"
              stroke={agentStroke(a, dark)}
              strokeWidth={2}
              dot={{ r: 3 }}
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <p className="muted small">
        Weights run from {w.bounds.min} to {w.bounds.max}; a line steps only where a task’s episode moved it (by at most{' '}
        {w.bounds.maxDelta}).
      </p>
    </div>
  );
}

function CurrentWeights({ w, picked, onPick }: { w: CouncilWeightsReport; picked: Value; onPick: (v: Value) => void }) {
  return (
    <div className="council-table-wrap">
      <table className="data council-weights-table" aria-label="The weights now">
        <thead>
          <tr>
            <th>value</th>
            {w.agents.map((a) => (
              <th key={a} className="num">
                {a}
              </th>
            ))}
            <th className="num">
              spread <Help term="diversity-floor" />
            </th>
          </tr>
        </thead>
        <tbody>
          {w.values.map((v) => {
            const below = w.spread[v] < w.bounds.diversityFloor;
            return (
              <tr key={v} className={v === picked ? 'picked' : undefined}>
                <td>
                  <button type="button" className="link" onClick={() => onPick(v)} aria-pressed={v === picked}>
                    {v}
                  </button>
                </td>
                {w.agents.map((a) => {
                  const x = w.current[a][v];
                  const moved = x !== w.starting[a][v];
                  return (
                    <td key={a} className="num" style={{ '--weight': x } as CSSProperties}>
                      <span className="weight-cell">{x.toFixed(2)}</span>
                      {moved && <span className="muted small"> (was {w.starting[a][v].toFixed(2)})</span>}
                    </td>
                  );
                })}
                <td
                  className={`num ${below ? 'muted' : ''}`}
                  title={below ? `under the floor of ${w.bounds.diversityFloor}` : undefined}
                >
                  {w.spread[v].toFixed(3)}
                  {below && <span className="small"> &lt; {w.bounds.diversityFloor}</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted small">
        Spread is the standard deviation of a value’s weight across the three agents. Once at or above{' '}
        {w.bounds.diversityFloor}, no adjustment may bring it under.
      </p>
    </div>
  );
}

function History({ w }: { w: CouncilWeightsReport }) {
  if (w.history.length === 0) return <p className="muted small">No adjustment proposed yet.</p>;
  return (
    <details className="council-history" open>
      <summary>Every adjustment the integrator proposed ({w.history.length})</summary>
      <div className="council-table-wrap">
        <table className="data" aria-label="Weight history">
          <thead>
            <tr>
              <th>when</th>
              <th>task</th>
              <th>agent</th>
              <th>value</th>
              <th className="num">change</th>
              <th>outcome</th>
            </tr>
          </thead>
          <tbody>
            {w.history.map((h, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the history is append-only, in order
              <tr key={i} data-testid="weight-history-row">
                <td>{day(h.at)}</td>
                <td>
                  <a href={href('council', h.taskId)}>{h.taskId.slice(-6)}</a>
                </td>
                <td>{h.agent}</td>
                <td>{h.value}</td>
                <td className="num">
                  {h.delta > 0 ? '+' : ''}
                  {h.delta}
                </td>
                <td>
                  {h.refused ? (
                    <span>
                      <span className="badge">refused</span> {h.refused}
                    </span>
                  ) : (
                    <span>
                      {h.from?.toFixed(2)} → {h.to?.toFixed(2)}
                    </span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

import type { ReactNode } from 'react';
import { useId } from 'react';
import {
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { CouncilFiguresReport, CouncilTaskFigures } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { cssVar } from '../../theme';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';

const pct = (x: number | null) => (x === null ? '—' : `${Math.round(x * 100)}%`);
const num = (x: number | null, digits = 2) => (x === null ? '—' : x.toFixed(digits));
const usd = (x: number | null) => (x === null ? '—' : `$${x.toFixed(4)}`);

/** A line the seed sets as a target, drawn across a small chart. */
interface Mark {
  y: number;
  label: string;
}

interface FigureSpec {
  id: string;
  title: string;
  /** The figure over all tasks (or now), in words and number. */
  overall: string;
  /** Each task's value, in the order the tasks started (null: the task has none, a gap). */
  value: (t: CouncilTaskFigures) => number | null;
  format: (x: number | null) => string;
  domain?: [number, number];
  band?: { y1: number; y2: number; label: string };
  marks?: Mark[];
  /** What the figure means and where it should be, in words. */
  words: ReactNode;
}

function specs(f: CouncilFiguresReport): FigureSpec[] {
  const o = f.overall;
  const t = f.targets;
  return [
    {
      id: 'rounds',
      title: 'Rounds per proposal',
      overall: `overall ${num(o.roundsPerProposal)}`,
      value: (x) => x.roundsPerProposal,
      format: (x) => num(x),
      marks: [
        { y: t.roundsPerProposal.low, label: `low stakes ≤ ${t.roundsPerProposal.low}` },
        { y: t.roundsPerProposal.medium, label: `medium ≤ ${t.roundsPerProposal.medium}` },
      ],
      words: (
        <>
          How many times a proposal went round the three agents before it was settled. One means they agreed on the
          first version; the seed expects at most {t.roundsPerProposal.low} for low stakes and{' '}
          {t.roundsPerProposal.medium} for medium.
        </>
      ),
    },
    {
      id: 'dissent',
      title: 'Dissent rate',
      overall: `overall ${pct(o.dissentRate)}`,
      value: (x) => x.dissentRate,
      format: pct,
      domain: [0, 1],
      band: { y1: t.dissentRate.min, y2: t.dissentRate.max, label: 'target' },
      words: (
        <>
          The share of proposals that met at least one concern or rejection <Help term="dissent" />. The shaded band is
          the seed’s target, {pct(t.dissentRate.min)}–{pct(t.dissentRate.max)}: below it the agents may be agreeing too
          easily, above it they may be stuck.
        </>
      ),
    },
    {
      id: 'productive',
      title: 'Productive conflict',
      overall: `overall ${pct(o.productiveConflictRate)}`,
      value: (x) => x.productiveConflictRate,
      format: pct,
      domain: [0, 1],
      words: (
        <>
          Of the proposals some agent rejected, the share whose later version (a revision or a compromise) was then
          approved: disagreement that led somewhere. A task without a rejection has no point here.
        </>
      ),
    },
    {
      id: 'memory',
      title: 'Memory use',
      overall: `overall ${pct(o.memoryUseRate)}`,
      value: (x) => x.memory.rate,
      format: pct,
      domain: [0, 1],
      words: (
        <>
          The share of proposals that cited at least one episode of the shared memory (what earlier runs learned) in
          their justification.
        </>
      ),
    },
    {
      id: 'diversity',
      title: 'Weight diversity',
      overall: `now ${num(o.minWeightDiversity, 3)}`,
      value: (x) => x.minWeightDiversity,
      format: (x) => num(x, 3),
      marks: [{ y: t.weightDiversityFloor, label: `floor ${t.weightDiversityFloor}` }],
      words: (
        <>
          After each task, the smallest spread (standard deviation across the three agents) of any value’s weight{' '}
          <Help term="diversity-floor" />. Under the floor of {t.weightDiversityFloor}, the agents would weigh that
          value alike and stop checking one another on it.
        </>
      ),
    },
    {
      id: 'cost',
      title: 'Cost per task',
      overall: `mean: simple ${usd(o.costPerTask.simple)} · complex ${usd(o.costPerTask.complex)}`,
      value: (x) => x.costUsd,
      format: usd,
      marks: [
        { y: t.costUsd.simple, label: `simple ≤ $${t.costUsd.simple}` },
        { y: t.costUsd.complex, label: `complex ≤ $${t.costUsd.complex}` },
      ],
      words: (
        <>
          What each task’s model calls cost at the model table’s prices. A simple task (every proposal agreed at once)
          should stay under ${t.costUsd.simple}, a complex one under ${t.costUsd.complex}.
        </>
      ),
    },
    {
      id: 'calls',
      title: 'Calls per task',
      overall: `mean ${num(o.callsPerTask, 1)}`,
      value: (x) => x.calls,
      format: (x) => num(x, 0),
      words: <>How many model calls each task made: proposals, reviews, revisions and the closing episode.</>,
    },
  ];
}

/**
 * The council's figures over time (`council:figures`): one small chart per figure, a point per task
 * in the order the tasks started, each with the seed's target drawn where it has one and said in
 * words. Observational: the agents never see them.
 */
export function FiguresPanel() {
  const ids = useId();
  const figures = useChannel('council:figures', {});
  usePush('run:status', (r) => {
    if (r.protocol === 'council') figures.reload();
  });
  const f = figures.data;
  return (
    <section className="card council-figures" aria-labelledby={`${ids}-h`} data-testid="council-figures">
      <h2 id={`${ids}-h`}>The council’s figures over time</h2>
      <ErrorNotice error={figures.error} />
      {f && f.tasks.length === 0 && <p className="muted">No council task yet: the figures start with the first.</p>}
      {f && f.tasks.length > 0 && (
        <>
          <p className="muted small">
            {f.overall.tasks} task(s), {f.overall.proposals} proposal(s), {f.overall.calls} calls, $
            {f.overall.costUsd.toFixed(4)} in all. Each point is one task, in the order they started; the figures are
            only for you, never shown to the agents.
          </p>
          <div className="council-figures-grid">
            {specs(f).map((s) => (
              <FigureChart key={s.id} spec={s} tasks={f.tasks} />
            ))}
          </div>
        </>
      )}
      {f && f.problems.length > 0 && (
        <p className="muted small">
          Left out, unreadable: {f.problems.map((p) => `${p.file} (${p.reason})`).join('; ')}
        </p>
      )}
    </section>
  );
}

function FigureChart({ spec, tasks }: { spec: FigureSpec; tasks: CouncilTaskFigures[] }) {
  const data = tasks.map((t, i) => ({
    label: `${i + 1} · ${t.startedAt.slice(5, 10)}`,
    task: t.task,
    value: spec.value(t),
  }));
  const muted = cssVar('--fg-muted');
  const accent = cssVar('--accent');
  return (
    <figure className="council-figure" data-testid={`figure-${spec.id}`}>
      <figcaption>
        <strong>{spec.title}</strong> <span className="council-figure-overall">{spec.overall}</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={130}>
        <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
          <CartesianGrid stroke={cssVar('--border')} strokeDasharray="3 3" />
          <XAxis dataKey="label" stroke={muted} fontSize={10} />
          <YAxis
            domain={spec.domain ?? [0, 'auto']}
            stroke={muted}
            width={48}
            fontSize={10}
            tickFormatter={(x: number) => spec.format(x)}
          />
          <Tooltip
            formatter={(x) => spec.format(typeof x === 'number' ? x : null)}
            labelFormatter={(label, payload) => `task ${label}: ${payload?.[0]?.payload?.task ?? ''}`}
            contentStyle={{ fontSize: 12, background: cssVar('--bg-raised'), color: cssVar('--fg') }}
          />
          {spec.band && (
            <ReferenceArea
              y1={spec.band.y1}
              y2={spec.band.y2}
              fill={accent}
              fillOpacity={0.12}
              ifOverflow="extendDomain"
              label={{ value: spec.band.label, fill: muted, fontSize: 10, position: 'insideTopRight' }}
            />
          )}
          {spec.marks?.map((m) => (
            <ReferenceLine
              key={m.label}
              y={m.y}
              stroke={muted}
              strokeDasharray="4 4"
              ifOverflow="extendDomain"
              label={{ value: m.label, fill: muted, fontSize: 10, position: 'insideTopRight' }}
            />
          ))}
          <Line
            dataKey="value"
            name={spec.title}
            stroke={accent}
            strokeWidth={2}
            dot={{ r: 3 }}
            connectNulls={false}
            isAnimationActive={false}
          />
        </LineChart>
      </ResponsiveContainer>
      <p className="muted small">{spec.words}</p>
    </figure>
  );
}

import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
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
import type { CourseThread, DebateCourse } from '../../../../core/contract';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { forTheme, personaColours } from '../../ui/persona-colour';
import { PlainCode } from '../../ui/plain-code';
import { statusBadge, threadTone } from '../debate/format';
import { dcgRows, dcgSeriesNames, finalKey, firstThread, positionRows, provisionalKey } from './course-data';
import { useThemeColours } from './use-theme-colours';

const VARS = ['--cat-1', '--cat-2', '--cat-3', '--cat-4', '--cat-5', '--cat-6', '--fg-muted', '--border'] as const;
const CATS = VARS.slice(0, 6);

/** A running debate's course is read again at most this often while its events arrive. */
const LIVE_RELOAD_MS = 2500;

const two = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toFixed(2));

/** The x of a click on a chart, as a message index to open in the transcript. */
/** A transcript place as a message names it (`m25`), what the transcript's rows and links say. */
function messageName(course: DebateCourse, index: unknown): string {
  const n = typeof index === 'number' ? index : Number(index);
  return course.messageIds[n] ?? `#${String(index)}`;
}

function clickedIndex(state: unknown): number | null {
  const label = (state as { activeLabel?: unknown } | null)?.activeLabel;
  const n = typeof label === 'number' ? label : typeof label === 'string' ? Number(label) : Number.NaN;
  return Number.isInteger(n) && n >= 0 ? n : null;
}

/**
 * `#/convergence/debate/<id>`: how a crux debate converged, message by message. Each crux's DCG
 * (dashed while it is the provisional figure on the positions so far, solid once the thread has
 * crystallized) and, for one crux at a time, every agent's side and confidence (YES above the line,
 * NO below, UNCERTAIN on it). A click on a chart opens the transcript at that message. It follows a
 * running debate.
 */
export function DebateCourseView({ id, picker }: { id: string; picker?: ReactNode }) {
  const loaded = useChannel('debates:course', { id });
  const reload = loaded.reload;
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  usePush('debate:event', (payload) => {
    if (payload.debateId !== id || pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      reload();
    }, LIVE_RELOAD_MS);
  });
  usePush('run:status', (payload) => {
    if (payload.id === id) reload();
  });
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);

  const course = loaded.data;
  const [picked, setPicked] = useState<string | null>(null);
  const thread = course ? (course.threads.find((t) => t.id === picked) ?? firstThread(course)) : undefined;

  const commands = useMemo<Command[]>(
    () => [
      {
        id: `course:${id}:debate`,
        title: 'Open this debate’s columns',
        group: 'Convergence',
        run: () => navigate(href('debate', id)),
      },
      {
        id: `course:${id}:map`,
        title: 'Open this debate’s crux map',
        group: 'Convergence',
        run: () => navigate(href('crux-map', id)),
      },
      {
        id: `course:${id}:transcript`,
        title: 'Read this debate’s transcript',
        group: 'Convergence',
        run: () => navigate(href('transcript', 'debate', id)),
      },
    ],
    [id],
  );
  useCommands(`course:${id}`, commands);

  const badge = course ? statusBadge(course.status, true) : null;
  const anyDcg = course?.threads.some((t) => t.dcgPoints.length > 0) ?? false;
  return (
    <section className="view convergence" data-testid="debate-course">
      <nav className="muted small">
        <a href={href('convergence')}>Convergence</a> / crux debate
      </nav>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h1>DCG and positions{course ? ` of “${course.topic}”` : ''}</h1>
        {picker}
      </div>
      <ErrorNotice error={loaded.error} />
      {!course && !loaded.error && <p className="muted">Loading…</p>}
      {course && (
        <>
          <div className="row small">
            {badge && <span className={`badge ${badge.tone}`}>{badge.label}</span>}
            <span className="muted">
              {course.messages} messages · {course.threads.length} thread{course.threads.length === 1 ? '' : 's'}
            </span>
            <a href={href('debate', id)}>debate</a>
            <a href={href('crux-map', id)}>crux map</a>
            <a href={href('transcript', 'debate', id)}>transcript</a>
            {course.ideaSlug && <a href={href('idea', course.ideaSlug)}>the idea</a>}
          </div>
          <section className="card stack" aria-labelledby="dcg-title">
            <h2 id="dcg-title">DCG over the debate</h2>
            {anyDcg ? (
              <DcgChart
                course={course}
                onOpen={(m) => navigate(href('transcript', 'debate', id, { m: course.messageIds[m] ?? m }))}
              />
            ) : (
              <p className="muted" data-testid="no-dcg">
                No DCG yet: no thread has agents on both sides with falsifiers so far. The DCG (disagreement compression
                gain) needs a YES/NO split; it becomes the crux’s own when its thread crystallizes.
              </p>
            )}
            <p className="muted small">
              Dashed: the DCG the thread would have on its positions so far, if every agent with a falsifier would
              change its mind (the crystallizer’s analysis says who would). Solid: the crux’s DCG once crystallized.
              Click a point to read that message.
            </p>
          </section>
          <section className="card stack" aria-labelledby="positions-title">
            <div className="row" style={{ justifyContent: 'space-between' }}>
              <h2 id="positions-title">Positions</h2>
              {course.threads.length > 1 && (
                <label>
                  Crux
                  <select value={thread?.id ?? ''} onChange={(e) => setPicked(e.target.value)}>
                    {course.threads.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.id}: {t.question ?? t.topic}
                      </option>
                    ))}
                  </select>
                </label>
              )}
            </div>
            {thread && thread.positions.length > 0 ? (
              <PositionsChart
                course={course}
                thread={thread}
                onOpen={(m) => navigate(href('transcript', 'debate', id, { m: course.messageIds[m] ?? m }))}
              />
            ) : (
              <p className="muted">No agent has taken a side in this thread yet.</p>
            )}
          </section>
          <CruxTable course={course} id={id} />
        </>
      )}
    </section>
  );
}

function DcgChart({ course, onOpen }: { course: DebateCourse; onOpen: (m: number) => void }) {
  const colours = useThemeColours(VARS);
  const rows = useMemo(() => dcgRows(course), [course]);
  const colour = (i: number) => colours[CATS[i % CATS.length] as (typeof CATS)[number]];
  const drawn = course.threads.filter((t) => t.dcgPoints.length > 0);
  // Each line named by its crux question; the whole question (and the thread's id) on hover.
  const names = new Map(course.threads.map((t) => [t.id, dcgSeriesNames(t)]));
  const titles = new Map(
    course.threads.flatMap((t) => {
      const title = names.get(t.id)?.title ?? t.id;
      return [
        [provisionalKey(t.id), title],
        [finalKey(t.id), title],
      ];
    }),
  );
  return (
    <div className="chart" data-testid="dcg-chart" data-lines={drawn.length}>
      <ResponsiveContainer width="100%" height={300}>
        <LineChart
          data={rows}
          margin={{ top: 10, right: 24, bottom: 4, left: 0 }}
          onClick={(state) => {
            const m = clickedIndex(state);
            if (m !== null) onOpen(m);
          }}
        >
          <CartesianGrid stroke={colours['--border']} strokeDasharray="3 3" />
          <XAxis
            dataKey="index"
            type="number"
            domain={[0, Math.max(1, course.messages - 1)]}
            stroke={colours['--fg-muted']}
            label={{ value: 'message', position: 'insideBottomRight', offset: -2, fill: colours['--fg-muted'] }}
          />
          <YAxis domain={[0, 1]} stroke={colours['--fg-muted']} width={40} />
          <Tooltip
            contentStyle={{ fontSize: 12 }}
            labelFormatter={(x) => `after ${messageName(course, x)}`}
            formatter={(v) => (typeof v === 'number' ? v.toFixed(2) : String(v))}
          />
          <Legend
            formatter={(value, entry) => (
              <span title={titles.get(String(entry.dataKey)) ?? String(value)} data-testid="dcg-legend">
                {value}
              </span>
            )}
          />
          {course.threads.map((t, i) =>
            t.dcgPoints.length === 0
              ? null
              : [
                  <Line
                    key={provisionalKey(t.id)}
                    dataKey={provisionalKey(t.id)}
                    name={names.get(t.id)?.provisional ?? t.id}
                    type="stepAfter"
                    stroke={colour(i)}
                    strokeDasharray="5 4"
                    strokeWidth={1.5}
                    dot={false}
                    connectNulls={false}
                    isAnimationActive={false}
                    legendType="plainline"
                  />,
                  <Line
                    key={finalKey(t.id)}
                    dataKey={finalKey(t.id)}
                    name={names.get(t.id)?.final ?? t.id}
                    type="stepAfter"
                    stroke={colour(i)}
                    strokeWidth={t.primary ? 3.5 : 2.5}
                    dot={{ r: 3 }}
                    connectNulls={false}
                    isAnimationActive={false}
                  />,
                ],
          )}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

function PositionsChart({
  course,
  thread,
  onOpen,
}: {
  course: DebateCourse;
  thread: CourseThread;
  onOpen: (m: number) => void;
}) {
  const colours = useThemeColours(VARS);
  const rows = useMemo(() => positionRows(thread, course.messages), [thread, course.messages]);
  const names = new Map(course.agents.map((a) => [a.id, a.name]));
  // Each line in its persona's colour, as in the debate and on the map (never the green and red of
  // YES/NO, which this chart's axis is about); a change of theme redraws it (useThemeColours).
  const persona = new Map(course.agents.map((a) => [a.id, a.persona ?? a.id]));
  const colourOf = personaColours(course.agents.map((a) => a.persona ?? a.id));
  const dark = document.documentElement.dataset.theme === 'dark';
  const colour = (agent: string) => forTheme(colourOf(persona.get(agent) ?? agent), dark);
  const sideOf = (v: number) => (v > 0 ? `YES ${v.toFixed(2)}` : v < 0 ? `NO ${(-v).toFixed(2)}` : 'UNCERTAIN');
  return (
    <div className="chart" data-testid="positions-chart" data-lines={thread.positions.length}>
      <p className="small">
        <strong>{thread.question ?? thread.topic}</strong>{' '}
        <PlainCode code={thread.status} tone={threadTone(thread.status)} testId="thread-status" />
      </p>
      <ResponsiveContainer width="100%" height={280}>
        <LineChart
          data={rows}
          margin={{ top: 20, right: 40, bottom: 4, left: 0 }}
          onClick={(state) => {
            const m = clickedIndex(state);
            if (m !== null) onOpen(m);
          }}
        >
          <CartesianGrid stroke={colours['--border']} strokeDasharray="3 3" />
          <XAxis dataKey="index" type="number" domain={['dataMin', 'dataMax']} stroke={colours['--fg-muted']} />
          <YAxis
            domain={[-1, 1]}
            ticks={[-1, -0.5, 0, 0.5, 1]}
            tickFormatter={(v: number) => (v === 0 ? '?' : v > 0 ? `YES ${v}` : `NO ${-v}`)}
            stroke={colours['--fg-muted']}
            width={72}
          />
          <ReferenceLine y={0} stroke={colours['--fg-muted']} />
          <Tooltip
            contentStyle={{ fontSize: 12 }}
            labelFormatter={(x) => `after ${messageName(course, x)}`}
            formatter={(v) => (typeof v === 'number' ? sideOf(v) : String(v))}
          />
          <Legend />
          {thread.positions.map((a) => (
            <Line
              key={a.agent}
              dataKey={a.agent}
              name={names.get(a.agent) ?? a.agent}
              type="stepAfter"
              stroke={colour(a.agent)}
              strokeWidth={2}
              dot={{ r: 2 }}
              isAnimationActive={false}
            />
          ))}
          {thread.crystallizedAt !== null && (
            <ReferenceLine
              x={thread.crystallizedAt}
              stroke={colours['--fg-muted']}
              strokeDasharray="4 4"
              label={{ value: 'crystallized', position: 'top', fill: colours['--fg-muted'], fontSize: 11 }}
            />
          )}
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}

/** The same figures as words: each crux, its DCG, when it crystallized, and every agent's last position. */
function CruxTable({ course, id }: { course: DebateCourse; id: string }) {
  const names = new Map(course.agents.map((a) => [a.id, a.name]));
  return (
    <table className="data" aria-label="Cruxes over the debate">
      <thead>
        <tr>
          <th>Thread</th>
          <th>Question</th>
          <th>Status</th>
          <th className="num">DCG</th>
          <th>Crystallized</th>
          <th>Positions</th>
        </tr>
      </thead>
      <tbody>
        {course.threads.map((t) => {
          const last = t.dcgPoints.at(-1);
          return (
            <tr key={t.id}>
              <td>
                {t.id}
                {t.primary && <span className="badge accent">primary</span>}
              </td>
              <td>{t.question ?? <span className="muted">{t.topic}</span>}</td>
              <td>
                <PlainCode code={t.status} tone={threadTone(t.status)} testId="thread-status" />
                {t.crystallizedAt !== null && (t.validated ? ' validated' : ' not validated')}
              </td>
              <td className="num">
                {t.dcg !== null ? two(t.dcg) : last ? <span className="muted">{two(last.score)} so far</span> : '—'}
              </td>
              <td>
                {t.crystallizedAt !== null ? (
                  <a href={href('transcript', 'debate', id, { m: messageName(course, t.crystallizedAt) })}>
                    after {messageName(course, t.crystallizedAt)}
                  </a>
                ) : (
                  <span className="muted">not yet</span>
                )}
              </td>
              <td className="small">
                {t.positions
                  .map((a) => {
                    const p = a.points.at(-1);
                    return p
                      ? `${names.get(a.agent) ?? a.agent} ${p.side}${p.confidence === null ? '' : ` ${two(p.confidence)}`}`
                      : '';
                  })
                  .filter(Boolean)
                  .join(' · ')}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

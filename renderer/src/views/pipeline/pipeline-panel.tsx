import { useEffect, useState } from 'react';
import {
  type ChannelInput,
  PIPELINE_STEPS,
  type PipelineStatusView,
  type PipelineStep,
  STEP_NAMES,
} from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { href } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import './pipeline-panel.css';

const usd = (n: number) => `$${n.toFixed(4)}`;
/** Ideas listed at first (the most recently active); the rest on request. */
const FIRST_IDEAS = 12;

const STEP_HINTS: Record<PipelineStep, string> = {
  capture: 'ideas that appear in the folder (a dropped file, a capture, an import) enter the pipeline',
  develop: 'the development agent asks what the idea is missing',
  evaluate: 'a debated evaluation of every criterion',
  redteam:
    'the highest-scored criterion challenged once more; CRITICAL challenges that stand send it back to evaluation',
  classify: 'type, tags and relationships to other ideas',
};

const BADGE: Record<string, string> = {
  done: 'ok',
  running: 'accent',
  held: 'warn',
  approved: 'accent',
  stopped: 'warn',
  failed: 'danger',
  pending: '',
};

/** One idea's pipeline log, oldest first, as its pipeline.md says it (reloaded when it grows). */
function IdeaLog({ slug }: { slug: string }) {
  const log = useChannel('pipeline:log', { slug });
  usePush('pipelinerun:changed', (p) => {
    if (p.slug === slug) log.reload();
  });
  if (log.error) return <ErrorNotice error={log.error} />;
  if (!log.data) return <p className="muted small">Loading the log…</p>;
  return (
    <ol className="pipeline-log small" aria-label={`Pipeline log of ${slug}`}>
      {log.data.entries.map((e) => (
        <li key={`${e.at}-${e.step}-${e.event}`} data-event={`${e.step}:${e.event}`}>
          <time dateTime={e.at}>{new Date(e.at).toLocaleString()}</time> <strong>{STEP_NAMES[e.step]}</strong>{' '}
          <span className={`badge ${BADGE[e.event === 'skipped' || e.event === 'enrolled' ? 'done' : e.event] ?? ''}`}>
            {e.event}
          </span>{' '}
          <span className="num">{usd(e.costUsd)}</span> {e.note}
        </li>
      ))}
      <li className="muted">
        The file: <code>{log.data.path}</code>
      </li>
    </ol>
  );
}

function BudgetInput({ value, onSave }: { value: number; onSave: (usd: number) => void }) {
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  const commit = () => {
    const n = Number(text);
    if (text.trim() !== '' && Number.isFinite(n) && n >= 0 && n !== value) onSave(n);
    else setText(String(value));
  };
  return (
    <label>
      Daily budget (US$)
      <input
        type="number"
        min={0}
        step={0.5}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit();
        }}
        className="pipeline-budget"
      />
    </label>
  );
}

/**
 * The pipeline that runs itself (docs/pipeline.md), above the board: its steps switched on or off
 * with each one's cost preview, the daily budget and today's spend, run and stop, the evaluations
 * held in the review gate with their CRITICAL challenges, and each idea's log.
 */
export function PipelinePanel() {
  const client = useClient();
  const status = useChannel('pipeline:status', {});
  const [shown, setShown] = useState<PipelineStatusView | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [all, setAll] = useState(false);
  useEffect(() => {
    if (status.data) setShown(status.data);
  }, [status.data]);
  usePush('pipelinerun:changed', () => status.reload());

  const act = useAction(
    async <C extends 'pipeline:configure' | 'pipeline:run' | 'pipeline:stop' | 'pipeline:approve'>(
      channel: C,
      input: ChannelInput<C>,
    ) => {
      setShown((await client.invoke(channel, input as never)) as PipelineStatusView);
    },
  );
  /** A switch shows its new position at once; the answer (or a reload after an error) then rules. */
  const configure = (patch: ChannelInput<'pipeline:configure'>) => {
    setShown((now) =>
      now
        ? {
            ...now,
            settings: {
              ...now.settings,
              ...(patch.reviewGate !== undefined ? { reviewGate: patch.reviewGate } : {}),
              ...(patch.evaluationMode !== undefined ? { evaluationMode: patch.evaluationMode } : {}),
              ...(patch.dailyBudgetUsd !== undefined ? { dailyBudgetUsd: patch.dailyBudgetUsd } : {}),
              steps: { ...now.settings.steps, ...patch.steps },
            },
          }
        : now,
    );
    void act.run('pipeline:configure', patch).then(() => status.reload());
  };

  const s = shown;
  if (!s) return status.error ? <ErrorNotice error={status.error} /> : null;
  const spentShare = s.settings.dailyBudgetUsd > 0 ? Math.min(1, s.spentTodayUsd / s.settings.dailyBudgetUsd) : 1;
  const ideas = all ? s.ideas : s.ideas.slice(0, FIRST_IDEAS);
  return (
    <section className="card pipeline-panel stack" aria-labelledby="pipeline-auto" data-testid="pipeline-panel">
      <div className="row">
        <h2 id="pipeline-auto">Runs by itself</h2>
        <span className={`badge ${s.running ? 'ok' : ''}`} data-testid="pipeline-state">
          {s.running ? 'running' : 'stopped'}
        </span>
        {s.running ? (
          <button
            type="button"
            className="danger"
            onClick={() => void act.run('pipeline:stop', {})}
            disabled={act.running}
          >
            Stop
          </button>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={() => void act.run('pipeline:run', { slugs: [] })}
            disabled={act.running}
          >
            Run
          </button>
        )}
        <span className="small" data-testid="pipeline-spend">
          Today ({s.today}): {usd(s.spentTodayUsd)} of {usd(s.settings.dailyBudgetUsd)} spent
        </span>
        <span className="progress pipeline-spend-bar" aria-hidden="true">
          <div style={{ width: `${Math.round(spentShare * 100)}%` }} />
        </span>
        {s.current && (
          <span className="small" role="status">
            Now: {STEP_NAMES[s.current.step]} of <a href={href('idea', s.current.slug)}>{s.current.title}</a>
            {s.current.evaluationId && (
              <>
                {' '}
                (<a href={href('evaluation', s.current.evaluationId)}>watch</a>)
              </>
            )}
          </span>
        )}
        {s.performer && !s.performer.here && (
          <span className="muted small">performed by another process ({s.performer.pid})</span>
        )}
      </div>
      <ErrorNotice error={act.error} onDismiss={act.clearError} />
      <fieldset className="pipeline-steps">
        <legend className="small muted">
          Steps, in order, on {s.provider} ({s.file}); each with its cost preview
        </legend>
        {PIPELINE_STEPS.map((step) => {
          const estimate = step === 'capture' ? null : s.estimates[step];
          return (
            <label key={step} className="pipeline-step" title={STEP_HINTS[step]}>
              <input
                type="checkbox"
                checked={s.settings.steps[step]}
                onChange={(e) => configure({ steps: { [step]: e.target.checked } })}
              />
              <span>{STEP_NAMES[step]}</span>
              <span className="muted small" data-testid={`preview-${step}`}>
                {estimate
                  ? `~${usd(estimate.usd)} · ≤ ${usd(estimate.worstUsd)} · ${Math.round(estimate.calls)} call${Math.round(estimate.calls) === 1 ? '' : 's'}`
                  : 'free'}
              </span>
            </label>
          );
        })}
      </fieldset>
      <div className="row small">
        <BudgetInput value={s.settings.dailyBudgetUsd} onSave={(n) => configure({ dailyBudgetUsd: n })} />
        <label title="An evaluation that raised CRITICAL challenges waits for you before it locks">
          <input
            type="checkbox"
            checked={s.settings.reviewGate}
            onChange={(e) => configure({ reviewGate: e.target.checked })}
          />
          Review gate for CRITICAL challenges
        </label>
        <label>
          Evaluation mode
          <select
            value={s.settings.evaluationMode}
            onChange={(e) =>
              configure({ evaluationMode: e.target.value as PipelineStatusView['settings']['evaluationMode'] })
            }
          >
            <option value="quick">quick</option>
            <option value="standard">standard</option>
            <option value="deep">deep</option>
          </select>
        </label>
      </div>
      {s.problems.map((p) => (
        <p key={p} className="small pipeline-problem">
          <code>{p}</code>
        </p>
      ))}
      {s.refused.map((r) => (
        <p key={`${r.slug}-${r.step}`} className="small pipeline-refused" role="alert">
          {r.message}
        </p>
      ))}
      {s.halted.map((h) => (
        <p key={`${h.slug}-${h.step}`} className="small pipeline-refused">
          <a href={href('idea', h.slug)}>{h.title}</a>: {h.message}
        </p>
      ))}
      {s.waiting.map((w) => (
        <section key={w.evaluationId} className="pipeline-gate card" aria-label={`Review gate: ${w.title}`}>
          <div className="row">
            <strong>Review gate</strong>
            <a href={href('idea', w.slug)}>{w.title}</a>
            <span className="muted small">
              {STEP_NAMES[w.step]}, evaluation <a href={href('evaluation', w.evaluationId)}>{w.evaluationId}</a>:{' '}
              {w.critical.length} CRITICAL challenge{w.critical.length === 1 ? '' : 's'} to see before it locks
              {w.heldAt !== 'review' &&
                ` (its ${w.heldAt} ran out: approved, it locks from its figures, with no further call)`}
            </span>
            <button
              type="button"
              className="primary"
              disabled={act.running}
              onClick={() => void act.run('pipeline:approve', { slug: w.slug, evaluationId: w.evaluationId })}
            >
              Approve and let it lock
            </button>
          </div>
          <ul className="small">
            {w.critical.map((c) => (
              <li key={c.id}>
                <span className="badge danger">CRITICAL</span> <strong>{c.criterion}</strong> ({c.persona};{' '}
                {c.winner === null
                  ? 'not ruled'
                  : c.winner === 'EVALUATOR'
                    ? 'defended'
                    : c.winner === 'DRAW'
                      ? 'a draw'
                      : 'the red team won'}
                ): {c.challenge}
              </li>
            ))}
          </ul>
        </section>
      ))}
      {s.ideas.length === 0 ? (
        <p className="muted small">
          No idea has entered the pipeline yet. With capture on, a file dropped in the library (or into the folder)
          enters it.
        </p>
      ) : (
        <table className="data pipeline-ideas small">
          <thead>
            <tr>
              <th>Idea</th>
              {PIPELINE_STEPS.map((step) => (
                <th key={step}>{STEP_NAMES[step]}</th>
              ))}
              <th className="num">Cost</th>
              <th>Last</th>
            </tr>
          </thead>
          <tbody>
            {ideas.map((i) => (
              <IdeaRow
                key={i.slug}
                idea={i}
                open={open === i.slug}
                onToggle={() => setOpen(open === i.slug ? null : i.slug)}
              />
            ))}
          </tbody>
        </table>
      )}
      {s.ideas.length > FIRST_IDEAS && !all && (
        <button type="button" className="link small" onClick={() => setAll(true)}>
          Show all {s.ideas.length} ideas in the pipeline
        </button>
      )}
    </section>
  );
}

function IdeaRow({
  idea,
  open,
  onToggle,
}: {
  idea: PipelineStatusView['ideas'][number];
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <>
      <tr data-slug={idea.slug}>
        <td>
          <a href={href('idea', idea.slug)}>{idea.title}</a>
        </td>
        {PIPELINE_STEPS.map((step) => (
          <td key={step} data-step={step}>
            <span className={`badge ${BADGE[idea.steps[step]] ?? ''}`}>{idea.steps[step]}</span>
          </td>
        ))}
        <td className="num">{usd(idea.costUsd)}</td>
        <td>
          {idea.last && (
            <span className="muted">
              {STEP_NAMES[idea.last.step]} {idea.last.event}{' '}
            </span>
          )}
          <button type="button" className="link" aria-expanded={open} onClick={onToggle}>
            {open ? 'Hide log' : 'Log'}
          </button>
        </td>
      </tr>
      {open && (
        <tr>
          <td colSpan={PIPELINE_STEPS.length + 3}>
            <IdeaLog slug={idea.slug} />
          </td>
        </tr>
      )}
    </>
  );
}

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { RunStatusView } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { useAction, useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, type Route } from '../../router';
import { ErrorNotice } from '../../ui/error-notice';
import { Help } from '../../ui/help';
import { personaColours } from '../../ui/persona-colour';
import { DebatesPanel } from '../idea/debates-panel';
import { columnsFrom } from './columns';
import { CostMeter } from './cost-meter';
import { ENDED, statusBadge } from './format';
import { BaselineCard } from './baseline-card';
import { BaselineOffer } from './baseline-offer';
import { OutcomeCard } from './outcome-card';
import { type Draft, ThreadColumn } from './thread-column';
import { useDebateEvents } from './use-debate-events';
import './debate-view.css';

/** How often, at most, the progress (budgets, meter) is asked again while events stream in. */
const PROGRESS_EVERY_MS = 600;

/**
 * A crux debate as it happens (`#/debate/<id>`): one column per thread, streamed from the debate's
 * events; the meter and each thread's budgets from `debates:progress`, asked again as events
 * arrive; pause, resume and stop. `#/debate?idea=<slug>` offers to start one about an idea.
 */
export function DebateView({ route }: { route: Route }) {
  const id = route.params[0];
  if (!id) {
    const idea = route.query.get('idea');
    return (
      <section className="view">
        <h1>Crux debates</h1>
        {idea ? (
          <DebatesPanel slug={idea} />
        ) : (
          <p>
            Open an idea and start a crux debate from its page, or read past debates under{' '}
            <a href={href('transcripts')}>Transcripts</a>.
          </p>
        )}
      </section>
    );
  }
  return <LiveDebate key={id} id={id} />;
}

function LiveDebate({ id }: { id: string }) {
  const client = useClient();
  const detail = useChannel('debates:get', { id });
  const progress = useChannel('debates:progress', { id });
  const { events, error: streamError, catchUp } = useDebateEvents(id);
  const [confirmStop, setConfirmStop] = useState(false);

  // Progress follows the events, at most every PROGRESS_EVERY_MS.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reloadProgress = progress.reload;
  const refresh = useCallback(() => {
    if (pending.current) return;
    pending.current = setTimeout(() => {
      pending.current = null;
      reloadProgress();
    }, PROGRESS_EVERY_MS);
  }, [reloadProgress]);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  useEffect(() => {
    if (events.length > 0) refresh();
  }, [events.length, refresh]);
  // The log holds more than the stream delivered (a push lost on the way): read the rest.
  useEffect(() => {
    if (progress.data && progress.data.events > events.length) catchUp();
  }, [progress.data, events.length, catchUp]);

  // Turns being written, by thread, then agent; a draft goes when its message lands or its turn fails.
  const [drafts, setDrafts] = useState<ReadonlyMap<string, ReadonlyMap<string, Draft>>>(new Map());
  usePush('debate:draft', (payload) => {
    if (payload.debateId !== id) return;
    setDrafts((all) => {
      const next = new Map(all);
      const inThread = new Map(next.get(payload.thread));
      if (payload.content === null) inThread.delete(payload.agent);
      else inThread.set(payload.agent, { agent: payload.agent, move: payload.move, content: payload.content });
      next.set(payload.thread, inThread);
      return next;
    });
  });

  // Its status as last pushed: every change of it is, the moment the log records it (a pause when
  // the calls in flight return), so the badge and buttons follow it without asking again.
  const [pushed, setPushed] = useState<{ status: RunStatusView; live: boolean } | null>(null);
  usePush('run:status', (payload) => {
    if (payload.id !== id) return;
    setPushed({ status: payload.status, live: payload.live });
    if (payload.status !== 'running') setDrafts(new Map());
    reloadProgress();
    if (ENDED.has(payload.status)) detail.reload();
  });

  const maxMessages = progress.data?.meter.maxMessages;
  const header = detail.data?.header;
  // One list while the header stays the same, so the notes below are not folded again every render.
  const agents = useMemo(() => header?.agents ?? [], [header]);
  const agentName = useCallback((a: string) => agents.find((x) => x.id === a)?.name ?? a, [agents]);
  // The notes name debaters as the columns do, and a failed lock attempt out of how many it may make.
  const configured = header?.config?.maxLockAttempts;
  const maxLockAttempts =
    progress.data?.threads[0]?.maxLockAttempts ?? (typeof configured === 'number' ? configured : undefined);
  const model = useMemo(
    () => columnsFrom(events, { agentName, ...(maxLockAttempts ? { maxLockAttempts } : {}) }),
    [events, agentName, maxLockAttempts],
  );
  // The header and the meter count the same thing, accepted messages, and show the same figure: the
  // newer of the events' fold and the meter's own count (which is read less often).
  const accepted = Math.max(model.posted, progress.data?.meter.messages ?? 0);
  // A persona's colour comes from its id, the same in every debate (an agent is a persona); two
  // personas of this debate that would share one are told apart (personaColours).
  const agentColour = useMemo(() => {
    const personaOf = (a: string) => agents.find((x) => x.id === a)?.persona ?? a;
    const colour = personaColours(agents.map((x) => x.persona ?? x.id));
    return (a: string) => colour(personaOf(a));
  }, [agents]);

  const status = pushed?.status ?? progress.data?.status ?? detail.data?.status ?? 'running';
  const live = pushed?.live ?? progress.data?.live ?? detail.data?.live ?? false;
  const canPause = status === 'running' && live;
  const canResume = status === 'paused' || (status === 'running' && !live);
  const canStop = !ENDED.has(status);
  const act = useAction(async (what: 'debates:pause' | 'debates:resume' | 'debates:cancel') => {
    await client.invoke(what, { id });
    setConfirmStop(false);
    reloadProgress();
  });

  const commands = useMemo<Command[]>(
    () => [
      ...(canPause
        ? [{ id: 'debate:pause', title: 'Pause this debate', group: 'Debate', run: () => act.run('debates:pause') }]
        : []),
      ...(canResume
        ? [{ id: 'debate:resume', title: 'Resume this debate', group: 'Debate', run: () => act.run('debates:resume') }]
        : []),
      ...(canStop
        ? [{ id: 'debate:stop', title: 'Stop this debate for good', group: 'Debate', run: () => setConfirmStop(true) }]
        : []),
      {
        id: 'debate:map',
        title: 'Open this debate’s crux map',
        group: 'Debate',
        run: () => navigate(href('crux-map', id)),
      },
      {
        id: 'debate:transcript',
        title: 'Read this debate’s transcript',
        group: 'Debate',
        run: () => navigate(href('transcript', 'debate', id)),
      },
      {
        id: 'debate:course',
        title: 'Chart this debate’s DCG and positions',
        group: 'Debate',
        run: () => navigate(href('convergence', 'debate', id)),
      },
    ],
    [canPause, canResume, canStop, act.run, id],
  );
  useCommands('debate-view', commands);

  const badge = statusBadge(status, live);
  const threadProgress = new Map((progress.data?.threads ?? []).map((t) => [t.id, t]));
  return (
    <section className="view debate-view" aria-busy={status === 'running' && live}>
      <header className="debate-head">
        <div className="stack" style={{ gap: 4, minWidth: 0 }}>
          <h1>{header?.topic ?? 'Debate'}</h1>
          <div className="row small">
            <span className={`badge ${badge.tone}`} data-testid="debate-status">
              {badge.label}
            </span>
            {header?.ideaSlug && <a href={href('idea', header.ideaSlug)}>the idea</a>}
            <a href={href('crux-map', id)}>crux map</a>
            <a href={href('transcript', 'debate', id)}>transcript</a>
            <a href={href('convergence', 'debate', id)}>DCG and positions</a>
            {header && <span className="muted">{header.provider === 'simulated' ? 'simulated' : header.provider}</span>}
            <span
              className="muted"
              data-testid="posted"
              title="Accepted agent messages; refused moves and the moderator's notes are not counted. The meter below counts the same."
            >
              {maxMessages === undefined ? `${accepted} messages` : `${accepted} of ${maxMessages} messages`}
            </span>
          </div>
          {progress.data?.reason && <div className="small muted">Stopped: {progress.data.reason}</div>}
        </div>
        <div className="row debate-controls">
          {canPause && (
            <button type="button" onClick={() => act.run('debates:pause')} disabled={act.running}>
              Pause
            </button>
          )}
          {canResume && (
            <button type="button" className="primary" onClick={() => act.run('debates:resume')} disabled={act.running}>
              Resume
            </button>
          )}
          {canStop &&
            (confirmStop ? (
              <>
                <button
                  type="button"
                  className="danger"
                  onClick={() => act.run('debates:cancel')}
                  disabled={act.running}
                >
                  Stop for good
                </button>
                <button type="button" onClick={() => setConfirmStop(false)}>
                  Keep it
                </button>
              </>
            ) : (
              <button type="button" className="danger" onClick={() => setConfirmStop(true)}>
                Stop
              </button>
            ))}
        </div>
        {progress.data && <CostMeter meter={progress.data.meter} posted={accepted} />}
      </header>
      <ErrorNotice error={detail.error ?? progress.error ?? streamError} />
      <ErrorNotice error={act.error} onDismiss={act.clearError} />
      {progress.data && progress.data.degradedAgents.length > 0 && (
        <p className="error-notice">
          {progress.data.degradedAgents.map(agentName).join(', ')} kept failing and stopped being asked; the rest of the
          debate rests on the others.
        </p>
      )}
      {model.notes.length > 0 && (
        <ul className="debate-notes small">
          {model.notes.map((n) => (
            <li key={n.key} title={n.title}>
              {n.text}
              {n.term && <Help term={n.term} />}
            </li>
          ))}
        </ul>
      )}
      {ENDED.has(status) && detail.data && (
        <OutcomeCard
          debateId={id}
          result={detail.data.result}
          agentName={agentName}
          agentColour={agentColour}
          debaters={agents.length}
        />
      )}
      {ENDED.has(status) && detail.data?.baseline && (
        <BaselineCard baseline={detail.data.baseline} agentName={agentName} agentColour={agentColour} />
      )}
      {ENDED.has(status) && detail.data && !detail.data.baseline && (
        <BaselineOffer debateId={id} provider={detail.data.header.provider} onDone={detail.reload} />
      )}
      <div className="debate-columns">
        {model.columns.map((column) => (
          <ThreadColumn
            key={column.id}
            debateId={id}
            column={column}
            progress={threadProgress.get(column.id)}
            drafts={[...(drafts.get(column.id)?.values() ?? [])]}
            agentName={agentName}
            agentColour={agentColour}
          />
        ))}
        {model.columns.length === 0 && !streamError && <p className="muted">Waiting for the first messages…</p>}
      </div>
    </section>
  );
}

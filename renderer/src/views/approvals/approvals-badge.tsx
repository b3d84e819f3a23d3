import { useEffect, useMemo, useState } from 'react';
import { useChannel, usePush } from '../../api/hooks';
import { type Command, useCommands } from '../../commands';
import { href, navigate, useRoute } from '../../router';
import './approvals.css';

// The approvals inbox seen from everywhere: the count on the rail, a notification when a proposal
// starts waiting, and the palette's way in. Loaded with the window (small: no view code).

/** How many council proposals wait for the researcher: asked once, then kept by `proposal:changed`. */
export function useWaitingCount(): number {
  const asked = useChannel('council:approvals', {});
  const [pushed, setPushed] = useState<number | null>(null);
  usePush('proposal:changed', (p) => setPushed(p.waiting));
  return pushed ?? asked.data?.proposals.length ?? 0;
}

/** The count beside "Approvals" on the rail; nothing when nothing waits. */
export function ApprovalsBadge() {
  const waiting = useWaitingCount();
  if (waiting === 0) return null;
  return (
    <span className="badge warn rail-badge" data-testid="approvals-badge" title={`${waiting} waiting for you`}>
      {waiting}
      <span className="visually-hidden"> waiting for you</span>
    </span>
  );
}

interface Waiting {
  id: string;
  task: string;
  stakes: string;
}

/**
 * A notice at the window's corner when a council proposal starts waiting for the researcher (once
 * per proposal, once its task stands still), a system notification too when the window is in the
 * background and notifications are allowed, and the palette's commands for the inbox.
 */
export function ApprovalsNotifier() {
  const waiting = useWaitingCount();
  const [shown, setShown] = useState<Waiting[]>([]);
  const [told] = useState(() => new Set<string>());
  usePush('proposal:changed', (p) => {
    if (p.status !== 'AWAITING_RESEARCHER' || p.taskLive || told.has(p.id)) return;
    told.add(p.id);
    setShown((list) => [...list, { id: p.id, task: p.task, stakes: p.stakes }]);
    if (typeof Notification !== 'undefined' && Notification.permission === 'granted' && document.hidden)
      new Notification('A council proposal waits for you', { body: p.task, tag: p.id });
  });
  // A proposal decided elsewhere (another window, the CLI) takes its notice with it.
  usePush('proposal:changed', (p) => {
    if (p.status !== 'AWAITING_RESEARCHER') setShown((list) => list.filter((w) => w.id !== p.id));
  });
  useEffect(() => {
    if (waiting === 0) setShown([]);
  }, [waiting]);

  const commands = useMemo<Command[]>(
    () => [
      {
        id: 'action:approvals',
        title: waiting > 0 ? `Approvals inbox (${waiting} waiting for you)` : 'Approvals inbox (nothing waits)',
        group: 'Council',
        keywords: 'approve reject inbox council waiting researcher proposal',
        run: () => navigate(href('approvals')),
      },
      {
        id: 'action:council-task',
        title: 'Give the council a task',
        group: 'Council',
        keywords: 'council executor verifier integrator task agents act',
        run: () => navigate(href('council', { start: 1 })),
      },
    ],
    [waiting],
  );
  useCommands('approvals', commands);

  // In the inbox itself the list is the notice.
  const inInbox = useRoute().view === 'approvals';
  if (shown.length === 0 || inInbox) return null;
  const last = shown[shown.length - 1] as Waiting;
  return (
    <div className="approval-toast card" role="status" aria-live="polite" data-testid="approval-toast">
      <strong>
        {shown.length === 1 ? 'A council proposal waits for you' : `${shown.length} council proposals wait for you`}
      </strong>
      <span className="small">
        {last.task} <span className="muted">({last.stakes} stakes)</span>
      </span>
      <div className="row">
        <a className="button primary" href={href('approvals')} onClick={() => setShown([])}>
          Open the inbox
        </a>
        <button type="button" className="link" onClick={() => setShown([])} aria-label="Dismiss the notice">
          Dismiss
        </button>
      </div>
    </div>
  );
}

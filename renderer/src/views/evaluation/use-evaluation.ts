import { useCallback, useEffect, useRef, useState } from 'react';
import type { EvaluationDetail } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { usePush } from '../../api/hooks';

/** How long a burst of pushes waits before the whole record is read again. */
const RELOAD_MS = 350;

/**
 * One evaluation, read once and then followed live: each `evaluation:event` appends its entries at
 * once (when it continues the sequence held) and updates the phase, cost and progress; the whole
 * record (scores, challenges, checks) is read again shortly after a burst of events, and at once
 * on a status change (`run:status`, shown at once in the evaluation's words). A gap in the sequence
 * (a missed push) is filled by that read.
 */
export function useEvaluation(id: string | null): {
  detail: EvaluationDetail | null;
  error: unknown;
  reload: () => void;
  /** When the pushes of this view began and how many answers there were then (for the estimate). */
  pace: { sinceMs: number; fromDone: number } | null;
} {
  const client = useClient();
  const [detail, setDetail] = useState<EvaluationDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [pace, setPace] = useState<{ sinceMs: number; fromDone: number } | null>(null);
  const ticket = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const reload = useCallback(() => {
    if (id === null) return;
    const mine = ++ticket.current;
    client.invoke('evaluations:get', { id }).then(
      (fresh) => {
        if (mine !== ticket.current) return;
        // Entries pushed after this answer left the main side are kept (the answer never has fewer).
        setDetail((held) =>
          held && held.id === fresh.id && held.entries.length > fresh.entries.length
            ? { ...fresh, entries: held.entries }
            : fresh,
        );
        setError(null);
      },
      (e: unknown) => {
        if (mine === ticket.current) setError(e);
      },
    );
  }, [client, id]);

  const soon = useCallback(() => {
    if (timer.current !== null) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      reload();
    }, RELOAD_MS);
  }, [reload]);

  useEffect(() => {
    setDetail(null);
    setPace(null);
    reload();
    return () => {
      if (timer.current !== null) clearTimeout(timer.current);
      timer.current = null;
    };
  }, [reload]);

  usePush('evaluation:event', (p) => {
    if (p.evaluationId !== id) return;
    setPace((held) => held ?? { sinceMs: Date.now(), fromDone: p.progress.done });
    setDetail((held) => {
      if (!held) return held;
      const fresh = p.entries.slice(Math.max(0, held.entries.length - p.from));
      const entries = p.from <= held.entries.length ? [...held.entries, ...fresh] : held.entries;
      return {
        ...held,
        // Events come from a run this app drives (a stop asked stays asked until its status says).
        status: 'running',
        live: true,
        phase: p.phase,
        round: p.round,
        costUsd: p.costUsd,
        budgetUsd: p.budgetUsd,
        progress: p.progress,
        entries,
      };
    });
    soon();
  });

  usePush('run:status', (p) => {
    if (p.id !== id) return;
    setDetail((held) =>
      held ? { ...held, status: p.status, live: p.live, stopRequested: p.stopRequested } : held,
    );
    reload();
  });

  return { detail, error, reload, pace };
}

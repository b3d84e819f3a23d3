import { useCallback, useEffect, useRef, useState } from 'react';
import type { ArenaDetail } from '../../../../core/contract';
import { useClient } from '../../api/client';
import { usePush } from '../../api/hooks';

/**
 * One arena, read from its log and followed while it runs: read again on `run:progress` (answers
 * applied) and on `run:status` (shown at once), never on a timer; the view keeps the answer it has
 * when the log has not grown.
 */
export function useArena(id: string): { detail: ArenaDetail | null; error: unknown; reload: () => void } {
  const client = useClient();
  const [detail, setDetail] = useState<ArenaDetail | null>(null);
  const [error, setError] = useState<unknown>(null);
  const ticket = useRef(0);

  const reload = useCallback(() => {
    const mine = ++ticket.current;
    client.invoke('arenas:get', { id }).then(
      (fresh) => {
        if (mine !== ticket.current) return;
        setDetail((held) =>
          held &&
          held.records === fresh.records &&
          held.status === fresh.status &&
          held.live === fresh.live &&
          held.costUsd === fresh.costUsd
            ? held
            : fresh,
        );
        setError(null);
      },
      (e: unknown) => {
        if (mine === ticket.current) setError(e);
      },
    );
  }, [client, id]);

  useEffect(() => {
    setDetail(null);
    reload();
  }, [reload]);

  usePush('run:progress', (p) => {
    if (p.id === id) reload();
  });

  usePush('run:status', (p) => {
    if (p.id !== id) return;
    setDetail((held) => (held ? { ...held, status: p.status, live: p.live, reason: p.reason } : held));
    reload();
  });

  return { detail, error, reload };
}

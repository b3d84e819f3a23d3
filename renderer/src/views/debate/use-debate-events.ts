import { useCallback, useEffect, useRef, useState } from 'react';
import type { CruxEventView } from '../../../../core/contract';
import { useClient } from '../../api/client';

interface Stream {
  /** Events held: the next one expected is number `have`. */
  have: number;
  ready: boolean;
  fetching: boolean;
  again: boolean;
  buffer: { from: number; events: CruxEventView[] }[];
  all: CruxEventView[];
}

/**
 * A debate's events, caught up from its log and then followed live, with no gap and no repeat:
 * subscribe to `debate:event` first, read `debates:events` from what is held, then keep each pushed
 * event whose number (`from + i`) is the next expected one. A batch that starts past it (a missed
 * push, a dropped connection) makes it read the log again from what it has. `catchUp()` does the
 * same on demand (the view calls it when the progress says the log holds more).
 */
export function useDebateEvents(id: string): { events: CruxEventView[]; error: unknown; catchUp: () => void } {
  const client = useClient();
  const [events, setEvents] = useState<CruxEventView[]>([]);
  const [error, setError] = useState<unknown>(null);
  const catchUpRef = useRef<() => void>(() => {});

  useEffect(() => {
    let alive = true;
    const s: Stream = { have: 0, ready: false, fetching: false, again: false, buffer: [], all: [] };
    setEvents([]);
    setError(null);

    const apply = (from: number, batch: CruxEventView[]): boolean => {
      if (from > s.have) return false; // a gap: the log has to fill it
      const fresh = batch.slice(s.have - from);
      if (fresh.length > 0) {
        s.all = s.all.concat(fresh);
        s.have += fresh.length;
        setEvents(s.all);
      }
      return true;
    };

    const catchUp = async () => {
      if (s.fetching) {
        s.again = true;
        return;
      }
      s.fetching = true;
      try {
        const read = await client.invoke('debates:events', { id, from: s.have });
        if (!alive) return;
        apply(read.from, read.events);
        setError(null);
      } catch (e) {
        if (alive) setError(e);
      } finally {
        s.fetching = false;
        s.ready = true;
      }
      if (!alive) return;
      const held = s.buffer.splice(0);
      let gap = false;
      for (const batch of held) if (!apply(batch.from, batch.events)) gap = true;
      if (gap || s.again) {
        s.again = false;
        void catchUp();
      }
    };
    catchUpRef.current = () => void catchUp();

    const off = client.on('debate:event', (payload) => {
      if (payload.debateId !== id) return;
      if (!s.ready || s.fetching) s.buffer.push({ from: payload.from, events: payload.events });
      else if (!apply(payload.from, payload.events)) void catchUp();
    });
    void catchUp();
    return () => {
      alive = false;
      off();
    };
  }, [client, id]);

  const catchUp = useCallback(() => catchUpRef.current(), []);
  return { events, error, catchUp };
}

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Channel, ChannelInput, ChannelOutput, PushEventName, PushPayload } from '../../../core/contract';
import { useClient } from './client';
import { keptAnswersOf } from './kept-answers';

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  /** Asks again (after a push says the answer changed, or the researcher retries). */
  reload: () => void;
}

/**
 * Calls a channel and keeps its answer; asks again when `key` (by default the input as JSON)
 * changes or `reload()` is called. An answer that arrives after a newer question is dropped.
 * `input === null` means "do not ask yet". An answer the page keeps until the index changes (see
 * KeptAnswers) is drawn from at once, and asked for again only on `reload()`.
 */
export function useChannel<C extends Channel>(
  channel: C,
  input: ChannelInput<C> | null,
  key?: string,
): Loaded<ChannelOutput<C>> {
  const client = useClient();
  const kept = keptAnswersOf(client);
  const inputKey = key ?? JSON.stringify(input);
  const [state, setState] = useState<{ data: ChannelOutput<C> | null; error: unknown; loading: boolean }>(() => {
    const known = input === null ? undefined : kept.get(channel, inputKey);
    return { data: known ?? null, error: null, loading: input !== null && known === undefined };
  });
  const [generation, setGeneration] = useState(0);
  const latest = useRef(0);
  const inputRef = useRef(input);
  inputRef.current = input;

  // biome-ignore lint/correctness/useExhaustiveDependencies: asks again on a new input key or reload
  useEffect(() => {
    const current = inputRef.current;
    if (current === null) return;
    const ticket = ++latest.current;
    // Not a reload: an answer kept since the index last changed is the answer.
    const known = generation === 0 ? kept.get(channel, inputKey) : undefined;
    if (known !== undefined) {
      setState((s) =>
        s.data === known && !s.loading && s.error === null ? s : { data: known, error: null, loading: false },
      );
      return;
    }
    setState((s) => ({ ...s, loading: true }));
    const asked = kept.asked();
    client.invoke(channel, current).then(
      (data) => {
        kept.put(channel, inputKey, data, asked);
        if (ticket === latest.current) setState({ data, error: null, loading: false });
      },
      (error: unknown) => {
        if (ticket === latest.current) setState((s) => ({ data: s.data, error, loading: false }));
      },
    );
  }, [client, channel, inputKey, generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { ...state, reload };
}

/** Listens to a pushed event while the component is mounted. */
export function usePush<E extends PushEventName>(event: E, listener: (payload: PushPayload<E>) => void): void {
  const client = useClient();
  const ref = useRef(listener);
  ref.current = listener;
  useEffect(() => client.on(event, (payload) => ref.current(payload)), [client, event]);
}

/**
 * Runs an action (a channel call the researcher started) and keeps whether it is running and how
 * it failed, so a view can show progress and the error in words.
 */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const ref = useRef(action);
  ref.current = action;
  const run = useCallback(async (...args: A): Promise<R | undefined> => {
    setRunning(true);
    setError(null);
    try {
      return await ref.current(...args);
    } catch (e) {
      setError(e);
      return undefined;
    } finally {
      setRunning(false);
    }
  }, []);
  return { run, running, error, clearError: () => setError(null) };
}

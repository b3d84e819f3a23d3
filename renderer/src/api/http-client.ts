import {
  type ApiClient,
  type Channel,
  type ChannelInput,
  type ChannelOutput,
  ContractError,
  type PushEventName,
  type PushPayload,
  type WireError,
} from '../../../core/contract';

const TOKEN_KEY = 'crucible.token';

/**
 * The session token of browser mode. The address printed by `npm run web` carries it once
 * (`/?token=…`); the page moves it into this tab's session storage and takes it out of the address
 * bar, so it is neither bookmarked nor shown over a shoulder.
 */
export function takeToken(): string | null {
  const url = new URL(window.location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl) {
    sessionStorage.setItem(TOKEN_KEY, fromUrl);
    url.searchParams.delete('token');
    window.history.replaceState(null, '', `${url.pathname}${url.search}${url.hash}`);
    return fromUrl;
  }
  return sessionStorage.getItem(TOKEN_KEY);
}

type Listener = (payload: unknown) => void;

/**
 * The client of browser mode: `POST /rpc/<channel>` with the token as a bearer, and one shared
 * EventSource on `/events` for every pushed event (opened with the first listener, closed with the
 * last). Errors come back as ContractError, whatever went wrong.
 */
export function httpClient(token: string | null, base = ''): ApiClient {
  const listeners = new Map<string, Set<Listener>>();
  let source: EventSource | null = null;

  const ensureSource = (event: string) => {
    if (!source) source = new EventSource(`${base}/events?token=${encodeURIComponent(token ?? '')}`);
    const set = listeners.get(event);
    if (set && set.size === 1) {
      source.addEventListener(event, (message) => {
        let payload: unknown;
        try {
          payload = JSON.parse((message as MessageEvent<string>).data);
        } catch {
          return;
        }
        for (const listener of listeners.get(event) ?? []) listener(payload);
      });
    }
  };

  return {
    async invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
      let response: Response;
      try {
        response = await fetch(`${base}/rpc/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token ?? ''}` },
          body: JSON.stringify(input ?? {}),
        });
      } catch {
        throw new ContractError('internal', 'Crucible’s server cannot be reached: is `npm run web` still running?');
      }
      let body: { ok: true; value: ChannelOutput<C> } | { ok: false; error: WireError };
      try {
        body = await response.json();
      } catch {
        throw new ContractError('internal', `the server answered ${response.status} without a readable body`);
      }
      if (body.ok) return body.value;
      throw ContractError.fromWire(body.error);
    },
    on<E extends PushEventName>(event: E, listener: (payload: PushPayload<E>) => void): () => void {
      let set = listeners.get(event);
      if (!set) {
        set = new Set();
        listeners.set(event, set);
      }
      const known = set.size > 0;
      set.add(listener as Listener);
      if (!known) ensureSource(event);
      return () => {
        set.delete(listener as Listener);
      };
    },
  };
}

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

/** What the desktop shell's preload puts on `window.crucible`, and nothing more. */
export interface PreloadBridge {
  invoke(channel: string, input: unknown): Promise<{ ok: true; value: unknown } | { ok: false; error: WireError }>;
  on(event: string, listener: (payload: unknown) => void): () => void;
  /** The path of a dropped file (Electron's webUtils.getPathForFile); '' when it has none. */
  pathForFile(file: File): string;
}

declare global {
  interface Window {
    crucible?: PreloadBridge;
  }
}

/** The client inside the desktop app: the preload's bridge, with the same error type as browser mode. */
export function electronClient(bridge: PreloadBridge): ApiClient {
  return {
    async invoke<C extends Channel>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
      const answer = await bridge.invoke(channel, input ?? {});
      if (answer.ok) return answer.value as ChannelOutput<C>;
      throw ContractError.fromWire(answer.error);
    },
    on<E extends PushEventName>(event: E, listener: (payload: PushPayload<E>) => void): () => void {
      return bridge.on(event, listener as (payload: unknown) => void);
    },
  };
}

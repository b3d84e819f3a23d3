import type { debateViewChannels } from '../../contract';
import type { AppContext, AreaHandlers } from './app-context';

/** The handlers of the channels in core/contract/debate-view-channels.ts. */
export function debateViewHandlers(ctx: AppContext): AreaHandlers<keyof typeof debateViewChannels> {
  void ctx;
  return { impl: {} };
}

import type { settingsChannels } from '../../contract';
import type { AppContext, AreaHandlers } from './app-context';

/** The handlers of the channels in core/contract/settings-channels.ts. */
export function settingsHandlers(ctx: AppContext): AreaHandlers<keyof typeof settingsChannels> {
  void ctx;
  return { impl: {} };
}

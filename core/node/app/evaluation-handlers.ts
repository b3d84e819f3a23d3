import type { evaluationChannels } from '../../contract';
import type { AppContext, AreaHandlers } from './app-context';

/** The handlers of the channels in core/contract/evaluation-channels.ts. */
export function evaluationHandlers(ctx: AppContext): AreaHandlers<keyof typeof evaluationChannels> {
  void ctx;
  return { impl: {} };
}

import type { taxonomyChannels } from '../../contract';
import type { AppContext, AreaHandlers } from './app-context';
import { taxonomyView } from './views';

/** The handlers of the channels in core/contract/taxonomy-channels.ts: the workspace's taxonomy for the UI. */
export function taxonomyHandlers(ctx: AppContext): AreaHandlers<keyof typeof taxonomyChannels> {
  const { ws, open } = ctx;
  return {
    impl: {
      'taxonomy:get': () => {
        open();
        return taxonomyView(ws.taxonomy);
      },
    },
  };
}

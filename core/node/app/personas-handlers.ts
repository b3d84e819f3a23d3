import type { personasChannels } from '../../contract';
import { loadPersonas } from '../personas/load-personas';
import type { AppContext, AreaHandlers } from './app-context';
import { personaSummary } from './views';

/** The handlers of the channels in core/contract/personas-channels.ts: the built-in and workspace personas. */
export function personasHandlers(ctx: AppContext): AreaHandlers<keyof typeof personasChannels> {
  const { ws, open } = ctx;
  return {
    impl: {
      'personas:list': ({ role }) => {
        open();
        const loaded = loadPersonas(ws.root);
        return {
          personas: loaded.personas
            .filter((p) => role === undefined || p.role === role)
            .map((p) => personaSummary(p, ws.root)),
          errors: loaded.errors.map((e) => ({ file: e.file, reason: e.reason })),
        };
      },
    },
  };
}

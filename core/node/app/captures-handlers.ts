import type { capturesChannels } from '../../contract';
import { needsChoice, offeredPlacements, offersChoice } from '../../capture/choice';
import { CaptureService, type CaptureSource } from '../capture/capture-service';
import type { AppContext, AreaHandlers } from './app-context';
import { ideaSummary } from './views';

/**
 * The handlers of core/contract/captures-channels.ts: a text from the capture box classified against
 * the library (the lexical rule, or a model on the providers of this app), then placed where the
 * researcher chose, through the workspace's safe writes.
 */
export function capturesHandlers(ctx: AppContext): AreaHandlers<keyof typeof capturesChannels> {
  const service = () => new CaptureService(ctx.ws, ctx.providers);
  return {
    impl: {
      'captures:classify': async ({ title, text, provider, seed }) => {
        ctx.open();
        const { classification, costUsd, repairs } = await service().classify(
          { kind: 'text', title, text: text ?? '' },
          { ...(provider ? { provider } : {}), ...(seed !== undefined ? { seed } : {}) },
        );
        return {
          classification: {
            ...classification,
            offered: offeredPlacements(classification),
            needsChoice: needsChoice(classification),
            offersChoice: offersChoice(classification),
          },
          costUsd,
          repairs,
        };
      },
      'captures:place': ({ title, text, as, tags, type, stage }) => {
        ctx.open();
        const source: CaptureSource = {
          kind: 'text',
          title,
          text: text ?? '',
          ...(tags ? { tags } : {}),
          ...(type ? { type } : {}),
          ...(stage ? { stage } : {}),
        };
        const placed = service().place(source, as);
        return {
          placed: placed.placed,
          slug: placed.slug,
          path: placed.path,
          conflict: placed.conflict,
          written: placed.written,
          idea: placed.idea && ideaSummary(placed.idea),
        };
      },
    },
  };
}

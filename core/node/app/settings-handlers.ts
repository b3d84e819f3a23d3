import { KEY_PROVIDERS, MODEL_TABLE_PROVIDERS, type SettingsView, type settingsChannels } from '../../contract';
import { MODELS_FILE } from '../llm/prices-loader';
import type { AppContext, AreaHandlers } from './app-context';
import { KEY_VARIABLES } from './env-key-store';
import type { KeyStore } from './key-store';
import { readModels, writeModels } from './models-settings';
import { DEFAULT_SETTINGS_LIMITS, readSettings, SETTINGS_FILE, writeSettings } from './settings-file';

/**
 * The handlers of the channels in core/contract/settings-channels.ts: the settings as they apply
 * (settings.md over the defaults, models.md over the built-in model table, whether keys are set),
 * changes to them through safe writes, and API keys in the key store.
 */
export function settingsHandlers(ctx: AppContext): AreaHandlers<keyof typeof settingsChannels> {
  const { ws, open } = ctx;
  const keys: KeyStore = ctx.keyStore;

  const view = async (): Promise<SettingsView> => {
    const settings = readSettings(ws.root);
    const models = readModels(ws.root);
    return {
      workspace: ws.root,
      file: SETTINGS_FILE,
      fileExists: settings.exists,
      modelsFile: MODELS_FILE,
      modelsFileExists: models.exists,
      provider: settings.provider,
      models: MODEL_TABLE_PROVIDERS.flatMap((provider) => {
        const p = models.config.providers[provider];
        if (!p) return [];
        return [
          {
            provider,
            tiers: { fast: p.tiers.fast, standard: p.tiers.standard, deep: p.tiers.deep },
            baseUrl: p.baseURL ?? null,
            source: provider in models.own.providers ? ('workspace' as const) : ('built-in' as const),
          },
        ];
      }),
      prices: Object.entries(models.config.prices)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([model, p]) => ({
          model,
          inputPerMTok: p.inputPerMTok,
          outputPerMTok: p.outputPerMTok,
          cacheWritePerMTok: p.cacheWritePerMTok,
          cacheReadPerMTok: p.cacheReadPerMTok,
          source: model in models.own.prices ? ('workspace' as const) : ('built-in' as const),
        })),
      limits: settings.limits,
      simulatedPace: settings.simulatedPace,
      defaults: { ...DEFAULT_SETTINGS_LIMITS },
      keys: await Promise.all(
        KEY_PROVIDERS.map(async (provider) => ({
          provider,
          set: await keys.has(provider),
          variable: KEY_VARIABLES[provider] as string,
        })),
      ),
      keyStore: await keys.describe(),
      problems: [...settings.problems, ...models.problems],
    };
  };

  return {
    impl: {
      'settings:get': async () => {
        open();
        return view();
      },
      'settings:set': async (input) => {
        open();
        const { openaiBaseUrl, tiers, prices, removePrices, ...rest } = input;
        // models.md first: it is the one that can refuse (a tier naming an unpriced model), and then
        // nothing at all is written.
        const outcomes = [
          writeModels(ws.root, {
            ...(openaiBaseUrl !== undefined ? { openaiBaseUrl } : {}),
            ...(tiers ? { tiers } : {}),
            ...(prices ? { prices } : {}),
            ...(removePrices ? { removePrices } : {}),
          }),
          writeSettings(ws.root, rest),
        ].filter((o) => o !== null);
        return {
          settings: await view(),
          written: outcomes.map((o) => ({ path: o.path, conflict: o.conflict })),
        };
      },
      'settings:setKey': async ({ provider, key }) => {
        open();
        await keys.set(provider, key);
        await ctx.refreshKeys();
        return { provider, set: await keys.has(provider) };
      },
      'settings:clearKey': async ({ provider }) => {
        open();
        await keys.clear(provider);
        await ctx.refreshKeys();
        return { provider, set: await keys.has(provider) };
      },
    },
  };
}

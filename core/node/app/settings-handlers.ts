import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DevelopmentView,
  KEY_PROVIDERS,
  MODEL_TABLE_PROVIDERS,
  type SettingsView,
  type settingsChannels,
} from '../../contract';
import type { DevelopmentResult } from '../evaluations/development-service';
import { DevelopmentService } from '../evaluations/development-service';
import { exportDocument } from '../export/export-document';
import { LinkRefusedError, readInside } from '../fs/read-inside';
import { ideaFile } from '../../idea/layout';
import { MODELS_FILE } from '../llm/prices-loader';
import { allRelationships, ideaFiles } from '../sqlite/index-sql';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { KEY_VARIABLES } from './env-key-store';
import type { KeyStore } from './key-store';
import { readModels, writeModels } from './models-settings';
import { DEFAULT_SETTINGS_LIMITS, readSettings, SETTINGS_FILE, writeSettings } from './settings-file';

/** The largest part of an idea file `ideas:file` hands back (the page shows text, not archives). */
const FILE_TEXT_LIMIT = 512 * 1024;
const TEXT_FILE = /\.(md|markdown|txt)$/i;

const MIME: Record<'md' | 'html' | 'pdf', string> = {
  md: 'text/markdown;charset=utf-8',
  html: 'text/html;charset=utf-8',
  pdf: 'application/pdf',
};

function developmentView(result: DevelopmentResult): DevelopmentView {
  return {
    questions: result.questions.map((q) => ({
      number: q.number,
      question: q.question,
      asked: q.asked,
      source: q.source,
      gap: q.gap,
      answer: q.answer,
    })),
    added: result.added,
    path: result.path,
    conflict: result.conflict,
  };
}

/** A file name safe on every system, from an idea slug or a debate id. */
function fileStem(id: string): string {
  return id.replace(/[^\p{L}\p{N}._-]+/gu, '-').replace(/^[-.]+|-+$/g, '') || 'export';
}

/** The handlers of the channels in core/contract/settings-channels.ts. */
export function settingsHandlers(ctx: AppContext): AreaHandlers<keyof typeof settingsChannels> {
  const { ws, open } = ctx;
  const keys: KeyStore = ctx.keyStore;
  /** The development calls running now, by idea, so that one can be cancelled. */
  const asking = new Map<string, AbortController>();
  /** The exports running now, by document and format, so that one can be cancelled. */
  const exporting = new Map<string, AbortController>();
  const exportKey = (source: string, id: string, format: string) => `${source}\u0000${id}\u0000${format}`;

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

  const development = () => new DevelopmentService(ws, ctx.providers);

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

      'export:document': async ({ source, id, format }) => {
        open();
        const fileName = `${fileStem(id)}-${source}.${format}`;
        // exportDocument writes a file (the CLI's way); here it goes to a private temp folder and
        // comes back as content, so nothing lands in the workspace and the page picks where it goes.
        const key = exportKey(source, id, format);
        if (exporting.has(key)) throw new UserError(`${fileName} is already being exported`);
        const controller = new AbortController();
        exporting.set(key, controller);
        const dir = mkdtempSync(join(tmpdir(), 'crucible-export-'));
        try {
          const out = join(dir, fileName);
          await exportDocument(ws, source === 'synthesis' ? { slug: id } : { debate: id }, format, out, {
            printPdf: ctx.options.printPdf,
            signal: controller.signal,
          });
          const bytes = readFileSync(out);
          return {
            fileName,
            mimeType: MIME[format],
            encoding: format === 'pdf' ? ('base64' as const) : ('utf8' as const),
            content: format === 'pdf' ? bytes.toString('base64') : bytes.toString('utf8'),
            bytes: bytes.length,
          };
        } finally {
          exporting.delete(key);
          rmSync(dir, { recursive: true, force: true });
        }
      },
      'export:cancel': ({ source, id, format }) => {
        const controller = exporting.get(exportKey(source, id, format));
        controller?.abort();
        return { cancelled: controller !== undefined };
      },

      'ideas:file': ({ slug, path }) => {
        open();
        ws.show(slug); // an unknown idea is a user error naming it
        // Only a file the index lists for this idea: the path is looked up, never joined blindly.
        const file = ideaFiles(ws.db, slug).find((f) => f.path === path);
        if (!file) throw new UserError(`path: "${path}" is not a file of the idea "${slug}"`);
        if (!TEXT_FILE.test(file.path)) throw new UserError(`path: "${path}" is not a text file (.md or .txt)`);
        // Served only as the sync's link rule allows: never through a link, never from outside.
        let bytes: Buffer;
        try {
          bytes = readInside(ws.root, file.path);
        } catch (error) {
          if (error instanceof LinkRefusedError) {
            throw new UserError(`path: "${path}" is a symbolic link; Crucible does not follow links`);
          }
          throw error;
        }
        const truncated = bytes.length > FILE_TEXT_LIMIT;
        return {
          path: file.path,
          kind: file.kind,
          text: bytes.subarray(0, FILE_TEXT_LIMIT).toString('utf8'),
          truncated,
        };
      },
      'ideas:relationships': () => {
        open();
        return { relationships: allRelationships(ws.db) };
      },
      'ideas:questions': ({ slug }) => {
        open();
        return developmentView({
          questions: development().questions(slug),
          added: [],
          path: ideaFile(slug, 'development.md'),
          conflict: false,
        });
      },
      'ideas:develop': async ({ slug, provider, seed }) => {
        open();
        if (asking.has(slug)) throw new UserError(`the development agent is already asking about "${slug}"`);
        const chosen = provider ?? readSettings(ws.root).provider;
        const controller = new AbortController();
        asking.set(slug, controller);
        try {
          const result = await development().develop(slug, {
            provider: chosen,
            signal: controller.signal,
            ...(seed !== undefined ? { seed } : {}),
          });
          return developmentView(result);
        } catch (error) {
          if (controller.signal.aborted) throw new UserError('the development call was cancelled: nothing was written');
          throw error;
        } finally {
          asking.delete(slug);
        }
      },
      'ideas:developCancel': ({ slug }) => {
        const controller = asking.get(slug);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      'ideas:answer': ({ slug, number, text }) => {
        open();
        return developmentView(development().answer(slug, number, text));
      },
    },
  };
}

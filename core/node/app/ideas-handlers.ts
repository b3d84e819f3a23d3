import type { DevelopmentView, ideasChannels } from '../../contract';
import { ideaFile } from '../../idea/layout';
import { ClassificationService } from '../evaluations/classification-service';
import type { DevelopmentResult } from '../evaluations/development-service';
import { DevelopmentService } from '../evaluations/development-service';
import { LinkRefusedError, readInside } from '../fs/read-inside';
import { allRelationships, ideaFiles } from '../sqlite/index-sql';
import { importNotes } from '../workspace/import-notes';
import { UserError } from '../workspace/workspace';
import type { AppContext, AreaHandlers } from './app-context';
import { cruxesHandlers } from './cruxes-handlers';
import type { DebateReads } from './debate-view/debate-reads';
import type { EvaluationReader } from './evaluation-reader';
import { type ComparisonSources, compareIdeas } from './idea-comparison';
import { ledgerHandlers } from './ledger-handlers';
import { readSettings } from './settings-file';
import { withUploadedFile } from './uploads';
import { ideaSummary } from './views';

/** The largest part of an idea file `ideas:file` hands back (the page shows text, not archives). */
const FILE_TEXT_LIMIT = 512 * 1024;
const TEXT_FILE = /\.(md|markdown|txt)$/i;

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

/**
 * The handlers of the channels in core/contract/ideas-channels.ts: the library (list, read,
 * search), capture and attachments (by path on the desktop, by upload in browser mode), stage
 * moves, one text file of an idea, the graph's relationships, and the development Q&A with its
 * agent (one call per idea at a time, cancellable).
 */
export function ideasHandlers(
  ctx: AppContext,
  reading: { evaluations: EvaluationReader; reads: DebateReads },
): AreaHandlers<keyof typeof ideasChannels> {
  const { ws, memo, open } = ctx;
  const comparisonSources: ComparisonSources = {
    currentEvaluation: (slug) => {
      const current = reading.evaluations.summaries(slug).find((e) => e.current && e.status === 'completed');
      return current ? reading.evaluations.detail(current.id) : null;
    },
    // The ledger's own reading of every debate's cruxes (the same folds and caches), each with its
    // node in the global crux graph: "the same crux" across ideas is the graph's measure, one for
    // the whole app, not words that must match to the letter (two debates seldom word it alike).
    cruxes: async () => {
      const { cruxes } = await ledgerHandlers(ctx, reading.reads).impl['ledger:list']({});
      const graph = await cruxesHandlers(ctx, reading.reads).impl['cruxes:graph']({});
      const nodeOf = new Map(graph.nodes.flatMap((n) => n.members.map((m) => [`${m.debateId}/${m.thread}`, n.id])));
      return cruxes.map((c) => ({
        ideaSlug: c.ideaSlug,
        question: c.question,
        crystallized: c.crystallized,
        node: nodeOf.get(`${c.debateId}/${c.thread}`) ?? null,
      }));
    },
  };
  /** The development calls running now, by idea, so that one can be cancelled. */
  const asking = new Map<string, AbortController>();
  const development = () => new DevelopmentService(ws, ctx.providers);
  /** The ideas the classify agent is reading now: one call per idea at a time. */
  const classifying = new Set<string>();

  return {
    impl: {
      'ideas:list': (filter) => {
        open();
        const unfiltered = filter.stage === undefined && filter.type === undefined && filter.tag === undefined;
        if (unfiltered) return memo.get('ideas:list', () => ({ ideas: ws.list().map(ideaSummary) }));
        return { ideas: ws.list(filter).map(ideaSummary) };
      },
      'ideas:get': ({ slug }) => {
        open();
        const shown = ws.show(slug);
        return {
          ...ideaSummary(shown),
          secondaryTypes: shown.secondaryTypes,
          readme: shown.readme,
          files: shown.files.map((f) => ({ path: f.path, kind: f.kind, size: f.size })),
          relationships: shown.relationships.map((r) => ({
            source: r.source,
            target: r.target,
            type: r.type,
            strength: r.strength,
            reason: r.reason,
          })),
          errors: shown.errors,
        };
      },
      'ideas:search': ({ query, limit }) => {
        open();
        return {
          hits: ws
            .search(query, limit)
            .map((h) => ({ slug: h.slug, title: h.title, snippet: h.snippet, rank: h.rank })),
          total: ws.countMatches(query),
        };
      },
      'ideas:capture': (input) => {
        open();
        const result = ws.capture(input);
        return {
          slug: result.slug,
          path: result.path,
          conflict: result.conflict,
          idea: result.idea && ideaSummary(result.idea),
        };
      },
      'ideas:captureFile': ({ path, ...rest }) => {
        open();
        const result = ws.captureFile(path, rest);
        return {
          slug: result.slug,
          path: result.path,
          conflict: result.conflict,
          idea: result.idea && ideaSummary(result.idea),
        };
      },
      'ideas:captureUpload': ({ name, contentBase64, ...rest }) => {
        open();
        const result = withUploadedFile(name, contentBase64, (path) => ws.captureFile(path, rest));
        return {
          slug: result.slug,
          path: result.path,
          conflict: result.conflict,
          idea: result.idea && ideaSummary(result.idea),
        };
      },
      'ideas:attach': ({ slug, path }) => {
        open();
        return { path: ws.attach(slug, path).path };
      },
      'ideas:attachUpload': ({ slug, name, contentBase64 }) => {
        open();
        return { path: withUploadedFile(name, contentBase64, (path) => ws.attach(slug, path)).path };
      },
      'ideas:setStage': ({ slug, stage }) => {
        open();
        const result = ws.setStage(slug, stage);
        return { idea: result.idea && ideaSummary(result.idea), path: result.path, conflict: result.conflict };
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
      'ideas:classify': async ({ slug, provider, seed }) => {
        open();
        if (classifying.has(slug)) throw new UserError(`the classify agent is already reading "${slug}"`);
        classifying.add(slug);
        try {
          const result = await new ClassificationService(ws, ctx.providers).classify(slug, {
            provider: provider ?? readSettings(ws.root).provider,
            ...(seed !== undefined ? { seed } : {}),
          });
          return {
            type: result.classification.type,
            tags: result.classification.tags,
            freeTags: result.freeTags,
            relationships: result.classification.relationships.map((r) => ({
              source: slug,
              target: r.target,
              type: r.type,
              strength: r.strength ?? null,
              reason: r.reason ?? null,
            })),
            path: result.path,
            conflict: result.conflict,
          };
        } finally {
          classifying.delete(slug);
        }
      },
      'ideas:answer': ({ slug, number, text }) => {
        open();
        return developmentView(development().answer(slug, number, text));
      },
      'ideas:import': ({ path, ...rest }) => {
        open();
        return importNotes(ws, path, rest);
      },
      'ideas:compare': ({ slugs }) => {
        open();
        return compareIdeas(ws, comparisonSources, slugs);
      },
    },
  };
}

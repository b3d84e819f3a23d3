import { extname } from 'node:path';
import type { CapturePlacement } from '../../capture/choice';
import { classifyLexically, type PlacedIdea } from '../../capture/classify';
import type { CaptureClassification } from '../../capture/decision';
import { MODEL_CANDIDATES } from '../../capture/decision';
import { captureIdentity, identitiesIn } from '../../capture/identity';
import { classificationFromPlacement, placementRequest } from '../../capture/placement-request';
import { ideaTerms } from '../../capture/similarity';
import { ideaFile } from '../../idea/layout';
import type { AbortSignalLike } from '../../ports/llm';
import type { ProviderFactory, ProviderName } from '../debates/providers';
import { providerFor } from '../debates/providers';
import { readTextInside } from '../fs/read-inside';
import { nodeHasher } from '../hasher';
import { loadPersonas } from '../personas/load-personas';
import type { IdeaListRow } from '../sqlite/index-sql';
import { type CaptureResult, UserError, type Workspace } from '../workspace/workspace';

/**
 * The capture orchestrator: a captured text (typed into the box, or a markdown or text file) is
 * classified against the library before anything is written (NEW, EXISTING or AMBIGUOUS; see
 * core/capture/), then placed as the researcher chose: a new idea, an addition to an existing one,
 * or a new idea linked `inspired_by` the one it grew from. Without a provider the lexical rule
 * decides; with one, a model call decides from the lexical measure's best candidates.
 */

/** The most one capture's model call may cost, worst case (a fast-tier call costs about a tenth of a cent). */
export const CAPTURE_BUDGET_USD = 0.05;

/** What was captured: a title and text, or a file on this computer. */
export type CaptureSource =
  | { kind: 'text'; title: string; text: string; tags?: string[]; type?: string; stage?: string }
  | { kind: 'file'; path: string; type?: string; stage?: string };

export interface ClassifiedCapture {
  classification: CaptureClassification;
  /** What the model call cost (0 without one), and how its answer was read where not as written. */
  costUsd: number;
  repairs: string[];
}

export interface PlacedCapture {
  placed: CapturePlacement;
  /** The idea the text went to: the new one, or the existing one it was added to. */
  slug: string;
  path: string;
  conflict: boolean;
  idea: IdeaListRow | null;
  /** False when the existing idea already held this text (nothing was written). */
  written: boolean;
}

const FRONTMATTER = /^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/;

/** The library as the measure reads it, per workspace, kept per idea while its content hash holds. */
const readIdeas = new WeakMap<Workspace, Map<string, { hash: string; idea: PlacedIdea }>>();

/** The text a file capture is classified and placed by: its body, its title on top when the body lacks it. */
function fileText(title: string, body: string): string {
  return body.includes(title) ? body.trim() : `${title}\n\n${body.trim()}`;
}

const isText = (path: string) => ['.md', '.markdown', '.txt', '.text'].includes(extname(path).toLowerCase());

export class CaptureService {
  constructor(
    private readonly ws: Workspace,
    private readonly providers: ProviderFactory = providerFor,
  ) {}

  /** Every idea of the library with its terms and the identities its README records. */
  library(): PlacedIdea[] {
    const cache = readIdeas.get(this.ws) ?? new Map<string, { hash: string; idea: PlacedIdea }>();
    readIdeas.set(this.ws, cache);
    const rows = this.ws.list();
    const seen = new Set<string>();
    const out: PlacedIdea[] = [];
    for (const row of rows) {
      seen.add(row.slug);
      const kept = cache.get(row.slug);
      if (kept && kept.hash === row.contentHash) {
        out.push(kept.idea);
        continue;
      }
      let raw = '';
      try {
        raw = readTextInside(this.ws.root, ideaFile(row.slug, 'README.md'));
      } catch {
        // An unreadable README is placed by its title and summary; sync reports the file.
      }
      // Only the body is wanted (the title and summary come from the index): the frontmatter is cut off,
      // not parsed, which at thousands of ideas was a third of the time.
      const body = raw.replace(FRONTMATTER, '');
      const idea = {
        ...ideaTerms({ slug: row.slug, title: row.title, summary: row.summary, body }),
        identities: identitiesIn(raw),
      };
      cache.set(row.slug, { hash: row.contentHash, idea });
      out.push(idea);
    }
    for (const slug of cache.keys()) if (!seen.has(slug)) cache.delete(slug);
    return out;
  }

  /** The capture's title and text, as it is classified and placed. */
  private read(source: CaptureSource): { title: string; text: string } {
    if (source.kind === 'text') {
      const title = source.title.trim();
      if (title === '') throw new UserError('an idea needs a title (--title "…")');
      const text = source.text.trim();
      return { title, text: text ? `${title}\n\n${text}` : title };
    }
    const parsed = this.ws.readTextFile(source.path);
    return { title: parsed.title, text: fileText(parsed.title, parsed.body) };
  }

  /**
   * Where the capture belongs. With `provider`, a model decides among the lexical measure's best
   * candidates (not asked for a text captured before, nor in an empty library).
   */
  async classify(
    source: CaptureSource,
    options: { provider?: ProviderName; seed?: number; signal?: AbortSignalLike } = {},
  ): Promise<ClassifiedCapture> {
    if (source.kind === 'file' && !isText(source.path)) {
      // A picture or a PDF has no text to place: it becomes a new idea with the file as its first asset.
      const identity = captureIdentity(source.path, nodeHasher);
      return {
        classification: {
          decision: 'NEW',
          slug: null,
          candidates: [],
          inspiredBy: null,
          duplicateOf: null,
          identity,
          by: 'lexical',
          reason: 'it is not a text file: it becomes a new idea with the file as its first asset',
          terms: 0,
        },
        costUsd: 0,
        repairs: [],
      };
    }
    const { text } = this.read(source);
    const library = this.library();
    const identity = captureIdentity(text, nodeHasher);
    const lexical = classifyLexically(text, library, identity);
    if (!options.provider || !lexical.askable)
      return { classification: lexical.classification, costUsd: 0, repairs: [] };

    const persona = loadPersonas(this.ws.root).personas.find((p) => p.id === 'classifier');
    if (!persona) throw new UserError('the "classifier" persona did not load (see resources/personas)');
    const summaries = new Map(library.map((idea) => [idea.slug, idea.summary]));
    const shown = lexical.ranked
      .slice(0, MODEL_CANDIDATES)
      .map((c) => ({ ...c, summary: summaries.get(c.slug) ?? '' }));
    const request = placementRequest(persona, text, shown, lexical.classification.terms);
    const provider = this.providers(options.provider, this.ws.root, options.seed ?? 1);
    // One small call; its worst case is checked before it is made, like every model call's.
    const { check: _check, ...priced } = request;
    const worst = provider.estimate(priced);
    if (worst > CAPTURE_BUDGET_USD) {
      throw new UserError(
        `placing this capture with a model could cost up to $${worst.toFixed(4)}, over the $${CAPTURE_BUDGET_USD.toFixed(2)} a capture may spend (see the tiers in models.md); capture it without --provider`,
      );
    }
    const result = await provider.llm.call(options.signal ? { ...request, signal: options.signal } : request);
    return {
      classification: classificationFromPlacement(result.value, lexical.ranked, lexical.classification),
      costUsd: result.calls.reduce((sum, c) => sum + c.costUsd, 0),
      repairs: result.calls.flatMap((c) => c.repairs ?? []),
    };
  }

  /** Writes the capture where the researcher chose (see `CapturePlacement`). */
  place(source: CaptureSource, placement: CapturePlacement): PlacedCapture {
    const isTextSource = source.kind === 'text' || isText(source.path);
    const { title, text } = isTextSource ? this.read(source) : { title: '', text: source.path };
    const identity = captureIdentity(text, nodeHasher);
    if (placement.as === 'existing') {
      if (!isTextSource)
        throw new UserError(
          `${source.kind === 'file' ? source.path : ''} is not a text file: attach it to "${placement.slug}" instead`,
        );
      const added = this.ws.appendCapture(placement.slug, {
        title,
        text: source.kind === 'text' ? source.text : text,
        identity,
      });
      return {
        placed: placement,
        slug: placement.slug,
        path: added.path,
        conflict: added.conflict,
        idea: added.idea,
        written: added.appended,
      };
    }
    const links =
      placement.as === 'inspired'
        ? [{ target: placement.slug, type: 'inspired_by' as const, reason: 'captured as a new idea close to this one' }]
        : [];
    const extras = { ...(isTextSource ? { identity } : {}), ...(links.length ? { relationships: links } : {}) };
    let result: CaptureResult;
    if (source.kind === 'text') {
      const { kind: _kind, ...fields } = source;
      result = this.ws.capture({ ...fields, ...extras });
    } else {
      const { kind: _kind, path, ...fields } = source;
      result = this.ws.captureFile(path, { ...fields, ...extras });
    }
    return {
      placed: placement,
      slug: result.slug,
      path: result.path,
      conflict: result.conflict,
      idea: result.idea,
      written: true,
    };
  }
}
